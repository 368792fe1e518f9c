import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { bundledCli } from './checkTask';
import {
  CHECK_ALL_GLOB, MAX_FILES, MAX_OUTPUT_BYTES, batches, checkArgs, checkFiles, excludeGlob, readBatch, summaryText,
  type BatchResult, type FileCheck, type JsonDiagnostic, type Unreadable,
} from './checkAllResults';

export const CHECK_ALL_COMMAND = 'npuTrace.checkAll';

const SEVERITY: Record<JsonDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

function toDiagnostic(d: JsonDiagnostic): vscode.Diagnostic {
  // The JSON ranges are already 0-based, like LSP and VS Code.
  const range = new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character);
  const diag = new vscode.Diagnostic(range, d.message, SEVERITY[d.severity]);
  diag.code = d.code;
  diag.source = 'npu-trace';
  return diag;
}

/** One CLI run over `files` (absolute paths): the CLI streams each file, so their size does not matter here. */
function runBatch(context: vscode.ExtensionContext, files: string[], token: vscode.CancellationToken): Promise<BatchResult> {
  const cli = bundledCli(context);
  return new Promise((resolve) => {
    const settings = vscode.workspace.getConfiguration('npuTrace.diagnostics');
    const args = checkArgs({ maxProblems: settings.get('maxProblems'), maxLineBytes: settings.get('maxLineBytes') });
    const child = spawn(cli.command, [...cli.args, ...args, ...files], {
      env: { ...process.env, ...cli.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    const take = (into: Buffer[]) => (b: Buffer) => {
      bytes += b.length;
      if (bytes > MAX_OUTPUT_BYTES) child.kill();
      else into.push(b);
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(err));
    const cancel = token.onCancellationRequested(() => child.kill());
    const done = () => {
      cancel.dispose();
      resolve(readBatch(files, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8')));
    };
    child.on('error', done);
    child.on('close', done);
  });
}

/**
 * Checks every trace file of the workspace in the background, as `npu-trace check` would, into the
 * "NPU Trace (workspace)" problems; files open in an editor are left to the language server.
 */
export function registerCheckAll(context: vscode.ExtensionContext): (uri: vscode.Uri) => void {
  const collection = vscode.languages.createDiagnosticCollection('NPU Trace (workspace)');
  context.subscriptions.push(collection);
  // Once a file is opened the language server reports on it; two lists of the same problems would confuse.
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((doc) => collection.delete(doc.uri)));
  context.subscriptions.push(vscode.commands.registerCommand(CHECK_ALL_COMMAND, () => checkAll(context, collection)));
  return (uri) => void checkOne(context, collection, uri);
}

/**
 * Checks one file the language server never sees (a gzipped trace, opened in its timeline) as
 * `npu-trace check` does, into the same problems as Check All.
 */
async function checkOne(context: vscode.ExtensionContext, collection: vscode.DiagnosticCollection, uri: vscode.Uri): Promise<void> {
  if (uri.scheme !== 'file') return;
  const cts = new vscode.CancellationTokenSource();
  try {
    const r = await runBatch(context, [uri.fsPath], cts.token);
    const found = r.checked.find((c) => c.file === uri.fsPath);
    collection.set(uri, found ? found.diagnostics.map(toDiagnostic) : []);
  } finally {
    cts.dispose();
  }
}

async function checkAll(context: vscode.ExtensionContext, collection: vscode.DiagnosticCollection): Promise<void> {
  const exclude = excludeGlob(vscode.workspace.getConfiguration('files').get('exclude'), vscode.workspace.getConfiguration('search').get('exclude'));
  const found = await vscode.workspace.findFiles(CHECK_ALL_GLOB, exclude, MAX_FILES);
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  const files = found.filter((u) => u.scheme === 'file' && !open.has(u.toString())).map((u) => u.fsPath).sort();
  const skippedOpen = found.length - files.length;
  collection.clear();
  const checked: FileCheck[] = [];
  const unreadable: Unreadable[] = [];
  let cancelled = false;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'NPU Trace: checking workspace files', cancellable: true },
    async (progress, token) => {
      for (const batch of batches(files)) {
        if (token.isCancellationRequested) break;
        progress.report({ message: `${checked.length + unreadable.length} of ${files.length} files` });
        const r = await checkFiles(batch, (files) => runBatch(context, files, token), () => token.isCancellationRequested);
        if (token.isCancellationRequested) break;
        for (const c of r.checked) collection.set(vscode.Uri.file(c.file), c.diagnostics.map(toDiagnostic));
        checked.push(...r.checked);
        unreadable.push(...r.unreadable);
        progress.report({ increment: (100 * batch.length) / files.length });
      }
      cancelled = token.isCancellationRequested;
    },
  );
  const text = summaryText(checked, unreadable, skippedOpen, cancelled);
  const capped = found.length >= MAX_FILES ? ` Only the first ${MAX_FILES} files were looked at.` : '';
  if (unreadable.length) void vscode.window.showWarningMessage(text + capped);
  else void vscode.window.showInformationMessage(text + capped);
}
