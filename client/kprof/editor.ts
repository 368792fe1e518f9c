import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseWebviewMessage, type HostMessage } from '../../protocol/timeline';
import { toWire } from '../../protocol/modelWire';
import type { Decoded } from '../../core/kprof/decode';
import { fileTooLarge, KprofFormatError, MAX_FILE_BYTES } from '../../core/kprof/errors';
import { namesFromJson, namesFromLines } from '../../core/kprof/names';
import type { OpenedBuffer } from '../../core/kprof/open';
import { groupOverlap } from '../../core/kprof/overlap';
import { recordFields } from '../../core/kprof/records';
import { kprofText, statsCsv } from '../../core/kprof/report';
import { kprofOverlap, kprofRange, kprofSummary } from '../../core/kprof/summary';
import { kprofTimeline } from '../../core/kprof/timeline';
import { timelinePage } from '../timeline/html';
import { decodeInWorker, KprofCancelled } from './decodeInWorker';
import { exportKprofChromeTrace } from './exportChrome';
import { EXPORT_PARQUET } from '../timeline/commandIds';
import type { DecodedView, KprofWorkerRequest } from '../../protocol/kprofWorker';
import { inflateRaw } from '../../node/io/kprofFiles';
import { runRequest } from '../../node/workers/kprofDecode';
import { ReadOnlyTextViews } from '../readOnlyText';
import { LAYOUTS, layoutById } from '../../core/kprof/layouts';

/** Default editor for `*.kprof.npy|bin|npz`; offered under "Open With…" for any `.npy`, `.bin`, `.npz`. */
export const KPROF_EDITOR = 'npuTrace.kprof';
export const KPROF_EDITOR_ANY = 'npuTrace.kprofAny';
const CMD_NAMES = 'npuTrace.kprof.pickNames';
const CMD_REPORT = 'npuTrace.kprof.showReport';
const CMD_LAUNCH = 'npuTrace.kprof.pickLaunch';
const CMD_OVERLAP = 'npuTrace.kprof.overlap';
const CMD_CSV = 'npuTrace.kprof.copyCsv';
const CMD_LAYOUT = 'npuTrace.kprof.pickLayout';
/** The layout setting: 'auto' (detected from the records) or a writer's layout id. */
const LAYOUT_SETTING = 'npuTrace.kprof.layout';

/** Open buffers by URI, for "Export as Chrome Trace (Perfetto)" (a command of the timeline) run on one. */
const openDocs = new Map<string, KprofDocument>();

/**
 * The export for a profiler buffer when the command targets one (its URI, or no argument with a
 * buffer's editor the active tab); undefined when it is for the text-trace export.
 */
export function kprofExportFor(arg?: unknown): (() => Promise<vscode.Uri | undefined>) | undefined {
  let key: string | undefined;
  if (arg instanceof vscode.Uri) key = arg.toString();
  else if (arg === undefined) {
    const input = vscode.window.tabGroups?.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputCustom && (input.viewType === KPROF_EDITOR || input.viewType === KPROF_EDITOR_ANY)) key = input.uri.toString();
  }
  const doc = key === undefined ? undefined : openDocs.get(key);
  return doc ? () => exportDoc(doc) : undefined;
}

function exportDoc(doc: KprofDocument): Promise<vscode.Uri | undefined> {
  if (!doc.decoded || !doc.opened) {
    void vscode.window.showErrorMessage(`Export as Chrome Trace: ${doc.error ?? 'the buffer could not be read'}`);
    return Promise.resolve(undefined);
  }
  return exportKprofChromeTrace(doc.uri, doc.opened.launches[doc.launch], doc.decoded, doc.launch);
}

/** Buffers from this size on show a progress notification (with Cancel) while they decode. */
const PROGRESS_BYTES = 16 << 20;

/**
 * Opens / decodes in dist/kprofWorker.js so a big buffer does not block the extension host, with
 * progress and Cancel for big ones; in-process only when the worker is not built (unit tests
 * from source).
 */
