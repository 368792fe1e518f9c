/**
 * The built CMDQ graph page (dist/webview/cmdqGraph.js, the exact HTML the panel serves) in
 * headless Chromium: fed the golden CMDQ's graph as the host does, looked at (pixels and a
 * screenshot in test-results/), clicked, and told where the editor cursor is.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { graphPage } from '../../../client/cmdq/graphHtml';
import { CmdqDocument } from '../../../core/cmdq/document';
import { analyzeGraph } from '../../../core/cmdq/graph/analysis';
import { DEFAULT_COST_MODEL } from '../../../core/cmdq/graph/cost';
import { graphProblems } from '../../../core/cmdq/graph/problems';
import { joinLayers } from '../../../core/cmdq/graph/join';
import { graphJoin, graphViewModel } from '../../../core/cmdq/graph/view';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import type { LayerStats } from '../../../core/trace/metrics/types';
import type { GraphHostMessage } from '../../../protocol/cmdqGraph';
import { launchChromium, UI_WAIT_MS } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
let browser: Browser | undefined;
after(async () => browser?.close());

/** The graph message as the worker makes it (node/workers/cmdqGraphWorker.ts), problems included. */
function graphOf(text: string): GraphHostMessage {
  const doc = CmdqDocument.parse(text);
  const a = analyzeGraph(doc.parsed.entries, doc.graph, DEFAULT_COST_MODEL);
  const problems = graphProblems(doc, doc.diagnostics(defaultDiagnosticSettings));
  return { type: 'graph', fileName: 'golden.cmdq.json', model: graphViewModel(doc.parsed.entries, doc.graph, a, problems) };
}

async function open(t: { after(fn: () => Promise<void>): void }, width = 1000, height = 400): Promise<{ page: Page; errors: string[]; post(m: GraphHostMessage): Promise<void>; sent(): Promise<unknown[]> }> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/cmdqGraph.js')), 'dist/webview/cmdqGraph.js is missing: run `npm run build` first');
  browser ??= await launchChromium();
  const context = await browser.newContext({ viewport: { width, height } });
  context.setDefaultTimeout(UI_WAIT_MS);
  t.after(() => context.close());
  const page = await context.newPage();
  const dir = mkdtempSync(join(tmpdir(), 'cmdq-graph-page-'));
  const html = graphPage({ cspSource: 'file:', nonce: 'testnonce123', title: 'test', scriptUri: pathToFileURL(join(ROOT, 'dist/webview/cmdqGraph.js')).href });
  writeFileSync(join(dir, 'index.html'), html.replace('<body>', '<body style="--vscode-editor-background:#1e1e1e;--vscode-foreground:#cccccc">'));
  const errors: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('willReadFrequently')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.addInitScript('window.__sent = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m) });');
  await page.goto(pathToFileURL(join(dir, 'index.html')).href);
  await page.waitForFunction('window.__sent.some((m) => m.type === "ready")');
  const frame = () => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))');
  return {
    page, errors,
    post: async (m) => {
      await page.evaluate((m) => window.postMessage(m, '*'), m as never);
      await frame();
    },
    sent: () => page.evaluate('window.__sent') as Promise<unknown[]>,
  };
}

/** Where the page drew entry i: its box in canvas pixels, from the page's own layout and view. */
async function boxOf(page: Page, i: number): Promise<{ x: number; y: number; w: number; h: number }> {
  return page.evaluate((i) => (window as unknown as { __graph: { box(i: number): { x: number; y: number; w: number; h: number } } }).__graph.box(i), i);
}

/** The colour of one canvas pixel (CSS pixel coordinates). */
async function pixel(page: Page, x: number, y: number): Promise<[number, number, number]> {
  return page.evaluate(([x, y]) => {
    const c = document.getElementById('canvas') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(Math.round(x * devicePixelRatio), Math.round(y * devicePixelRatio), 1, 1).data;
    return [d[0], d[1], d[2]] as [number, number, number];
  }, [x, y]);
}
const isRed = ([r, g, b]: number[]) => r > 180 && g < 80 && b < 80;

