import * as vscode from 'vscode';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import type { TimelineModel } from '../../core/timeline/model';
import { parseComparePageMessage, type CompareHostMessage } from '../../protocol/diff';
import { fileName } from '../timeline/documentRequest';
import { cspNonce, type TimelineHost } from '../timeline/host';
import { compareTimelinesPage } from './html';

export const COMPARE_TIMELINES_VIEW_TYPE = 'npuTrace.compareTimelines';

interface Shown {
  panel: vscode.WebviewPanel;
  pair: string;
  ready: boolean;
  queued: CompareHostMessage | undefined;
  /** Both models once built (a click on another group of the same pair reuses them). */
  models: Promise<[TimelineModel, TimelineModel]>;
  cancel: vscode.CancellationTokenSource;
  subs: vscode.Disposable[];
}

/**
 * Compare Timelines: one panel showing both runs' timelines one above the other (webview/compare/),
 * zoom and pan locked in the page, the group clicked in the Diff view highlighted in both. One
 * panel at a time: a group of the same pair reuses its models, another pair replaces it. The
 * models are built by the timeline's own worker, as Show Timeline builds them from disk.
 */
export class CompareTimelines implements vscode.Disposable {
  private shown: Shown | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly host: TimelineHost) {}

  show(a: vscode.Uri, b: vscode.Uri, fmt: FormatDescriptor, group: { kind: string; key: string }): void {
    const pair = `${a.toString()}\u0000${b.toString()}`;
    let s = this.shown;
    if (!s || s.pair !== pair) {
      this.close();
      s = this.shown = this.open(a, b, pair);
    } else s.panel.reveal(undefined, false);
    const target = s;
    const match = fmt.diff?.timeline?.[group.kind] ?? null;
    s.models.then(
      ([ma, mb]) => this.post(target, { type: 'models', a: { fileName: fileName(a), model: ma }, b: { fileName: fileName(b), model: mb }, group, match, markers: [...(fmt.diff?.markers ?? [])] }),
      (e: unknown) => this.post(target, {
        type: 'error',
        message: e instanceof vscode.CancellationError ? 'Reading was cancelled: click the group again to retry.' : `Could not build the timelines: ${e instanceof Error ? e.message : String(e)}`,
      }),
    );
  }

  private open(a: vscode.Uri, b: vscode.Uri, pair: string): Shown {
    const assets = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const title = `Timelines: ${fileName(a)} ↔ ${fileName(b)}`;
    const panel = vscode.window.createWebviewPanel(COMPARE_TIMELINES_VIEW_TYPE, title, vscode.ViewColumn.Beside, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [assets] });
    panel.webview.html = compareTimelinesPage({
      cspSource: panel.webview.cspSource,
      nonce: cspNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'compare.js')).toString(),
      title,
    });
    const cancel = new vscode.CancellationTokenSource();
    const s: Shown = { panel, pair, ready: false, queued: undefined, models: this.build(a, b, cancel.token), cancel, subs: [] };
    s.models.catch(() => undefined);
    s.subs.push(
      panel.webview.onDidReceiveMessage((raw) => {
        const m = parseComparePageMessage(raw);
        if (m?.type === 'ready') {
          s.ready = true;
          if (s.queued) this.post(s, s.queued);
          s.queued = undefined;
        } else if (m?.type === 'error') console.error(`compare timelines page: ${m.message}`);
      }),
      panel.onDidDispose(() => {
        s.cancel.cancel();
        for (const d of s.subs.splice(0)) d.dispose();
        if (this.shown === s) this.shown = undefined;
      }),
    );
    this.post(s, { type: 'progress', message: `Reading ${fileName(a)} and ${fileName(b)}…` });
    return s;
  }

  /** Both models, built side by side in two workers, with one cancellable notification. */
  private build(a: vscode.Uri, b: vscode.Uri, token: vscode.CancellationToken): Promise<[TimelineModel, TimelineModel]> {
    const disk = this.host.disk;
    if (!disk) return Promise.reject(new Error('comparing timelines needs files on disk'));
    return Promise.resolve(vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Timelines: reading ${fileName(a)} and ${fileName(b)}`, cancellable: true },
      async (_progress, t) => {
        const cts = new vscode.CancellationTokenSource();
        const subs = [t.onCancellationRequested(() => cts.cancel()), token.onCancellationRequested(() => cts.cancel())];
        try {
          return await Promise.all([a, b].map((u) => disk.build(u.fsPath, fileName(u), cts.token, () => undefined, () => undefined))) as [TimelineModel, TimelineModel];
        } finally {
          subs.forEach((d) => d.dispose());
          cts.dispose();
        }
      },
    ));
  }

  private post(s: Shown, m: CompareHostMessage): void {
    if (!s.ready) {
      s.queued = m;
      return;
    }
    void s.panel.webview.postMessage(m);
  }

  private close(): void {
    this.shown?.panel.dispose();
    this.shown = undefined;
  }

  dispose(): void {
    this.close();
  }
}