function decoder(workerFile: string): (req: KprofWorkerRequest, label: string) => Promise<DecodedView> {
  if (!existsSync(workerFile)) {
    return async (req) => runRequest(req, inflateRaw);
  }
  return (req, label) => {
    const size = req.kind === 'open' ? req.bytes.byteLength : req.words.byteLength;
    if (size < PROGRESS_BYTES) return decodeInWorker(workerFile, req);
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Profiler buffer ${label}`, cancellable: true }, (progress, token) => {
      const stop = new AbortController();
      const sub = token.onCancellationRequested(() => stop.abort());
      return decodeInWorker(workerFile, req, {
        onPhase: (phase) => progress.report({ message: `${phase === 'reading' ? 'reading' : 'decoding'} ${(size / 1048576).toFixed(0)} MB…` }),
        signal: stop.signal,
      }).finally(() => sub.dispose());
    }));
  };
}

/** An opened buffer file, decoded (one launch at a time). Read-only: nothing is ever saved. */
class KprofDocument implements vscode.CustomDocument {
  launch = 0;
  /** The layout the records are read in: 'auto' (detected) or a layout id (the setting, else *Pick Layout…*). */
  layout = layoutSetting();
  names: string[] | undefined;
  decoded: Decoded | undefined;
  /** The timeline model and statistics of `decoded`, built with it in the worker. */
  view: Pick<DecodedView, 'model' | 'summary'> | undefined;
  error: string | undefined;
  readonly panels = new Set<vscode.WebviewPanel>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onChanged = this.changed.event;

  constructor(readonly uri: vscode.Uri, readonly opened: OpenedBuffer | undefined, error?: string) {
    this.error = error;
  }

  /** Decodes the launch shown again (other names, another launch), off the host's thread. */
  async redecode(run: Run): Promise<void> {
    if (!this.opened) return;
    const buf = this.opened.launches[this.launch];
    const name = this.uri.path.slice(this.uri.path.lastIndexOf('/') + 1);
    try {
      const r = await run({ kind: 'decode', words: buf.words.slice(0, 2 * buf.slots), slots: buf.slots, names: this.names ?? this.opened.names, launch: this.launch, launches: this.opened.launches.length, layout: this.layout }, name);
      this.decoded = r.decoded;
      this.view = r;
    } catch (e) {
      if (e instanceof KprofCancelled) return;
      throw e;
    }
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

type Run = ReturnType<typeof decoder>;

export function registerKprofEditor(context: vscode.ExtensionContext): void {
  const diagnostics = vscode.languages.createDiagnosticCollection('kprof');
  const run = decoder(vscode.Uri.joinPath(context.extensionUri, 'dist', 'kprofWorker.js').fsPath);
  const state: { active?: KprofDocument } = {};
  const reports = new ReadOnlyTextViews(context, 'npu-kprof-report', 'Run "NPU Trace: Profiler Buffer Report" from a buffer to fill this view.');
  const provider: vscode.CustomReadonlyEditorProvider<KprofDocument> = {
    async openCustomDocument(uri) {
      const doc = await openDocument(uri, run);
      publishProblems(diagnostics, doc);
      doc.onChanged(() => publishProblems(diagnostics, doc));
      return doc;
    },
    resolveCustomEditor(doc, panel) {
      showInPanel(context, doc, panel, state, () => diagnostics.delete(doc.uri));
    },
  };
  const withDoc = (f: (doc: KprofDocument, d: Decoded) => unknown) => () => {
    if (!state.active?.decoded) {
      void vscode.window.showInformationMessage('Open a profiler buffer (.kprof.npy, .npz, .bin) first.');
      return;
    }
    return f(state.active, state.active.decoded);
  };
  context.subscriptions.push(
    diagnostics,
    vscode.window.registerCustomEditorProvider(KPROF_EDITOR, provider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.window.registerCustomEditorProvider(KPROF_EDITOR_ANY, provider, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand(CMD_NAMES, withDoc((doc) => pickNames(doc, run))),
    vscode.commands.registerCommand(CMD_LAUNCH, withDoc((doc) => pickLaunch(doc, run))),
    vscode.commands.registerCommand(CMD_LAYOUT, withDoc((doc, d) => pickLayout(doc, d, run))),
    vscode.commands.registerCommand(CMD_REPORT, withDoc((doc, d) => showReport(reports, doc, d))),
    vscode.commands.registerCommand(CMD_OVERLAP, withDoc((doc, d) => showOverlap(reports, doc, d))),
    vscode.commands.registerCommand(CMD_CSV, withDoc(async (_doc, d) => {
      await vscode.env.clipboard.writeText(statsCsv(d));
      void vscode.window.setStatusBarMessage('Profiler statistics copied as CSV', 3000);
    })),
  );
}

const fileName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** Reads and decodes a buffer file (names from its sidecar); an unreadable one opens with its error. */
async function openDocument(uri: vscode.Uri, run: Run): Promise<KprofDocument> {
  // Checked before reading: a file of 2 GiB or more is not read at once (core/kprof/errors.ts).
  const { size } = await vscode.workspace.fs.stat(uri);
  if (size > MAX_FILE_BYTES) return new KprofDocument(uri, undefined, `${fileName(uri)}: ${fileTooLarge(size)}`);
  const bytes = await vscode.workspace.fs.readFile(uri);
  try {
    const names = await sidecarNames(uri);
    const r = await run({ kind: 'open', fileName: uri.path, bytes, launch: 0, names, layout: layoutSetting() }, fileName(uri));
    const doc = new KprofDocument(uri, r.opened);
    doc.names = names;
    doc.decoded = r.decoded;
    doc.view = r;
    return doc;
  } catch (e) {
    if (!(e instanceof KprofFormatError) && !(e instanceof KprofCancelled)) throw e;
    return new KprofDocument(uri, undefined, e.message);
  }
}

/** The buffer's problems (or the reason it could not be read) in the Problems panel. */
function publishProblems(diagnostics: vscode.DiagnosticCollection, doc: KprofDocument): void {
  const d = doc.decoded;
  if (!d) {
    diagnostics.set(doc.uri, doc.error ? [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), doc.error, vscode.DiagnosticSeverity.Error)] : []);
    return;
  }
  const sev = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, information: vscode.DiagnosticSeverity.Information, hint: vscode.DiagnosticSeverity.Hint };
  // A binary file has no lines: every problem sits at the start and names its slot and lane.
  diagnostics.set(doc.uri, d.problems.map((p) => {
    const diag = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), `slot ${p.slot}${p.block >= 0 ? ` (block ${p.block}, group ${p.group})` : ''}: ${p.message}`, sev[p.severity]);
    diag.code = p.code;
    diag.source = 'kprof';
    return diag;
  }));
}

/** The timeline page in a panel: the model and summary once the page is ready, its requests answered. */
function showInPanel(context: vscode.ExtensionContext, doc: KprofDocument, panel: vscode.WebviewPanel, state: { active?: KprofDocument }, onLastClosed: () => void): void {
  doc.panels.add(panel);
  openDocs.set(doc.uri.toString(), doc);
  state.active = doc;
  const assets = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
  panel.webview.options = { enableScripts: true, localResourceRoots: [assets] };
  const name = fileName(doc.uri);
  panel.webview.html = timelinePage({
    cspSource: panel.webview.cspSource,
    nonce: randomBytes(18).toString('base64url'),
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'webview.js')).toString(),
    styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(assets, 'webview.css')).toString(),
    title: name,
  });
  let ready = false;
  const post = (m: HostMessage) => { if (ready) void panel.webview.postMessage(toWire(m)); };
  const sendModel = () => {
    if (!doc.decoded) {
      post({ type: 'error', message: `${name} cannot be read as a profiler buffer: ${doc.error ?? 'unknown error'}` });
      return;
    }
    post({ type: 'model', uri: doc.uri.toString(), fileName: name, model: doc.view?.model ?? kprofTimeline(doc.decoded), complete: true });
    post({ type: 'kprofSummary', summary: doc.view?.summary ?? kprofSummary(doc.decoded, doc.launch, doc.opened?.launches.length ?? 1) });
    void vscode.window.setStatusBarMessage(facts(doc), 10_000);
  };
  const subs = [
    doc.onChanged(sendModel),
    panel.onDidChangeViewState(() => { if (panel.active) state.active = doc; }),
    panel.webview.onDidReceiveMessage(async (raw) => {
      const m = parseWebviewMessage(raw);
      if (!m) return;
      if (m.type === 'ready') { ready = true; sendModel(); } else await answerPage(doc, m, post);
    }),
  ];
  panel.onDidDispose(() => {
    doc.panels.delete(panel);
    if (!doc.panels.size) {
      onLastClosed();
      openDocs.delete(doc.uri.toString());
    }
    for (const s of subs) s.dispose();
  });
}

/** What the page asks once it is ready: a record's details, range statistics, an overlap, exports, copy and save. */
async function answerPage(doc: KprofDocument, m: NonNullable<ReturnType<typeof parseWebviewMessage>>, post: (m: HostMessage) => void): Promise<void> {
  if (m.type === 'select' && doc.decoded && doc.opened) {
    const buf = doc.opened.launches[doc.launch];
    post({ type: 'details', line: m.line, fields: recordFields(buf, doc.decoded, m.line), endFields: m.endLine === null ? [] : recordFields(buf, doc.decoded, m.endLine) });
  } else if (m.type === 'rangeStats' && doc.decoded) post({ type: 'kprofRange', range: kprofRange(doc.decoded, m.from, m.to) });
  else if (m.type === 'exportChromeTrace') await exportDoc(doc);
  else if (m.type === 'exportParquet') await vscode.commands.executeCommand(EXPORT_PARQUET, doc.uri);
  else if (m.type === 'kprofOverlap') {
    const d = doc.decoded;
    if (!d) return;
    const bad = [m.a, m.b].find((g) => g >= d.numGroups);
    if (bad !== undefined || m.a === m.b) post({ type: 'kprofOverlap', overlap: null, message: bad !== undefined ? `Group ${bad} is not one of the buffer's ${d.numGroups} group(s).` : 'Pick two different groups.' });
    else post({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, m.a, m.b)), message: '' });
  } else if (m.type === 'copy') await vscode.env.clipboard.writeText(m.text);
  else if (m.type === 'save') {
    const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(doc.uri, '..', m.name) });
    if (target) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(m.text));
  }
}