test('the golden CMDQ: columns by depth, the critical path outlined in red, the summary line', async (t) => {
  const q = await open(t);
  await q.post(graphOf(readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8')));
  const info = await q.page.textContent('#summary');
  assert.equal(info, 'golden.cmdq.json: 6 entries · critical path 448 cycles (DMA load 14%, DMA store 14%, TE 0 57%, VE 0 14%) · list-scheduled run 512 cycles');
  const [b0, b1, b2] = [await boxOf(q.page, 0), await boxOf(q.page, 1), await boxOf(q.page, 2)];
  // The two loads share column 0, the GEMM is in column 1.
  assert.equal(b0.x, b1.x);
  assert.ok(b1.y > b0.y && b2.x > b0.x);
  // Entry 0 is on the critical path (red outline), entry 1 is not: look at the left edge of each box.
  assert.ok(isRed(await pixel(q.page, b0.x, b0.y + b0.h / 2)), 'critical entry 0 outlined in red');
  assert.ok(!isRed(await pixel(q.page, b1.x, b1.y + b1.h / 2)), 'entry 1 is not critical');
  mkdirSync(OUT, { recursive: true });
  await q.page.screenshot({ path: join(OUT, 'cmdq-graph.png') });
  assert.deepEqual(q.errors, []);
});

test('click a node → the page asks the host to select its entry; the cursor → the page selects the node', async (t) => {
  const q = await open(t);
  await q.post(graphOf(readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8')));
  const b = await boxOf(q.page, 2);
  // #info and #selection sit above the canvas.
  const canvasTop = await q.page.evaluate(() => document.getElementById('canvas')!.getBoundingClientRect().top);
  await q.page.mouse.click(b.x + b.w / 2, canvasTop + b.y + b.h / 2);
  const reveals = (await q.sent()).filter((m) => (m as { type: string }).type === 'reveal');
  assert.deepEqual(reveals.at(-1), { type: 'reveal', index: 2 });
  assert.match((await q.page.textContent('#selection'))!, /^Entry 2 TE_GEMM_TILE · layer ffn_0 · 256 cycles · earliest start 64 · slack 0 · scheduled at 128 · on the critical path$/);
  await q.post({ type: 'select', index: 1 });
  assert.match((await q.page.textContent('#selection'))!, /^Entry 1 DMA_LOAD_TILE .* slack 0 · scheduled at 64$/);
  assert.equal(await q.page.evaluate(() => (window as unknown as { __graph: { state(): { selected: number } } }).__graph.state().selected), 1);
  assert.equal((await q.sent()).filter((m) => (m as { type: string }).type === 'reveal').length, reveals.length, 'a cursor move is not sent back');
  assert.deepEqual(q.errors, []);
});

test('fitted to a panel beside the editor (480 px), the nodes keep their names', async (t) => {
  // Found by the E2E journey: in VS Code's side panel the fit scaled nodes to 13 px and dropped every label.
  const q = await open(t, 480);
  await q.post(graphOf(readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8')));
  for (const i of [0, 2, 5]) {
    const b = await boxOf(q.page, i);
    const dark = await q.page.evaluate((b) => {
      const c = document.getElementById('canvas') as HTMLCanvasElement;
      const k = devicePixelRatio;
      const d = c.getContext('2d')!.getImageData(Math.round((b.x + 3) * k), Math.round((b.y + 3) * k), Math.round((b.w - 6) * k), Math.round((b.h - 6) * k)).data;
      let n = 0;
      for (let p = 0; p < d.length; p += 4) if (d[p] < 90 && d[p + 1] < 90 && d[p + 2] < 90) n++;
      return n;
    }, b);
    assert.ok(dark >= 10, `entry ${i}'s node (${Math.round(b.w)}×${Math.round(b.h)} px) has ${dark} pixels of text`);
  }
  assert.deepEqual(q.errors, []);
});

test('a small queue runs top to bottom in a panel taller than wide, left to right in a wide one; a click picks the node drawn there', async (t) => {
  // The panel beside the editor (about 480 × 750): left to right, the golden queue's five levels
  // shrank to half size with 8 px names in an empty panel (#30 item 15).
  const text = readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8');
  const tall = await open(t, 480, 750);
  await tall.post(graphOf(text));
  const view = () => tall.page.evaluate(() => (window as unknown as { __graph: { view(): { scale: number; orient: string } } }).__graph.view());
  assert.equal((await view()).orient, 'tb');
  assert.ok((await view()).scale >= 1, `scale ${(await view()).scale}`);
  const [a, b] = [await boxOf(tall.page, 0), await boxOf(tall.page, 2)];
  assert.ok(b.y > a.y + a.h, 'the GEMM (level 1) is drawn below its load (level 0)');
  const e = await boxOf(tall.page, 5);
  const canvas = await tall.page.evaluate(() => { const r = document.getElementById('canvas')!.getBoundingClientRect(); return { top: r.top, w: r.width, h: r.height }; });
  assert.ok(e.y + e.h <= canvas.h && e.x >= 0 && e.x + e.w <= canvas.w, 'the whole queue is in view');
  await tall.page.mouse.click(b.x + b.w / 2, canvas.top + b.y + b.h / 2);
  assert.match((await tall.page.textContent('#selection'))!, /^Entry 2 TE_GEMM_TILE /);
  await tall.page.screenshot({ path: join(OUT, 'cmdq-graph-tall.png') });
  const wide = await open(t, 1200, 400);
  await wide.post(graphOf(text));
  assert.equal(await wide.page.evaluate(() => (window as unknown as { __graph: { view(): { orient: string } } }).__graph.view().orient), 'lr');
  assert.deepEqual([...tall.errors, ...wide.errors], []);
});

test('names from the file stay text; a cycle is drawn, blocked, and summarised', async (t) => {
  const q = await open(t);
  const evil = '<img src=x onerror="window.__pwned=1">';
  const ve = (id: number, deps: number[]) => ({ opcode: 'VE_ADD_TILE', id, layer_id: evil, deps_before: deps, ve_id: 0, length: 64, qbits_activation: 8 });
  await q.post(graphOf(JSON.stringify({ cmdq: [{ ...ve(0, []), opcode: evil }, ve(1, [0, 2]), ve(2, [1]), { opcode: 'END', id: 3, layer_id: null, deps_before: [1, 2] }] })));
  assert.match((await q.page.textContent('#summary'))!, /· 3 blocked by 1 cycle$/);
  await q.post({ type: 'select', index: 0 });
  assert.equal(await q.page.textContent('#selection'), `Entry 0 ${evil} · layer ${evil} · 0 cycles · earliest start 0 · slack 0 · scheduled at 0 · on the critical path · problems: cmdq.unknown-opcode`);
  // The checker's problems are on their entries: the cycle on 1 and 2, flagged in the node's corner.
  await q.post({ type: 'select', index: 2 });
  assert.match((await q.page.textContent('#selection'))!, /^Entry 2 VE_ADD_TILE .* blocked: .* · problems: cmdq\.dep-cycle$/);
  const b = await boxOf(q.page, 2);
  const [r, g] = await pixel(q.page, b.x + b.w - 2, b.y + 2);
  assert.ok(r > 200 && g < 100, `an error flag in the corner of entry 2, got ${r}, ${g}`);
  assert.equal(await q.page.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.equal(await q.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(q.errors, []);
});

test('problems on edges: the edges of a cycle dashed red; an SPM overlap flags both loads', async (t) => {
  const q = await open(t);
  const fixture = (name: string) => readFileSync(join(ROOT, `test/fixtures/cmdq/${name}.cmdq.json`), 'utf8');
  // As the panel sends them: the graph first, its problems when the checks are done.
  const cycle = graphOf(fixture('dep-cycle'));
  if (cycle.type !== 'graph') throw new Error('not a graph');
  const { problems } = cycle.model;
  await q.post({ ...cycle, model: { ...cycle.model, problems: [] } });
  // 3 waits for 2 and 4 for 3, both edges of the cycle: points along each line are red (it is dashed).
  const redPoints = async (from: number, to: number) => {
    const a = await boxOf(q.page, from), b = await boxOf(q.page, to);
    const x0 = a.x + a.w, y0 = a.y + a.h / 2, x1 = b.x, y1 = b.y + b.h / 2;
    let red = 0;
    for (let k = 1; k < 20; k++) if (isRed(await pixel(q.page, x0 + ((x1 - x0) * k) / 20, y0 + ((y1 - y0) * k) / 20))) red++;
    return red;
  };
  assert.equal(await redPoints(2, 3), 0, 'no problems yet');
  await q.post({ type: 'problems', problems });
  for (const [from, to] of [[2, 3], [3, 4]]) {
    const red = await redPoints(from, to);
    assert.ok(red >= 5, `edge ${from} → ${to} drawn red: ${red} of 19 points`);
  }
  await q.post(graphOf(fixture('spm-overlap')));
  for (const i of [0, 1]) {
    const b = await boxOf(q.page, i);
    const [r, g, bl] = await pixel(q.page, b.x + b.w - 2, b.y + 2);
    assert.ok(r > 180 && g > 140 && bl < 60, `a warning flag in the corner of entry ${i}, got ${r}, ${g}, ${bl}`);
  }
  await q.post({ type: 'select', index: 0 });
  assert.match((await q.page.textContent('#selection'))!, / · problems: cmdq\.spm-overlap$/);
  assert.deepEqual(q.errors, []);
});

test('Estimated vs measured: the Layers table, sortable, names as text; the selected entry shows its layer measured', async (t) => {
  const q = await open(t);
  const evil = '<img src=x onerror="window.__pwned=1">';
  const text = readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8').replace('"ffn_0_ln"', JSON.stringify(evil));
  const msg = graphOf(text);
  if (msg.type !== 'graph') throw new Error('not a graph');
  const doc = CmdqDocument.parse(text);
  const a = analyzeGraph(doc.parsed.entries, doc.graph, DEFAULT_COST_MODEL);
  const stat = (layer_id: string, span: number, te: number): LayerStats => ({ layer_id, commands: 3, latency_sum_cycles: span, span_cycles: span, p50_cycles: null, p95_cycles: null, max_cycles: null, te_busy_cycles: te, ve_busy_cycles: 0, engine_busy_cycles: te, dma_busy_cycles: 0, te_share: null, ve_share: null, dma_share: null, longest: [] });
  // ffn_0 → trace layer 3 through the map; the other layer has no match.
  msg.model.join = graphJoin('run.trace.jsonl', joinLayers(doc.parsed.entries, a, [stat('3', 1024, 600)], { ffn_0: '3' }));
  await q.post(msg);
  assert.equal(await q.page.isVisible('#layers'), true);
  await q.page.click('#layers');
  assert.equal(await q.page.isVisible('#canvas'), false);
  const rows = async () => q.page.$$eval('#table tr', (trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));
  const r = await rows();
  assert.deepEqual(r[0].slice(0, 6), ['layer', 'trace layer', 'entries', 'est. span', 'meas. span', 'meas./est. ▼']);
  // ffn_0: entries 0, 1, 2, 4 run 0..512 in the list-scheduled run; measured 1024 → ×2.
  assert.deepEqual(r[1], ['ffn_0', '3', '4', '512', '1,024', '2', '256', '600', '0', '0', '192', '0']);
  assert.deepEqual(r[2].slice(0, 6), [evil, '-', '1', '64', '-', '-']);
  // Sort by layer name: the evil name (code point '<' < 'f') first.
  await q.page.click('#table th >> nth=0');
  assert.deepEqual((await rows()).slice(1).map((x) => x[0]), [evil, 'ffn_0']);
  assert.match((await q.page.textContent('#table .caption'))!, /^Estimated \(cost model\) vs measured \(run\.trace\.jsonl\): 2 layers, 1 matched in the trace$/);
  await q.page.click('#layers');
  assert.equal(await q.page.isVisible('#canvas'), true);
  await q.post({ type: 'select', index: 2 });
  assert.match((await q.page.textContent('#selection'))!, / · measured: layer span 1024 cycles \(TE 600 \/ VE 0 \/ DMA 0 busy\), estimated 512, ×2$/);
  assert.equal(await q.page.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.equal(await q.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(q.errors, []);
});

test('the schedule: one row per engine, bars at their scheduled start; a click on a bar selects its entry', async (t) => {
  const q = await open(t);
  await q.post(graphOf(readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8')));
  await q.page.click('#mode');
  await q.page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))');
  const view = await q.page.evaluate(() => (window as unknown as { __graph: { view(): { scale: number; ox: number; oy: number; mode: string } } }).__graph.view());
  assert.equal(view.mode, 'schedule');
  assert.equal(await q.page.textContent('#mode'), 'Graph');
  const rows = await q.page.evaluate(() => (window as unknown as { __graph: { state(): { schedule: { names: string[] } } } }).__graph.state().schedule.names);
  assert.deepEqual(rows, ['DMA load', 'DMA store', 'TE 0', 'VE 0', '(no engine)']);
  // The GEMM runs 128..384 on row 2 (TE 0): the middle of its bar is TE orange, fitted to the width.
  const canvasTop = await q.page.evaluate(() => document.getElementById('canvas')!.getBoundingClientRect().top);
  const x = view.ox + 256 * view.scale, y = view.oy + 2 * 28 + 3; // above the label text
  assert.deepEqual(await pixel(q.page, x, y), [0xf2, 0xb3, 0x6b]);
  // The second load waits for the first on the one DMA load engine: 64..128 on row 0.
  assert.deepEqual(await pixel(q.page, view.ox + 96 * view.scale, view.oy + 3), [0x7f, 0xb3, 0xe0]);
  await q.page.mouse.click(view.ox + 96 * view.scale, canvasTop + view.oy + 10);
  const reveals = (await q.sent()).filter((m) => (m as { type: string }).type === 'reveal');
  assert.deepEqual(reveals.at(-1), { type: 'reveal', index: 1 });
  // A time axis in cycles above the rows: a tick at cycle 100 (ticks come about 100 px apart, on 1, 2, 5 × 10^k).
  const at = (c: number) => pixel(q.page, Math.round(view.ox + c * view.scale) + 0.5, 22 - 3);
  const [tick, between] = [await at(100), await at(150)];
  assert.ok(tick[0] > between[0] + 15, `a tick on the axis at cycle 100 (${tick}), none at 150 (${between})`);
  assert.ok(view.oy >= 22, 'the rows start below the axis');
  await q.page.screenshot({ path: join(OUT, 'cmdq-schedule.png') });
  assert.deepEqual(q.errors, []);
});
