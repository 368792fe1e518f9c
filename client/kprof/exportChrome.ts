import * as vscode from 'vscode';
import { SyncSink } from '../../cli/syncSink';
import { escapeControl } from '../../core/common/escape';
import type { Decoded } from '../../core/kprof/decode';
import { kprofChromeTrace } from '../../core/kprof/chrome';
import type { ProfBuffer } from '../../core/kprof/words';

/**
 * "Export as Chrome Trace (Perfetto)" for a profiler buffer: the decoded launch shown in the
 * editor, written by the one exporter (one pid per block, one tid per group) straight to the file
 * in 1 MB pieces (8M regions are gigabytes of JSON: never held as one string). A failed export
 * leaves no partial file.
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
    sink = new SyncSink(target.fsPath);
    const s = sink;
    kprofChromeTrace(buf, d, name, (text) => s.text(text));
    sink.close();
    sink = undefined;
  } catch (e) {
    try { sink?.close(); } catch { /* already failing: the error below is the one to show */ }
    await Promise.resolve(vscode.workspace.fs.delete(target)).catch(() => undefined);
    void vscode.window.showErrorMessage(`Export as Chrome Trace failed: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    return undefined;
  }
  void vscode.window.showInformationMessage(`Exported ${escapeControl(target.path.slice(target.path.lastIndexOf('/') + 1))}: open it in ui.perfetto.dev or chrome://tracing.`);
  return target;
}
