import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'npu-trace-inspector.npu-trace-inspector';
/** Upper bound for one awaited event; a guard that fails the test with a clear message, never a sleep. */
export const WAIT_MS = 30_000;

export function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the end-to-end suite needs a workspace folder (a copy of examples/)');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openEditor(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc, { preview: false });
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

export function describeDiagnostics(ds: readonly vscode.Diagnostic[]): string {
  return ds.length === 0 ? '(none)' : ds.slice(0, 20).map((d) => `${d.range.start.line}:${d.range.start.character} ${codeOf(d)}`).join(', ');
}

/**
 * Resolves with the diagnostics of `uri` once `pred` holds: checks now, then on every
 * onDidChangeDiagnostics event for that document. `sawEvent` waits for at least one event first,
 * for when the current (maybe still empty) state proves nothing.
 */
export function diagnosticsWhere(uri: vscode.Uri, what: string, pred: (ds: vscode.Diagnostic[]) => boolean,
  opts: { sawEvent?: Promise<void>; timeoutMs?: number } = {}): Promise<vscode.Diagnostic[]> {
  const key = uri.toString();
  return new Promise((resolve, reject) => {
    let ready = !opts.sawEvent;
    const check = () => {
      if (!ready) return;
      const ds = vscode.languages.getDiagnostics(uri);
      if (pred(ds)) {
        cleanup();
        resolve(ds);
      }
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key)) check();
    });
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${opts.timeoutMs ?? WAIT_MS} ms waiting for ${what} in ${uri.path.split('/').pop()}; `
        + `diagnostics now: ${describeDiagnostics(vscode.languages.getDiagnostics(uri))}`));
    }, opts.timeoutMs ?? WAIT_MS);
    function cleanup() {
      clearTimeout(timer);
      sub.dispose();
    }
    void opts.sawEvent?.then(() => {
      ready = true;
      check();
    });
    check();
  });
}

/** A promise for the next diagnostics event naming `uri`; create it before the action that causes it. */
export function nextDiagnosticsEvent(uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  return new Promise((resolve) => {
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key)) {
        sub.dispose();
        resolve();
      }
    });
  });
}

/** Activates the extension installed from the .vsix and checks that it is that copy. */
export async function activateInstalled(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this VS Code`);
  await ext.activate();
  // The .vsix holds bundles only: a development checkout would also have client/extension.ts.
  assert.ok(existsSync(`${ext.extensionPath}/dist/server.js`), `no dist/server.js in ${ext.extensionPath}`);
  assert.ok(!existsSync(`${ext.extensionPath}/client/extension.ts`), `${ext.extensionPath} is a source checkout, not the installed .vsix`);
  return ext;
}

/**
 * Ids of the language server processes: children of this extension host running dist/server.js.
 * Lets a test tell a server that survived from one the client silently restarted. Linux only
 * (/proc); elsewhere undefined and the caller skips that check.
 */
export function serverPids(): number[] | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('dist/server.js')) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Line numbers (0-based) whose text matches `re`. */
export function linesMatching(doc: vscode.TextDocument, re: RegExp): number[] {
  const out: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) if (re.test(doc.lineAt(i).text)) out.push(i);
  return out;
}

/** Position of the first character of the value of `"key":` on `line` (generated lines have no spaces). */
export function valuePosition(doc: vscode.TextDocument, line: number, key: string): vscode.Position {
  const text = doc.lineAt(line).text;
  const k = text.indexOf(`"${key}":`);
  assert.ok(k >= 0, `no "${key}" on line ${line}: ${text.slice(0, 120)}`);
  return new vscode.Position(line, k + key.length + 3);
}