/** Command: event names from a file the user picks, then decode again. */
async function pickNames(doc: KprofDocument, run: Run): Promise<void> {
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.joinPath(doc.uri, '..'), filters: { 'Event names': ['json', 'txt'] }, openLabel: 'Use these event names' });
  if (!picked?.[0]) return;
  try {
    doc.names = await readNames(picked[0]);
    await doc.redecode(run);
  } catch (e) {
    void vscode.window.showErrorMessage(e instanceof Error ? e.message : String(e));
  }
}

/** Command: another launch of a 2-D buffer. */
async function pickLaunch(doc: KprofDocument, run: Run): Promise<void> {
  const n = doc.opened!.launches.length;
  const pick = await vscode.window.showQuickPick(Array.from({ length: n }, (_, i) => ({ label: `launch ${i}`, i })), { placeHolder: `${n} launch(es) in this buffer` });
  if (!pick) return;
  doc.launch = pick.i;
  await doc.redecode(run);
}

/** The layout setting, 'auto' unless it names a known layout. */
function layoutSetting(): string {
  const v = vscode.workspace.getConfiguration('npuTrace.kprof').get<string>('layout', 'auto');
  return layoutById(v) ? v : 'auto';
}

/** Command: read the buffer in another layout (auto-detected, or a writer's), as `npu-trace kprof --layout`. */
async function pickLayout(doc: KprofDocument, d: Decoded, run: Run): Promise<void> {
  const items = [
    { label: 'auto', id: 'auto', description: `detected from the records${doc.layout === 'auto' ? ` (now ${d.layout.id})` : ''}` },
    ...LAYOUTS.map((l) => ({ label: l.id, id: l.id, description: l.id === d.layout.id ? 'now' : '' })),
  ];
  const pick = await vscode.window.showQuickPick(items, { placeHolder: `Layout of ${fileName(doc.uri)}'s records (setting: ${LAYOUT_SETTING})` });
  if (!pick) return;
  doc.layout = pick.id;
  await doc.redecode(run);
}

