import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { normalizeSettings } from '../../core/common/settings';
import type { LanguageClient } from 'vscode-languageclient/node';
import { parseGraphPageMessage, type GraphHostMessage } from '../../protocol/cmdqGraph';
import { CmdqLayerTimesRequest } from '../../protocol/cmdqTrace';
import { entryAtCursor } from './entryAtCursor';
import { graphPage } from './graphHtml';
import { JobCancelled, runJob } from '../../node/jobs/runJob';
import { GraphWorkerError, readGraphReply, type GraphWorkerReply, type GraphWorkerRequest } from '../../protocol/cmdqGraphWorker';
import { joinChanged } from './traceJoin';

export const SHOW_GRAPH = 'npuTrace.cmdq.showGraph';
const VIEW_TYPE = 'npuTrace.cmdqGraph';
const EDIT_DEBOUNCE_MS = 400;

/** "CMDQ: Show Dependency Graph": one panel per file, beside the editor, following its edits and cursor. */
export function registerCmdqGraph(context: vscode.ExtensionContext, client: () => LanguageClient | undefined): void {
  const panels = new Map<string, GraphPanel>();
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_GRAPH, (arg?: unknown) => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showErrorMessage('Show Dependency Graph: open a CMDQ file (*.cmdq.json) first.');
      return undefined;
    }
    const key = uri.toString();
    const existing = panels.get(key);
    if (existing) {
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const p = new GraphPanel(uri, context.extensionUri, client, () => panels.delete(key));
    panels.set(key, p);
    return p;
  }));
}

class GraphPanel {
  readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private debounce: NodeJS.Timeout | undefined;
  /** The graph computation running, if any: a newer edit or closing the panel stops it. */
  private job: AbortController | undefined;
  private ready = false;
  private pending: GraphHostMessage[] = [];
  /** Entry text ranges of the version shown, and that version. */
  private starts: ArrayLike<number> = [];
  private ends: ArrayLike<number> = [];
  private version = -1;
  private lastSelected = -1;

  constructor(readonly uri: vscode.Uri, private readonly extensionUri: vscode.Uri, private readonly client: () => LanguageClient | undefined, onDispose: () => void) {
    const assets = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    this.panel = vscode.window.createWebviewPanel(VIEW_TYPE, `Graph: ${name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [assets] });
    this.panel.webview.html = graphPage({
      cspSource: this.panel.webview.cspSource,
      nonce: randomBytes(18).toString('base64url'),
      scriptUri: this.panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'cmdqGraph.js')).toString(),
      title: this.panel.title,
    });
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((raw) => {
        const m = parseGraphPageMessage(raw);
        if (m?.type === 'ready') {
          this.ready = true;
          for (const q of this.pending.splice(0)) void this.panel.webview.postMessage(q);
        } else if (m?.type === 'reveal') void this.reveal(m.index);
      }),
      this.panel.onDidDispose(() => {
        this.dispose();
        onDispose();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() !== uri.toString() || !e.contentChanges.length) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.load(), EDIT_DEBOUNCE_MS);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('npuTrace.cmdq.cost') || e.affectsConfiguration('npuTrace.diagnostics')) void this.load();
      }),
      // Another trace chosen, the layer map changed, a trace opened or closed: the table follows.
      joinChanged.event(() => {
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.load(), EDIT_DEBOUNCE_MS);
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document.uri.toString() === uri.toString()) this.follow(e.textEditor);
      }),
    );
    void this.load();
  }

  private post(m: GraphHostMessage): void {
    if (this.ready) void this.panel.webview.postMessage(m);
    else this.pending = m.type === 'graph' || m.type === 'error' ? [m] : [...this.pending, m];
  }

  /** Computes the graph of the open document (or the file on disk) in a worker; a newer edit terminates an older run. */
  private async load(): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.uri);
    const version = doc.version;
    const cfg = vscode.workspace.getConfiguration('npuTrace.cmdq.cost');
    const diagnostics = normalizeSettings(vscode.workspace.getConfiguration('npuTrace').get('diagnostics'));
    const trace = await this.layerTimes();
    if (doc.version !== version) return;
    const req: GraphWorkerRequest = { text: doc.getText(), diagnostics, trace, cost: { dmaBytesPerCycle: cfg.get('dmaBytesPerCycle'), teMacsPerCycle: cfg.get('teMacsPerCycle'), veElementsPerCycle: cfg.get('veElementsPerCycle') } };
    this.job?.abort();
    const job = (this.job = new AbortController());
    const workerFile = vscode.Uri.joinPath(this.extensionUri, 'dist', 'cmdqGraphWorker.js').fsPath;
    // First the graph, then the problems of the same version (the checks run after the first paint).
    const shown = (reply: Extract<GraphWorkerReply, { kind: 'done' }>) => {
      this.starts = reply.starts;
      this.ends = reply.ends;
      this.version = version;
      this.post({ type: 'graph', fileName: this.panel.title.slice('Graph: '.length), model: reply.model });
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
      this.lastSelected = -1;
      if (editor) this.follow(editor);
    };
    try {
      const problems = await runJob(workerFile, req, { read: readGraphReply, signal: job.signal, onProgress: shown, name: 'the graph worker' });
      this.post({ type: 'problems', problems });
    } catch (e) {
      // A newer edit's run replaced this one: it says nothing more.
      if (e instanceof JobCancelled) return;
      const message = e instanceof Error ? e.message : String(e);
      this.post({ type: 'error', message: e instanceof GraphWorkerError ? message : `The graph worker failed: ${message}` });
    } finally {
      if (this.job === job) this.job = undefined;
    }
  }

  /** The measured layers of the trace the server joins with (the hover's), or none. */
  private async layerTimes(): Promise<GraphWorkerRequest['trace']> {
    const c = this.client();
    if (!c?.isRunning()) return undefined;
    try {
      const r = await c.sendRequest(CmdqLayerTimesRequest, {});
      return r.trace === null ? undefined : { name: r.trace, layers: r.layers, layerMap: r.layerMap, ...(r.note ? { note: r.note } : {}) };
    } catch {
      return undefined;
    }
  }

  /** The entry under the cursor (or starting on its line) in the version shown. */
  private follow(editor: vscode.TextEditor): void {
    if (editor.document.version !== this.version) return;
    const doc = editor.document;
    const line = doc.lineAt(editor.selection.active.line).range;
    const found = entryAtCursor(this.starts, this.ends, doc.offsetAt(editor.selection.active), doc.offsetAt(line.start), doc.offsetAt(line.end));
    if (found < 0 || found === this.lastSelected) return;
    this.lastSelected = found;
    this.post({ type: 'select', index: found });
  }

  /** Selects entry `index` in its editor (opened beside the graph when none shows the file). */
  private async reveal(index: number): Promise<void> {
    if (index >= this.starts.length) return;
    const doc = await vscode.workspace.openTextDocument(this.uri);
    if (doc.version !== this.version) return;
    const range = new vscode.Range(doc.positionAt(this.starts[index]), doc.positionAt(this.ends[index]));
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: false });
    this.lastSelected = index;
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private dispose(): void {
    clearTimeout(this.debounce);
    this.job?.abort();
    for (const d of this.disposables) d.dispose();
  }
}
