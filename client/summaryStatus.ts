/**
 * The status-bar item of an open NPU trace: its overall TE utilization (TE busy cycles of all
 * cores over cores × span), computed by the core's collector in the timeline worker, never on the
 * extension host's thread; cached per document version; hidden for other editors. Clicking it
 * runs "NPU Trace: Show Summary".
 */
import * as vscode from 'vscode';
import { overallTeUtil } from '../protocol/stats';
import { statsInWorker } from './timeline/build';
import { SHOW_SUMMARY } from './timeline/commands';
import { documentRequest, fileName } from './timeline/documentRequest';

/** Edits come in bursts: the worker runs once typing pauses. */
const EDIT_DEBOUNCE_MS = 500;

export function registerSummaryStatus(context: vscode.ExtensionContext): void {
  const item = vscode.window.createStatusBarItem('npuTrace.teUtilization', vscode.StatusBarAlignment.Right, 100);
  item.name = 'NPU Trace: TE utilization';
  item.command = SHOW_SUMMARY;
  const workerFile = vscode.Uri.joinPath(context.extensionUri, 'dist', 'timelineWorker.js').fsPath;
  /** Text per document, for the version it was computed for. */
  const cache = new Map<string, { version: number; text: string; tooltip: string }>();
  let running: vscode.CancellationTokenSource | undefined;
  let timer: NodeJS.Timeout | undefined;

  const update = async (): Promise<void> => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'npu-trace') {
      item.hide();
      return;
    }
    const key = doc.uri.toString();
    const hit = cache.get(key);
    if (hit && hit.version === doc.version) {
      item.text = hit.text;
      item.tooltip = hit.tooltip;
      item.show();
      return;
    }
    running?.cancel();
    const cts = (running = new vscode.CancellationTokenSource());
    const version = doc.version;
    item.text = '$(sync~spin) TE';
    item.tooltip = 'Computing the overall TE utilization…';
    item.show();
    try {
      const stats = await statsInWorker(workerFile, documentRequest(doc, fileName(doc.uri)), {}, cts.token);
      const u = overallTeUtil(stats);
      const entry = {
        version,
        text: u === null ? 'TE —' : `TE ${(u * 100).toFixed(1)}%`,
        tooltip: `Overall TE utilization: TE busy cycles of ${stats.cores.length} core(s) over the trace's span. Click for the Summary.`,
      };
      cache.set(key, entry);
      if (vscode.window.activeTextEditor?.document === doc && doc.version === version) {
        item.text = entry.text;
        item.tooltip = entry.tooltip;
      }
    } catch (e) {
      if (e instanceof vscode.CancellationError || cts.token.isCancellationRequested) return;
      item.text = 'TE ?';
      item.tooltip = `The TE utilization could not be computed: ${e instanceof Error ? e.message : String(e)}`;
    }
  };

  context.subscriptions.push(
    item,
    { dispose: () => { running?.cancel(); clearTimeout(timer); } },
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== vscode.window.activeTextEditor?.document || e.document.languageId !== 'npu-trace') return;
      clearTimeout(timer);
      timer = setTimeout(() => void update(), EDIT_DEBOUNCE_MS);
    }),
    vscode.workspace.onDidCloseTextDocument((d) => cache.delete(d.uri.toString())),
  );
  void update();
}