/** Command: the text report beside the panel, read-only (no Untitled file that asks to be saved). */
async function showReport(views: ReadOnlyTextViews, doc: KprofDocument, d: Decoded): Promise<void> {
  const text = kprofText(d, { file: fileName(doc.uri), launch: doc.launch, launches: doc.opened!.launches.length, container: doc.opened!.container });
  await views.show(`${fileName(doc.uri)} - report.txt`, text, doc.uri.toString());
}

/** Command: the overlap of two groups the user picks, in the panel's Summary tab and as a text table beside it. */
async function showOverlap(views: ReadOnlyTextViews, doc: KprofDocument, d: Decoded): Promise<void> {
  const groups = Array.from({ length: d.numGroups }, (_, g) => ({ label: `group ${g}`, g }));
  const a = await vscode.window.showQuickPick(groups, { placeHolder: 'Producer group' });
  const b = a && (await vscode.window.showQuickPick(groups.filter((x) => x.g !== a.g), { placeHolder: 'Consumer group' }));
  if (!a || !b) return;
  for (const p of doc.panels) {
    void p.webview.postMessage({ type: 'showSummary' } satisfies HostMessage);
    void p.webview.postMessage({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, a.g, b.g)), message: '' } satisfies HostMessage);
  }
  const text = kprofText(d, { file: fileName(doc.uri) }, groupOverlap(d, a.g, b.g));
  const from = text.indexOf('\nOverlap of');
  const to = text.indexOf('\n\nNo problems') >= 0 ? text.indexOf('\n\nNo problems') : text.indexOf('\n\nProblems');
  await views.show(`${fileName(doc.uri)} - overlap of groups ${a.g} and ${b.g}.txt`, text.slice(from + 1, to > from ? to : undefined), doc.uri.toString());
}

function facts(doc: KprofDocument): string {
  const d = doc.decoded!;
  return `${d.layout.id}: ${d.numBlocks} block(s) × ${d.numGroups} group(s), write_stride ${d.stride}, ${d.records} records, kernel ${d.durationNs} ns, ${d.problems.length + d.problemsDropped} problem(s)`;
}

async function readNames(uri: vscode.Uri): Promise<string[]> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.size > 16 << 20) throw new KprofFormatError('The names file is over 16 MB');
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  return uri.path.toLowerCase().endsWith('.json') ? namesFromJson(text) : namesFromLines(text);
}

/** `<file>.names.json` / `.names.txt`, then beside the name without its extension (as the CLI). */
async function sidecarNames(uri: vscode.Uri): Promise<string[] | undefined> {
  const path = uri.path;
  const dot = path.lastIndexOf('.');
  const stem = dot > path.lastIndexOf('/') ? path.slice(0, dot) : path;
  for (const base of [path, stem]) {
    for (const ext of ['.names.json', '.names.txt']) {
      const candidate = uri.with({ path: base + ext });
      try {
        await vscode.workspace.fs.stat(candidate);
      } catch {
        continue;
      }
      return readNames(candidate);
    }
  }
  return undefined;
}
