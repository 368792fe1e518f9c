import * as vscode from 'vscode';
import { escapeControl } from '../../core/common/escape';
import { kprofExportFor } from '../kprof/editor';
import { exportInWorker } from './build';
import { EXPORT_CHROME_TRACE } from './commandIds';
import { exportName } from './exportName';
import { documentRequest, fileName } from './documentRequest';

export { EXPORT_CHROME_TRACE };


/**
 * "Export as Chrome Trace (Perfetto)": the file (the open document's current text when it has
 * unsaved edits, else streamed from disk) written as Chrome Trace JSON by the timeline worker, with
 * a progress notification and Cancel; a cancelled export leaves no partial file.
 */
export async function exportChromeTraceCommand(extensionUri: vscode.Uri, arg?: unknown): Promise<vscode.Uri | undefined> {
  const kprof = kprofExportFor(arg);
  if (kprof) return kprof();
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showErrorMessage('Export as Chrome Trace: open a trace (NPU trace, NNAPI systrace, Chrome JSON) or pick one in the explorer first.');
    return undefined;
  }
  const name = fileName(uri);
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(uri, '..', exportName(name)),
    filters: { 'Chrome Trace JSON': ['json', 'gz'] },
    title: 'Export as Chrome Trace (Perfetto)',
  });
  if (!target) return undefined;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const req = doc ? documentRequest(doc, name) : { kind: 'file' as const, fileName: name, path: uri.fsPath };
  const workerFile = vscode.Uri.joinPath(extensionUri, 'dist', 'timelineWorker.js').fsPath;
  try {
    const bytes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${escapeControl(name)} as Chrome Trace`, cancellable: true }, (progress, token) => {
      let pass: 1 | 2 = 1;
      return exportInWorker(workerFile, req, target.fsPath, token, (read) => progress.report({ message: `${pass === 1 ? 'reading' : 'writing'}: ${(read / 1048576).toFixed(0)} MB` }), (p) => {
        pass = p;
        progress.report({ message: p === 1 ? 'reading' : 'writing' });
      });
    });
    const open = await vscode.window.showInformationMessage(`Exported ${escapeControl(fileName(target))} (${(bytes / 1048576).toFixed(1)} MB): open it in ui.perfetto.dev or chrome://tracing.`, 'Reveal in Explorer');
    if (open) await vscode.commands.executeCommand('revealFileInOS', target);
    return target;
  } catch (e) {
    await Promise.resolve(vscode.workspace.fs.delete(target)).catch(() => undefined);
    if (e instanceof vscode.CancellationError) return undefined;
    void vscode.window.showErrorMessage(`Export as Chrome Trace failed: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    return undefined;
  }
}
