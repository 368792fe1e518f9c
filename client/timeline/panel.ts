import * as vscode from 'vscode';
import { MAX_REVEAL_LINES, parseWebviewMessage, type HostMessage, type Span, type WebviewMessage } from '../../protocol/timeline';
import { toWire } from '../../protocol/modelWire';
import { DetailLines } from './detailLines';
import { fileName } from './documentRequest';
import { lineFields, spanText } from './fields';
import { cspNonce, type TimelineHost } from './host';
import { timelinePage } from './html';
import { saveTable } from './saveTable';
import { EXPORT_CHROME_TRACE } from './commandIds';
import { EXPORT_PARQUET } from './commandIds';
import { CLEAR_BASELINE, COMPARE_WITH, PIN_BASELINE } from './commandIds';
import { formatByName } from '../../core/detectFormat';
import { FORMATS } from '../../core/formats';
import type { TimelineModel } from '../../core/timeline/model';

export const VIEW_TYPE = 'npuTrace.timeline';
const EDIT_DEBOUNCE_MS = 300;

/** One timeline panel, showing one file and linked to its editor both ways. */
export class TimelinePanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private build: vscode.CancellationTokenSource | undefined;
  /** The range summary under way: a new range cancels it. */
  private rangeBuild: vscode.CancellationTokenSource | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private ready = false;
  private queued: HostMessage | undefined;
  /** Show Summary ran before the page listened: sent after the queued state. */
  private summaryQueued = false;
  /** showLine before the complete model was shown: sent after it. */
  private lineQueued: number | undefined;
  private complete = false;
  /** Items to show that came before the page listened: sent after the queued state. */
  private revealQueued: HostMessage | undefined;
  /** Whether the model came from the open document (then edits update it). */
  private fromDocument = false;
  /** The lines details are shown of. */
  private readonly lines: DetailLines;
  /** Whether the model is of a binary format (a Perfetto trace): its details are packets decoded by the worker, it has no lines to reveal. */
  private binary = false;
  /** The details request under way (binary formats): a new click cancels it. */
  private detailsBuild: vscode.CancellationTokenSource | undefined;
  /** The comparison with the pinned baseline under way: a new request cancels it. */
  private baselineRun: vscode.CancellationTokenSource | undefined;
  /** Called with each complete model (the read-only editor's status bar item). */
  onComplete: ((model: TimelineModel) => void) | undefined;

  constructor(
    readonly uri: vscode.Uri,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: vscode.OutputChannel,
    onDispose: () => void,
    private readonly host: TimelineHost,
  ) {
    this.lines = new DetailLines(uri, host, () => this.fromDocument);
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    panel.webview.options = { enableScripts: true, localResourceRoots: [assets] };
    panel.title = `Timeline: ${fileName(uri)}`;
    panel.webview.html = timelinePage({
      cspSource: panel.webview.cspSource,
      nonce: cspNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'webview.css')).toString(),
      title: panel.title,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw) => {
        const m = parseWebviewMessage(raw);
        if (!m) this.log.appendLine(`timeline: ignored an invalid message from the page`);
        else void this.onMessage(m);
      }),
      panel.onDidDispose(() => {
        this.dispose();
        onDispose();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() !== uri.toString() || !e.contentChanges.length) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.load(), EDIT_DEBOUNCE_MS);
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document.uri.toString() !== uri.toString()) return;
        const at = e.selections[0].active;
        this.post({ type: 'selectLine', line: at.line, character: at.character });
      }),
      ...(host.baseline ? [host.baseline.onDidChange(() => this.postPinned())] : []),
    );
    void this.load();
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  /** Selects the item of trace line `line` once the complete model is shown (CMDQ: Show Layer in Timeline). */
  showLine(line: number): void {
    this.panel.reveal(undefined, false);
    if (this.ready && this.complete) this.post({ type: 'selectLine', line });
    else this.lineQueued = line;
  }

  /** Shows the Summary tab (its numbers come with the complete model, from the same parse). */
  showSummary(): void {
    this.panel.reveal(undefined, false);
    this.post({ type: 'showSummary' });
  }

  /** Zooms to the items drawn from these lines and selects the first (an InferScope finding's events). */
  revealLines(lines: number[]): void {
    this.panel.reveal(undefined, false);
    if (lines.length) this.post({ type: 'revealLines', lines: lines.slice(0, MAX_REVEAL_LINES) });
  }

  /**
   * Builds the model in a worker: from the open document when there is one, else from disk
   * (explorer, .gz, and files over 50 MB, which VS Code never hands to extensions as documents).
   */
  async load(): Promise<void> {
    this.build?.cancel();
    const cts = (this.build = new vscode.CancellationTokenSource());
    const name = fileName(this.uri);
    const requested = Date.now();
    try {
      // A binary trace (by its name) is never read as a text document, even when one is open.
      const bytes = /\.gz$/i.test(name) || formatByName(name)?.binary === true;
      // Without a file system (the browser), a file picked in the explorer is opened as a document.
      const doc = bytes ? undefined : vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.uri.toString())
        ?? (this.host.disk ? undefined : await vscode.workspace.openTextDocument(this.uri));
      let model;
      if (doc) {
        this.fromDocument = true;
        this.post({ type: 'progress', message: `Building the timeline of ${name}…` });
        model = await this.host.buildDocument(doc, name, cts.token, (m) => this.post({ type: 'model', uri: this.uri.toString(), fileName: name, model: m, complete: false }));
      } else {
        this.fromDocument = false;
        const disk = this.host.disk;
        if (this.uri.scheme !== 'file' || !disk) throw new Error(`${name} is not open and not on disk: open it in an editor first.`);
        const size = await disk.size(this.uri.fsPath);
        this.post({ type: 'progress', message: `Reading ${name}…` });
        model = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Timeline: reading ${name}`, cancellable: true },
          (progress, token) => {
            token.onCancellationRequested(() => cts.cancel());
            let last = 0;
            return disk.build(this.uri.fsPath, name, cts.token, (bytes) => {
              const pct = Math.min(100, (bytes / Math.max(1, size)) * 100);
              progress.report({ increment: pct - last, message: `${Math.round(bytes / 1048576)} of ${Math.round(size / 1048576)} MB` });
              last = pct;
            }, (m) => this.post({ type: 'model', uri: this.uri.toString(), fileName: name, model: m, complete: false }));
          },
        );
      }
      if (cts.token.isCancellationRequested) return;
      this.binary = FORMATS.find((f) => f.id === model.format)?.binary === true;
      this.onComplete?.(model);
      this.post({ type: 'model', uri: this.uri.toString(), fileName: name, model, complete: true, timing: { requested, built: Date.now() } });
      this.complete = true;
      if (this.lineQueued !== undefined && this.ready) {
        this.post({ type: 'selectLine', line: this.lineQueued });
        this.lineQueued = undefined;
      }
    } catch (e) {
      if (e instanceof vscode.CancellationError || cts.token.isCancellationRequested) {
        if (this.build === cts) this.post({ type: 'error', message: 'Reading was cancelled. Run "NPU Trace: Show Timeline" again to retry.' });
        return;
      }
      const message = `Could not build the timeline of ${name}: ${e instanceof Error ? e.message : String(e)}`;
      this.log.appendLine(message);
      this.post({ type: 'error', message });
    }
  }

  private post(m: HostMessage): void {
    // Until the page says it listens, keep only the latest state-bearing message. Not even a model
    // goes earlier: VS Code's webview host queues messages for a page still loading, but drops them
    // when the content is set again meanwhile (pre/index.html), and a model posted early left the
    // read-only Perfetto timeline on "Loading…" in one end-to-end run of 11c9a1d.
    if (!this.ready) {
      if (m.type === 'showSummary') this.summaryQueued = true;
      else if (m.type === 'revealLines') this.revealQueued = m;
      else if (m.type !== 'selectLine' && m.type !== 'details' && m.type !== 'rangeStats' && m.type !== 'baselinePinned' && m.type !== 'baselineDiff') this.queued = m;
      return;
    }
    // A model goes in fewer bytes (protocol/modelWire.ts); the page widens it back.
    void this.panel.webview.postMessage(toWire(m));
  }

  private async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (this.queued) {
          const q = this.queued;
          this.queued = undefined;
          this.post(q);
        }
        if (this.summaryQueued) {
          this.summaryQueued = false;
          this.post({ type: 'showSummary' });
        }
        if (this.lineQueued !== undefined && this.complete) {
          this.post({ type: 'selectLine', line: this.lineQueued });
          this.lineQueued = undefined;
        }
        if (this.revealQueued) {
          const r = this.revealQueued;
          this.revealQueued = undefined;
          this.post(r);
        }
        this.postPinned();
        return;
      case 'showInCmdq':
        await vscode.commands.executeCommand('npuTrace.cmdq.showInCmdq', m.layer);
        return;
      case 'select': {
        if (this.binary) {
          await this.packetDetails(m);
          return;
        }
        const lines = await this.lines.texts([m.line, ...(m.endLine === null ? [] : [m.endLine])]);
        // On a line holding several events (a one-line Chrome trace) the fields are those of its own event.
        const fields = (l: number, span: Span | undefined) => (span ? Promise.resolve(lineFields(spanText(lines.get(l) ?? '', span))) : this.lines.fieldsAt(l, lines.get(l) ?? ''));
        this.post({ type: 'details', line: m.line, fields: await fields(m.line, m.span), endFields: m.endLine === null ? [] : await fields(m.endLine, m.endSpan) });
        if (m.reveal) await this.revealLine(m.line, m.span);
        return;
      }
      case 'error':
        this.log.appendLine(`timeline page: ${m.message}`);
        return;
      case 'rangeStats':
        await this.rangeStats(m.from, m.to);
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        void vscode.window.setStatusBarMessage('NPU Trace: table copied as CSV', 3000);
        return;
      case 'save':
        await saveTable(this.uri, m.name, m.text);
        return;
      case 'exportChromeTrace':
        await vscode.commands.executeCommand(EXPORT_CHROME_TRACE, this.uri);
        return;
      case 'exportParquet':
        await vscode.commands.executeCommand(EXPORT_PARQUET, this.uri);
        return;
      case 'compareWith':
        // Registered by the desktop extension only (the comparison reads files in a worker thread).
        await Promise.resolve(vscode.commands.executeCommand(COMPARE_WITH, this.uri)).catch(() => vscode.window.showInformationMessage('Compare with… needs the desktop VS Code: it reads both files in a worker thread.'));
        return;
      case 'baseline':
        await this.baselineDiff();
        return;
      case 'pinBaseline':
      case 'clearBaseline':
        await vscode.commands.executeCommand(m.type === 'pinBaseline' ? PIN_BASELINE : CLEAR_BASELINE, this.uri);
        return;
      case 'kprofOverlap':
        return; // the kernel-profiler editor's page asks this; a trace's never does
      default: {
        const never: never = m;
        return never;
      }
    }
  }

  /** Tells the page which baseline is pinned for the file's format (the toolbar says it); nothing where none can be. */
  private postPinned(): void {
    const pinned = this.ready ? this.host.baseline?.pinned(this.uri) : undefined;
    if (pinned) this.post(pinned);
  }

  /** The file compared with its format's pinned baseline, in the comparison worker (the page asks when its Summary opens). */
  private async baselineDiff(): Promise<void> {
    const support = this.host.baseline;
    if (!support) return;
    this.baselineRun?.cancel();
    const cts = (this.baselineRun = new vscode.CancellationTokenSource());
    const answer = await support.compare(this.uri, cts.token);
    if (this.baselineRun === cts) this.post(answer);
  }

  /**
   * The metrics of cycles [from, to] by the core's collector in a worker, from the document or the
   * file the model came from (one implementation: the page never computes metrics itself).
   */
  private async rangeStats(from: number, to: number): Promise<void> {
    this.rangeBuild?.cancel();
    const cts = (this.rangeBuild = new vscode.CancellationTokenSource());
    const name = fileName(this.uri);
    try {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.uri.toString());
      let stats;
      if (doc && this.fromDocument) stats = await this.host.statsDocument(doc, name, { from, to }, cts.token);
      else {
        const disk = this.host.disk;
        if (this.uri.scheme !== 'file' || !disk) throw new Error(`${name} is not open and not on disk.`);
        const size = await disk.size(this.uri.fsPath);
        stats = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Summary of the range: reading ${name}`, cancellable: true },
          (progress, token) => {
            token.onCancellationRequested(() => cts.cancel());
            let last = 0;
            return disk.stats(this.uri.fsPath, name, { from, to }, cts.token, (bytes) => {
              const pct = Math.min(100, (bytes / Math.max(1, size)) * 100);
              progress.report({ increment: pct - last });
              last = pct;
            });
          },
        );
      }
      if (cts.token.isCancellationRequested) return;
      this.post({ type: 'rangeStats', from, to, stats, message: '' });
    } catch (e) {
      if (this.rangeBuild !== cts) return;
      const cancelled = e instanceof vscode.CancellationError || cts.token.isCancellationRequested;
      this.post({ type: 'rangeStats', from, to, stats: null, message: cancelled ? 'The range summary was cancelled.' : `The range summary failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  /**
   * The details of an item of a binary trace: it has no line, its model keeps the byte offsets of
   * its packets (`span`/`endSpan`), whose fields the worker decodes from the file.
   */
  private async packetDetails(m: Extract<WebviewMessage, { type: 'select' }>): Promise<void> {
    this.detailsBuild?.cancel();
    const cts = (this.detailsBuild = new vscode.CancellationTokenSource());
    const disk = this.host.disk;
    const offsets = [m.span?.[0] ?? 0, ...(m.endLine !== null && m.endSpan && m.endSpan[0] !== m.span?.[0] ? [m.endSpan[0]] : [])];
    let fields: [string, string][][];
    try {
      if (this.uri.scheme !== 'file' || !disk?.packets) throw new Error('the file is not on disk');
      fields = await disk.packets(this.uri.fsPath, fileName(this.uri), offsets, cts.token);
    } catch (e) {
      if (this.detailsBuild !== cts || e instanceof vscode.CancellationError) return;
      fields = [[['error', `the packet could not be read: ${e instanceof Error ? e.message : String(e)}`]]];
    }
    if (this.detailsBuild !== cts) return;
    this.post({ type: 'details', line: m.line, fields: fields[0] ?? [], endFields: fields[1] ?? [] });
  }

  /** Shows the line in an editor (opening the file if needed) with the whole line (or the event at `span`) selected. */
  private async revealLine(line: number, span?: Span): Promise<void> {
    if (/\.gz$/i.test(this.uri.path)) {
      void vscode.window.showInformationMessage(`Line ${line + 1}: compressed traces cannot be shown in an editor.`);
      return;
    }
    try {
      const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
      const column = visible?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
      const doc = visible?.document ?? (await vscode.workspace.openTextDocument(this.uri));
      const l = Math.min(line, doc.lineCount - 1);
      const whole = doc.lineAt(l).range;
      const range = span ? new vscode.Range(l, Math.min(span[0], whole.end.character), l, Math.min(span[1], whole.end.character)) : whole;
      // The whole line is selected with the cursor at its start, so the editor shows where it begins.
      // (showTextDocument takes a Range and would put the cursor at the end: set the selection after.)
      const editor = await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: true });
      editor.selection = new vscode.Selection(range.end, range.start);
      editor.revealRange(new vscode.Range(range.start, range.start), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (e) {
      void vscode.window.showWarningMessage(`Cannot show line ${line + 1} of ${fileName(this.uri)} in an editor: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  dispose(): void {
    this.build?.cancel();
    this.detailsBuild?.cancel();
    this.rangeBuild?.cancel();
    this.baselineRun?.cancel();
    this.lines.dispose();
    clearTimeout(this.debounce);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
