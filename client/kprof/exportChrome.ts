import * as vscode from 'vscode';
import { SyncSink } from '../../node/io/syncSink';
import { escapeControl } from '../../core/common/escape';
import type { Decoded } from '../../core/kprof/decode';
import { kprofChromeTracePieces } from '../../core/kprof/chrome';
import type { ProfBuffer } from '../../core/kprof/words';

/** About 5 MB of output between two pauses. */
const PIECES_PER_PAUSE = 10_000;

/**
 * "Export as Chrome Trace (Perfetto)" for a profiler buffer: the decoded launch shown in the
 * editor, written by the one exporter (one pid per block, one tid per group) straight to the file
 * in 1 MB pieces (8M regions are gigabytes of JSON: never held as one string), with progress and
 * Cancel. A failed or cancelled export leaves no partial file.
 */
export async function exportKprofChromeTrace(uri: vscode.Uri, buf: ProfBuffer, d: Decoded, launch: number): Promise<vscode.Uri | undefined> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const stem = name.replace(/\.(?:npy|npz|bin)$/i, '');
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(uri, '..', `${stem || 'kprof'}${launch ? `.launch${launch}` : ''}.chrome.json`),
    filters: { 'Chrome Trace JSON': ['json', 'gz'] },
    title: 'Export as Chrome Trace (Perfetto)',
  });
  if (!target) return undefined;
  let sink: SyncSink | undefined;
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${escapeControl(name)} as Chrome Trace`, cancellable: true }, async (progress, token) => {
      const s = (sink = new SyncSink(target.fsPath));
      let n = 0;
      for (const piece of kprofChromeTracePieces(buf, d, name)) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        s.text(piece);
        // The extension host serves every other extension: let it breathe every few MB.
        if (++n % PIECES_PER_PAUSE === 0) {
          progress.report({ message: `${(s.bytesWritten / 1048576).toFixed(0)} MB` });
          await new Promise((r) => setImmediate(r));
        }
      }
      s.close();
      sink = undefined;
    });
  } catch (e) {
    try { sink?.close(); } catch { /* already failing: the error below is the one to show */ }
    await Promise.resolve(vscode.workspace.fs.delete(target)).catch(() => undefined);
    if (!(e instanceof vscode.CancellationError)) void vscode.window.showErrorMessage(`Export as Chrome Trace failed: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    return undefined;
  }
  void vscode.window.showInformationMessage(`Exported ${escapeControl(target.path.slice(target.path.lastIndexOf('/') + 1))}: open it in ui.perfetto.dev or chrome://tracing.`);
  return target;
}
