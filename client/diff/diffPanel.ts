import * as vscode from 'vscode';
import type { DiffResult } from '../../core/diff/types';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import { JobCancelled, runJob } from '../../node/jobs/runJob';
import { type CompareJob, type CompareResults, readCompareMessage } from '../../protocol/compareWorker';
import { parseDiffPageMessage, type DiffHostMessage, type DiffPageMessage } from '../../protocol/diff';
import { cspNonce } from '../timeline/host';
import { fileName } from '../timeline/documentRequest';
import { diffPage } from './html';

export const DIFF_VIEW_TYPE = 'npuTrace.diff';

/**
 * The Diff view of two runs: the comparison is made by dist/compareWorker.js (both files read and
 * compared off the extension host's main thread, cancellable from the progress notification or
 * by closing the view); the page shows it and asks for the kind picked and for a group's timelines.
 */
export class DiffPanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly stop = new AbortController();
  private results: CompareResults | undefined;
  private ready = false;
  /** The latest state-bearing message, kept until the page listens. */
  private queued: DiffHostMessage | undefined;

  constructor(extensionUri: vscode.Uri, private readonly a: vscode.Uri, private readonly b: vscode.Uri, private readonly fmt: FormatDescriptor, private readonly openGroup: (group: { kind: string; key: string }) => void) {
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const title = `Diff: ${fileName(a)} ↔ ${fileName(b)}`;
    this.panel = vscode.window.createWebviewPanel(DIFF_VIEW_TYPE, title, vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [assets] });
    this.panel.webview.html = diffPage({
      cspSource: this.panel.webview.cspSource,
      nonce: cspNonce(),
      scriptUri: this.panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'diff.js')).toString(),
      title,
    });
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((raw) => {
        const m = parseDiffPageMessage(raw);
        if (m) this.onMessage(m);
      }),
      this.panel.onDidDispose(() => this.dispose()),
    );
    void this.compare(extensionUri);
  }

  private async compare(extensionUri: vscode.Uri): Promise<void> {
    const job: CompareJob = { a: this.a.fsPath, b: this.b.fsPath, format: this.fmt.id };
    const worker = vscode.Uri.joinPath(extensionUri, 'dist', 'compareWorker.js').fsPath;
    this.post({ type: 'progress', message: `Comparing ${fileName(this.a)} with ${fileName(this.b)}…` });
    try {
      this.results = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Diff: reading ${fileName(this.a)} and ${fileName(this.b)}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => this.stop.abort());
          let last = 0;
          return runJob(worker, job, {
            read: readCompareMessage, signal: this.stop.signal, name: 'the comparison worker',
            onProgress: (p) => {
              const pct = Math.min(100, (100 * p.bytes) / Math.max(1, p.total));
              progress.report({ increment: pct - last, message: `${Math.round(p.bytes / 1048576)} of ${Math.round(p.total / 1048576)} MB` });
              last = pct;
            },
          });
        },
      );
      this.show('');
    } catch (e) {
      const message = e instanceof JobCancelled ? 'The comparison was cancelled. Run "Compare with…" again to retry.' : `The comparison failed: ${e instanceof Error ? e.message : String(e)}`;
      this.post({ type: 'error', message });
    }
  }

  /** The comparison over kind `by` ('' every kind), with the files named as the workspace names them. */
  private show(by: string): void {
    const r = this.results;
    if (!r) return;
    const chosen: DiffResult = (by && r.byKind[by]) || r.all;
    const named: DiffResult = { ...chosen, a: { ...chosen.a, file: vscode.workspace.asRelativePath(this.a) }, b: { ...chosen.b, file: vscode.workspace.asRelativePath(this.b) } };
    this.post({ type: 'result', kinds: [...this.fmt.diff!.kinds], by: chosen === r.all ? '' : by, result: named, notes: r.notes });
  }

  private post(m: DiffHostMessage): void {
    if (!this.ready) {
      this.queued = m;
      return;
    }
    void this.panel.webview.postMessage(m);
  }

  private onMessage(m: DiffPageMessage): void {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (this.queued) this.post(this.queued);
        this.queued = undefined;
        return;
      case 'by':
        this.show(m.kind);
        return;
      case 'open':
        this.openGroup({ kind: m.kind, key: m.key });
        return;
      case 'error':
        console.error(`diff page: ${m.message}`);
        return;
      default: {
        const never: never = m;
        return never;
      }
    }
  }

  dispose(): void {
    this.stop.abort();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
