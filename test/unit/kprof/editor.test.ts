/**
 * The custom editor's host side with a stand-in for the `vscode` module (no VS Code here): opening
 * the example publishes its problems, the page's `ready` gets the timeline model (valid by the
 * protocol), a click gets the two records, and the commands work on the active buffer.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { EventEmitter, standInForVscode } from '../vscodeStandIn';
import { parseHostMessage, type HostMessage } from '../../../protocol/timeline';
import { genKprof, npyBytes } from '../../gen/kprofGen';

const ROOT = resolve(__dirname, '../../..');

interface FakeUri { scheme: string; path: string; fsPath: string; toString(): string; with(c: { path: string }): FakeUri }
const uri = (path: string): FakeUri => ({ scheme: 'file', path, fsPath: path, toString: () => `file://${path}`, with: (c) => uri(c.path) });
const files = new Map<string, Uint8Array>();
const diagnostics = new Map<string, { message: string; code?: string; severity: number }[]>();
const providers = new Map<string, { openCustomDocument(u: FakeUri): Promise<unknown>; resolveCustomEditor(doc: unknown, panel: unknown): void }>();
const commands = new Map<string, () => Promise<unknown>>();
const executed: unknown[][] = [];
let clipboard = '';
let contentProvider: { provideTextDocumentContent(u: unknown): string } | undefined;
let saveTo: FakeUri | undefined;
let cancelExport = false;
const errors: string[] = [];
const infos: string[] = [];
const vscodeMock = {
  EventEmitter,
  ProgressLocation: { Notification: 15 },
  CancellationError: class extends Error {},
  Range: class { constructor(readonly a: number, readonly b: number, readonly c: number, readonly d: number) {} },
  Diagnostic: class { code?: string; source?: string; constructor(readonly range: unknown, readonly message: string, readonly severity: number) {} },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  ViewColumn: { Beside: -2 },
  Uri: class {
    static joinPath = (u: FakeUri, ...parts: string[]) => uri([u.path, ...parts].join('/'));
    static from = (c: { scheme: string; path: string; query: string }) => ({ ...c, toString: () => `${c.scheme}:${c.path}?${c.query}` });
  },
  TabInputCustom: class { constructor(readonly uri: FakeUri, readonly viewType: string) {} },
  languages: { createDiagnosticCollection: () => ({ set: (u: FakeUri, d: { message: string; code?: string; severity: number }[]) => diagnostics.set(u.path, d), delete: (u: FakeUri) => diagnostics.delete(u.path), dispose() {} }) },
  window: {
    tabGroups: { activeTabGroup: { activeTab: undefined as { input: unknown } | undefined } },
    registerCustomEditorProvider: (id: string, p: never) => { providers.set(id, p); return { dispose() {} }; },
    setStatusBarMessage: () => ({ dispose() {} }),
    showInformationMessage: async (m: string) => { infos.push(m); return undefined; },
    showErrorMessage: async (m: string) => { errors.push(m); return undefined; },
    withProgress: async <T>(_o: unknown, f: (p: { report(): void }, t: { isCancellationRequested: boolean }) => Promise<T>) => f({ report() {} }, { isCancellationRequested: cancelExport }),
    showQuickPick: async <T>(items: T[]) => items[items.length - 1],
    showTextDocument: async () => undefined,
    showOpenDialog: async () => undefined,
    showSaveDialog: async () => saveTo,
  },
  workspace: {
    fs: {
      readFile: async (u: FakeUri) => { const b = files.get(u.path); if (!b) throw new Error(`no ${u.path}`); return b; },
      stat: async (u: FakeUri) => { const b = files.get(u.path); if (!b) throw new Error(`no ${u.path}`); return { size: b.length }; },
      writeFile: async () => undefined,
      delete: async (u: FakeUri) => rmSync(u.fsPath, { force: true }),
    },
    // The reports are read-only virtual documents: their text comes from the content provider.
    registerTextDocumentContentProvider: (_scheme: string, p: { provideTextDocumentContent(u: unknown): string }) => { contentProvider = p; return { dispose() {} }; },
    openTextDocument: async (o: { content?: string }) => { clipboard = o.content ?? contentProvider!.provideTextDocumentContent(o); return {}; },
    getConfiguration: () => ({ get: <T>(_k: string, d: T) => d }),
  },
  commands: {
    registerCommand: (id: string, f: () => Promise<unknown>) => { commands.set(id, f); return { dispose() {} }; },
    executeCommand: async (id: string, ...args: unknown[]) => { executed.push([id, ...args]); },
  },
  env: { clipboard: { writeText: async (s: string) => { clipboard = s; } } },
};
standInForVscode(vscodeMock);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerKprofEditor, kprofExportFor, KPROF_EDITOR } = require('../../../client/kprof/editor') as typeof import('../../../client/kprof/editor');

function panel() {
  const sent: HostMessage[] = [];
  const fromPage = new EventEmitter<unknown>();
  const p = {
    active: true,
    webview: { options: {}, html: '', cspSource: 'vscode-resource:', asWebviewUri: (u: FakeUri) => u, postMessage: async (m: HostMessage) => { sent.push(m); return true; }, onDidReceiveMessage: fromPage.event },
    onDidChangeViewState: new EventEmitter<void>().event,
    onDidDispose: new EventEmitter<void>().event,
  };
  return { p, sent, page: (m: unknown) => fromPage.fire(m), settle: () => new Promise((r) => setImmediate(r)) };
}

describe('kprof custom editor (host side)', () => {
  // The extension's root, so buffers are decoded by the built worker (dist/kprofWorker.js).
  registerKprofEditor({ extensionUri: uri(ROOT), subscriptions: [] } as never);
  it('opens the spec example with its sidecar names: model on ready, records on a click, report and CSV commands', async () => {
    files.set('/w/spec.kprof.npy', new Uint8Array(readFileSync(join(ROOT, 'examples/spec.kprof.npy'))));
    files.set('/w/spec.kprof.npy.names.json', new Uint8Array(readFileSync(join(ROOT, 'examples/spec.kprof.npy.names.json'))));
    const provider = providers.get(KPROF_EDITOR)!;
    const doc = await provider.openCustomDocument(uri('/w/spec.kprof.npy'));
    assert.deepEqual(diagnostics.get('/w/spec.kprof.npy'), []);
    assert.ok((doc as { view?: unknown }).view, 'the timeline model and statistics came from the worker with the decode');
    const v = panel();
    provider.resolveCustomEditor(doc, v.p);
    assert.match(v.p.webview.html, /Content-Security-Policy/);
    v.page({ type: 'ready' });
    await v.settle();
    const model = v.sent.find((m) => m.type === 'model');
    assert.ok(model && parseHostMessage(model), 'a model message the page accepts');
    assert.equal(model.type === 'model' && model.model.strings.includes('compute'), true);
    v.page({ type: 'select', line: 1, endLine: 5, reveal: true });
    await v.settle();
    const details = v.sent.find((m) => m.type === 'details');
    assert.ok(details && details.type === 'details');
    assert.deepEqual(Object.fromEntries(details.fields).name, '"load"');
    assert.deepEqual(Object.fromEntries(details.endFields).type, '"end"');
    await commands.get('npuTrace.kprof.copyCsv')!();
    assert.match(clipboard, /^table,region,event/);
    await commands.get('npuTrace.kprof.showReport')!();
    assert.match(clipboard, /layout tvm, 4 block\(s\) × 1 group\(s\)/);
  });
  it('a buffer with problems lists them in the Problems panel with code, slot and lane; an unreadable file says why', async () => {
    files.set('/w/bad.kprof.npy', npyBytes(genKprof({ blocks: 2, slots: 8 }).words));
    await providers.get(KPROF_EDITOR)!.openCustomDocument(uri('/w/bad.kprof.npy'));
    const d = diagnostics.get('/w/bad.kprof.npy')!;
    assert.deepEqual(d.map((x) => x.code), ['kprof.buffer-full', 'kprof.buffer-full']);
    assert.match(d[0].message, /^slot 6 \(block 1, group 0\): Buffer full/);
    files.set('/w/be.kprof.npy', npyBytes(new Uint32Array(8), { descr: '>u8' }));
    const doc = await providers.get(KPROF_EDITOR)!.openCustomDocument(uri('/w/be.kprof.npy'));
    assert.match(diagnostics.get('/w/be.kprof.npy')![0].message, /big-endian/);
    const v = panel();
    providers.get(KPROF_EDITOR)!.resolveCustomEditor(doc, v.p);
    v.page({ type: 'ready' });
    await v.settle();
    assert.match(JSON.stringify(v.sent), /cannot be read as a profiler buffer.*big-endian/);
  });
  it('the pane\'s summary and overlap answers; the page\'s Export button writes the buffer as Chrome Trace JSON: one pid per block, one tid per group', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'kprof-export-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    files.set('/w/warpspec.kprof.npy', new Uint8Array(readFileSync(join(ROOT, 'examples/warpspec.kprof.npy'))));
    const provider = providers.get(KPROF_EDITOR)!;
    const doc = await provider.openCustomDocument(uri('/w/warpspec.kprof.npy'));
    const v = panel();
    provider.resolveCustomEditor(doc, v.p);
    saveTo = uri(join(dir, 'out.chrome.json'));
    v.page({ type: 'ready' });
    await v.settle();
    // The pane's facts and tables follow the model, and the page's overlap question is answered.
    const sum = v.sent.find((m) => m.type === 'kprofSummary');
    assert.ok(sum && sum.type === 'kprofSummary' && parseHostMessage(sum), 'a summary the page accepts');
    assert.deepEqual([sum.summary.facts.num_blocks, sum.summary.facts.num_groups, sum.summary.facts.write_stride, sum.summary.facts.records], [2, 6, 12, 304]);
    assert.deepEqual(sum.summary.tables.map((x) => x.by), ['event', 'block', 'group']);
    v.page({ type: 'kprofOverlap', a: 0, b: 1 });
    v.page({ type: 'kprofOverlap', a: 0, b: 6 });
    await v.settle();
    const answers = v.sent.filter((m) => m.type === 'kprofOverlap');
    assert.ok(answers.every((m) => parseHostMessage(m)));
    assert.deepEqual(answers.map((m) => m.type === 'kprofOverlap' && [m.overlap?.overlap_ns ?? null, m.overlap?.of_a ?? null, m.message]), [[2560, 0.5, ''], [null, null, "Group 6 is not one of the buffer's 6 group(s)."]]);
    // The Overlap of Two Groups command (the quick picks answer group 5, then group 4) shows it in the panel too.
    await commands.get('npuTrace.kprof.overlap')!();
    assert.deepEqual(v.sent.slice(-2).map((m) => m.type), ['showSummary', 'kprofOverlap']);
    const shown = v.sent[v.sent.length - 1];
    assert.ok(shown.type === 'kprofOverlap' && parseHostMessage(shown) && shown.overlap?.group_a === 5 && shown.overlap.group_b === 4);
    assert.match(clipboard, /^Overlap of group 5 and group 4/, 'and the text table beside it, as before');
    // A Shift+drag range of the timeline: the host answers with the regions' statistics in it.
    v.page({ type: 'rangeStats', from: 0, to: 1000 });
    await v.settle();
    const range = v.sent[v.sent.length - 1];
    assert.ok(range.type === 'kprofRange' && parseHostMessage(range), `a kprofRange the page accepts, not ${range.type}`);
    assert.deepEqual([range.range.from_ns, range.range.to_ns, range.range.tables.map((x) => x.by)], [0, 1000, ['event', 'group']]);
    assert.ok(range.range.regions > 0 && range.range.tables[0].rows.every((r) => r.max_ns <= 1000));
    v.page({ type: 'exportChromeTrace' });
    for (let i = 0; i < 5 && !infos.some((m) => m.includes('out.chrome.json')); i++) await v.settle();
    // The palette's Export as Chrome Trace (a command of the timeline) finds the buffer's editor as the active tab.
    vscodeMock.window.tabGroups.activeTabGroup.activeTab = { input: new vscodeMock.TabInputCustom(uri('/w/warpspec.kprof.npy'), KPROF_EDITOR) };
    assert.equal(typeof kprofExportFor(), 'function');
    vscodeMock.window.tabGroups.activeTabGroup.activeTab = { input: new vscodeMock.TabInputCustom(uri('/w/other.kprof.npy'), KPROF_EDITOR) };
    assert.equal(kprofExportFor(), undefined, 'a buffer not open here');
    vscodeMock.window.tabGroups.activeTabGroup.activeTab = { input: { uri: uri('/w/a.trace.jsonl') } };
    assert.equal(kprofExportFor(), undefined, 'a text editor: the trace export');
    assert.equal(kprofExportFor(uri('/w/warpspec.kprof.npy')), undefined, 'a plain object is not a vscode.Uri');
    // Cancelled: no file is left, and no error is shown.
    saveTo = uri(join(dir, 'cancelled.chrome.json'));
    cancelExport = true;
    v.page({ type: 'exportChromeTrace' });
    for (let i = 0; i < 5; i++) await v.settle();
    cancelExport = false;
    saveTo = undefined;
    assert.equal(existsSync(join(dir, 'cancelled.chrome.json')), false);
    assert.deepEqual(errors, []);
    // The toolbar's Parquet… runs Export as Parquet on the buffer's file.
    v.page({ type: 'exportParquet' });
    for (let i = 0; i < 5 && !executed.length; i++) await v.settle();
    assert.deepEqual(executed.map(([id, u]) => [id, (u as FakeUri).path]), [['npuTrace.exportParquet', '/w/warpspec.kprof.npy']]);
    const out = JSON.parse(readFileSync(join(dir, 'out.chrome.json'), 'utf8')) as { traceEvents: { ph: string; name: string; pid: number; tid: number; args: { name?: string; event?: { block: number; group: number } } }[] };
    const procs = out.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args.name);
    assert.deepEqual(procs, ['block 0', 'block 1']);
    const spans = out.traceEvents.filter((e) => e.ph === 'X');
    assert.equal(spans.length, 146, "a span per region (304 records: 12 finalize, 146 START..END pairs)");
    const pids = new Map(out.traceEvents.filter((e) => e.name === 'process_name').map((e) => [e.pid, e.args.name]));
    const threads = new Map(out.traceEvents.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}/${e.tid}`, e.args.name]));
    for (const e of spans) {
      assert.equal(pids.get(e.pid), `block ${e.args.event!.block}`);
      assert.equal(threads.get(`${e.pid}/${e.tid}`), `group ${e.args.event!.group}`);
    }
  });
});
