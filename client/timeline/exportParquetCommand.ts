import * as vscode from 'vscode';
import { escapeControl } from '../../core/common/escape';
import type { ExportProgress } from '../../protocol/parquetWorker';
import { exportParquetInto, ParquetExportCancelled } from '../../node/export/parquetInto';
import { progressSteps } from './parquetProgress';
import { fileName } from './documentRequest';
import { EXPORT_PARQUET } from './commandIds';

export { EXPORT_PARQUET };

/**
 * "Export as Parquet…": the saved file exported as the CLI's `npu-trace export --to parquet` does,
 * into `<folder>/<run>/`, in the same worker thread, with a progress notification and Cancel; a
 * cancelled or failed export leaves no table behind. The worker reads the file on disk, so a
 * document with unsaved edits is saved first (after asking).
 */
export async function exportParquetCommand(extensionUri: vscode.Uri, arg?: unknown): Promise<vscode.Uri | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    void vscode.window.showErrorMessage('Export as Parquet: open a saved trace (NPU trace, NNAPI systrace, Chrome JSON, InferScope, profiler buffer) or pick one in the explorer first.');
    return undefined;
  }
  const name = fileName(uri);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (doc?.isDirty) {
    const save = await vscode.window.showWarningMessage(`${escapeControl(name)} has unsaved changes: the Parquet export reads the file on disk.`, 'Save and Export');
    if (!save || !(await doc.save())) return undefined;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false,
    defaultUri: vscode.Uri.joinPath(uri, '..'), openLabel: 'Export Here', title: `Export ${name} as Parquet: output folder`,
  });
  if (!picked?.length) return undefined;
  const workerFile = vscode.Uri.joinPath(extensionUri, 'dist', 'exportParquetWorker.js').fsPath;
  try {
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${escapeControl(name)} as Parquet`, cancellable: true }, (progress, token) => {
      const stop = new AbortController();
      const sub = token.onCancellationRequested(() => stop.abort());
      const step = progressSteps();
      const onProgress = (p: ExportProgress) => {
        const s = step(p);
        if (s) progress.report(s);
      };
      return exportParquetInto(workerFile, uri.fsPath, picked[0].fsPath, stop.signal, onProgress).finally(() => sub.dispose());
    });
    const tables = Object.entries(r.rows).map(([t, n]) => `${t}.parquet (${n} rows)`).join(', ');
    const dir = vscode.Uri.file(r.dir);
    const reveal = await vscode.window.showInformationMessage(`Exported ${escapeControl(name)} to ${escapeControl(r.dir)}: ${tables}.`, 'Reveal in Explorer');
    if (reveal) await vscode.commands.executeCommand('revealFileInOS', dir);
    return dir;
  } catch (e) {
    if (e instanceof ParquetExportCancelled) return undefined;
    void vscode.window.showErrorMessage(`Export as Parquet failed: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    return undefined;
  }
}
