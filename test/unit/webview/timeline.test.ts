/**
 * The built timeline page (dist/webview) in headless Chromium: feed it a model as the host does,
 * look at what it drew, click, and check the messages it sends back.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { timelinePage } from '../../../client/timeline/html';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { filterBy, launchChromium, modelMessage, openTimelinePage, sentOfType, type DrawCall, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
const fixture = (): TimelineModel => buildTimeline('x.trace.jsonl', splitLines(readFileSync(join(ROOT, 'test/fixtures/timeline/llama-layer.trace.jsonl'), 'utf8')))!;

// One browser for the file; every test gets its own page (own context) and sets up what it needs,
// so each runs alone (--test-name-pattern) and in any order.
let browser: Browser | undefined;
after(async () => browser?.close());

async function open(opts: { theme?: 'dark' | 'light' | 'hc' } = {}): Promise<TimelinePage> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  browser ??= await launchChromium();
  return openTimelinePage({ ...opts, browser, recordDraws: true });
}

/** A fresh page showing `model` (the fixture by default); closed after the test. */
async function withPage(t: { after(fn: () => Promise<void>): void }, model: TimelineModel = fixture(), opts: { theme?: 'dark' | 'light' | 'hc' } = {}): Promise<TimelinePage> {
  const q = await open(opts);
  t.after(() => q.close());
  await q.post(modelMessage(model));
  await q.frame();
  return q;
}

/** Where the page drew an item: the centre of its rectangle, in page pixels (found through the page's own layout). */
async function centreOf(page: TimelinePage, kind: number, id: number): Promise<{ x: number; y: number }> {
  return page.page.evaluate(([kind, id]) => {
    const tl = (window as unknown as { __timeline: { state(): any } }).__timeline; // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = tl.state();
    const it = s.model.items;
    let i = -1;
    for (let k = 0; k < it.start.length; k++) if (it.kind[k] === kind && it.id[k] === id) i = k;
    if (i < 0) throw new Error(`no item ${kind}/${id}`);
    const row = s.index.rowOfItem[i];
    const band = s.bands.find((b: { kind: string; rowFrom: number; rowTo: number }) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo);
    const canvas = document.getElementById('canvas')!.getBoundingClientRect();
    const mid = (it.start[i] + Math.min(it.end[i], s.viewport.end)) / 2;
    return { x: canvas.left + 200 + s.viewport.x(mid), y: canvas.top + 36 + band.y - s.scrollY + band.h / 2 };
  }, [kind, id] as const);
}

async function pixel(page: TimelinePage, x: number, y: number): Promise<string> {
  return page.page.evaluate(([x, y]) => {
    const c = document.getElementById('canvas') as HTMLCanvasElement;
    const r = c.getBoundingClientRect(), dpr = c.width / r.width;
    const d = c.getContext('2d')!.getImageData(Math.round((x - r.left) * dpr), Math.round((y - r.top) * dpr), 1, 1).data;
    return '#' + [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
  }, [x, y] as const);
}

async function lastSent(page: TimelinePage) {
  const sent = await page.sent();
  return sent[sent.length - 1];
}


test('draws the fixture: spans in their theme colour, and a screenshot', async (t) => {
  const p = await withPage(t);
  await p.page.screenshot({ path: join(OUT, 'timeline-dark.png') });
  const te = await centreOf(p, 2, 1001);
  assert.equal(await pixel(p, te.x, te.y + 4), '#89d185', 'TE spans use --vscode-charts-green');
  const cmd = await centreOf(p, 0, 42);
  assert.equal(await pixel(p, cmd.x, cmd.y + 4), '#3794ff', 'commands use --vscode-charts-blue');
  assert.deepEqual(p.errors, []);
});

test('clicking a span selects it, shows its details and asks the host to reveal its line', async (t) => {
  const p = await withPage(t);
  const te = await centreOf(p, 2, 1001);
  await p.page.mouse.click(te.x, te.y);
  await p.frame();
  assert.deepEqual(await lastSent(p), { type: 'select', line: 9, endLine: 17, reveal: true });
  const details = await p.page.textContent('#details');
  assert.match(details!, /TE_GEMM|TE #1001/);
  assert.match(details!, /Command \(1\)/, 'linked command listed');
  assert.match(details!, /Transfers/, 'linked transfers listed');
  await p.post({ type: 'details', line: 9, fields: [['event_type', '"TE_START"'], ['m', '128']], endFields: [['mac_count', '4194304']] });
  assert.match((await p.page.textContent('#details'))!, /mac_count4194304/);
  await p.page.screenshot({ path: join(OUT, 'timeline-selected.png') });
});

test('a command whose fields name a layer offers Show in CMDQ, which asks the host with the layer as the trace names it', async (t) => {
  const p = await withPage(t);
  const te = await centreOf(p, 2, 1001);
  await p.page.mouse.click(te.x, te.y);
  await p.frame();
  await p.post({ type: 'details', line: 9, fields: [['event_type', '"TE_START"']], endFields: [] });
  assert.equal(await p.page.locator('#details button', { hasText: 'Show in CMDQ' }).count(), 0, 'no layer_id, no button');
  await p.post({ type: 'details', line: 9, fields: [['event_type', '"TE_START"'], ['layer_id', '3']], endFields: [] });
  await p.page.locator('#details button', { hasText: 'Show in CMDQ' }).click();
  assert.deepEqual(await lastSent(p), { type: 'showInCmdq', layer: '3' });
  await p.post({ type: 'details', line: 9, fields: [['layer_id', '"ffn_<b>0"']], endFields: [] });
  await p.page.locator('#details button', { hasText: 'Show in CMDQ' }).click();
  assert.deepEqual(await lastSent(p), { type: 'showInCmdq', layer: 'ffn_<b>0' });
  assert.deepEqual(p.errors, []);
});

test('the editor cursor on a line selects its event without moving the editor', async (t) => {
  const p = await withPage(t);
  await p.post({ type: 'selectLine', line: 25 });
  await p.frame();
  const state = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): { selected: number; model: { items: { id: Float64Array; kind: Uint8Array } } } } }).__timeline.state();
    return { id: s.model.items.id[s.selected], kind: s.model.items.kind[s.selected] };
  });
  assert.deepEqual(state, { id: 1100, kind: 3 }, 'line 26 is VE_END of job 1100');
  assert.deepEqual(await lastSent(p), { type: 'select', line: 24, endLine: 25, reveal: false });
});

test('filter by phase: only that phase stays drawn', async (t) => {
  const p = await withPage(t);
  const ve = await centreOf(p, 3, 1100);
  const te = await centreOf(p, 2, 1001);
  assert.equal(await pixel(p, ve.x, ve.y + 4), '#d18616', 'LN1 VE span drawn before the filter');
  await filterBy(p, '0', 'QKV_PROJ');
  assert.equal(await pixel(p, te.x, te.y + 4), '#89d185', 'QKV_PROJ TE span stays');
  assert.equal(await pixel(p, ve.x, ve.y + 4), '#1e1e1e', 'LN1 VE span is gone: background where it was');
  await filterBy(p, '-1', undefined);
  assert.equal(await pixel(p, ve.x, ve.y + 4), '#d18616', 'filter off: VE span back');
});

test('keyboard: W zooms in at the centre, A pans, F fits all', async (t) => {
  const p = await withPage(t);
  const view = () => p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): { viewport: { start: number; end: number } } } }).__timeline.state();
    return [s.viewport.start, s.viewport.end];
  });
  await p.page.focus('#canvas');
  const [a0, b0] = await view();
  await p.page.keyboard.press('w');
  const [a1, b1] = await view();
  assert.ok(b1 - a1 < b0 - a0, 'narrower after W');
  await p.page.keyboard.press('a');
  const [a2] = await view();
  assert.ok(a2 < a1, 'earlier after A');
  await p.page.keyboard.press('f');
  assert.deepEqual(await view(), [a0, b0]);
});

test('search by id finds the event and Enter steps through matches', async (t) => {
  const p = await withPage(t);
  await p.page.locator('vscode-text-field').locator('input').fill('500');
  await p.page.locator('vscode-text-field').locator('input').press('Enter');
  await p.frame();
  const sel = await lastSent(p);
  assert.equal(sel.type, 'select');
  assert.ok(sel.type === 'select' && [5, 6, 7].includes(sel.line), 'a START line of tx 500 (DMA, NoC or DRAM)');
  assert.match((await p.page.textContent('#toolbar'))!, /1 of 3/);
});

test('an invalid model is rejected and reported, not drawn', async (t) => {
  const p = await withPage(t);
  await p.drawCalls();
  const m = fixture();
  (m.items as { start: Float64Array }).start = new Float64Array(1);
  await p.post(modelMessage(m));
  await p.frame();
  const sent = await lastSent(p);
  assert.equal(sent.type, 'error');
  assert.deepEqual(await p.drawCalls(), [], 'no frame drawn for it');
});

/** 200 000 TE spans in one lane, 10 cycles apart; `phase(j)` gives span j's phase. */
function oneRow(phase: (j: number) => string): TimelineModel {
  const lines: string[] = [];
  for (let j = 0; j < 200_000; j++) lines.push(`{"event_type":"TE_START","t_cycle":${j * 10},"job_id":${j},"phase":"${phase(j)}"}`, `{"event_type":"TE_END","t_cycle":${j * 10 + 7},"job_id":${j}}`);
  return buildTimeline('big.trace.jsonl', lines)!;
}

/** Canvas coordinates (CSS pixels, as the draw calls use); `page` is the canvas's offset in the page (for pixel()). */
interface Geometry { top: number; h: number; left: number; width: number; start: number; scale: number; page: { x: number; y: number } }

/** Where the lane of the TE spans is on the canvas (CSS pixels) and the time → x mapping. */
function laneGeometry(p: TimelinePage): Promise<Geometry> {
  return p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): any } }).__timeline.state(); // eslint-disable-line @typescript-eslint/no-explicit-any
    const row = s.index.rowOfItem[0];
    const band = s.bands.find((b: { kind: string; rowFrom: number; rowTo: number }) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo);
    const canvas = document.getElementById('canvas')!, r = canvas.getBoundingClientRect();
    return { top: 36 + band.y - s.scrollY, h: band.h, left: canvas.clientWidth - s.viewport.width, width: s.viewport.width, start: s.viewport.start, scale: s.viewport.scale, page: { x: r.left, y: r.top } };
  });
}

/** The calls of one frame that drew inside the lane's plot area. */
const inLane = (calls: DrawCall[], g: Geometry) => calls.filter((c) => c.y >= g.top && c.y < g.top + g.h && c.x + c.w > g.left && c.op !== 'rect');

/**
 * Redraws once and counts the reads of the items' start and end columns during that frame, through
 * proxies put on the page's model: the work a frame does, seen from outside the renderer.
 */
async function readsPerFrame(p: TimelinePage): Promise<number> {
  await p.page.evaluate(`(() => {
    const it = window.__timeline.state().model.items;
    window.__reads = 0;
    for (const k of ['start', 'end']) {
      const a = it[k].__target ?? it[k];
      it[k] = new Proxy(a, { get: (t, key) => (key === '__target' ? t : (typeof key === 'string' && /^[0-9]/.test(key) && window.__reads++, Reflect.get(t, key))) });
    }
    window.__timeline.redraw();
  })()`);
  await p.frame();
  return (await p.page.evaluate('window.__reads')) as number;
}

/**
 * What a level-of-detail frame of oneRow() may read: per pixel two binary searches (≤ log2 n + 1
 * reads each) and the start and end of the items they land on. Visiting every item reads 2 n = 400 000.
 */
const readBound = (pixels: number) => Math.ceil(4 * (Math.log2(200_000) + 2) * pixels);

async function redraw(p: TimelinePage): Promise<DrawCall[]> {
  await p.drawCalls();
  await p.page.evaluate('window.__timeline.redraw()');
  await p.frame();
  return p.drawCalls();
}

test('level of detail: 200 000 spans in one row draw at most 2 rectangles per pixel (counted at the canvas), and zoom reaches single cycles', async (t) => {
  const p = await withPage(t, oneRow(() => 'A'));
  const g = await laneGeometry(p);
  const lane = inLane(await redraw(p), g).filter((c) => c.op === 'fillRect');
  assert.ok(lane.length > 0, 'the lane is drawn');
  assert.ok(lane.length <= 2 * g.width, `fillRect calls in the lane: ${lane.length} for ${g.width} pixels`);
  const covered = lane.reduce((n, c) => n + Math.min(c.x + c.w, g.left + g.width) - Math.max(c.x, g.left), 0);
  assert.ok(covered >= 0.9 * (2_000_000 * g.scale), `density bars cover the spans' extent: ${covered} px`);
  const reads = await readsPerFrame(p);
  assert.ok(reads <= readBound(g.width), `start/end reads in one frame: ${reads} for ${g.width} pixels (bound ${readBound(g.width)}: O(pixels · log n), not O(n))`);
  // Zoom in at the pointer, over the lane, until single cycles are pixels apart.
  await p.page.mouse.move(g.page.x + g.left + g.width / 2, g.page.y + g.top + g.h / 2);
  for (let k = 0; k < 40; k++) await p.page.mouse.wheel(0, -400);
  await p.frame();
  const span = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): { viewport: { start: number; end: number; width: number } } } }).__timeline.state();
    return (s.viewport.end - s.viewport.start) / s.viewport.width;
  });
  assert.ok(span < 0.05, `cycles per pixel at full zoom: ${span}`);
});

test('level of detail with a filter on: a frame skips pixels through the passing items only, and filtered-out spans are not drawn', async (t) => {
  // First half: phases A and B alternate; second half: B only. The filter keeps A.
  const p = await withPage(t, oneRow((j) => (j < 100_000 && j % 2 === 0 ? 'A' : 'B')));
  await filterBy(p, '0', 'A');
  const g = await laneGeometry(p);
  const x = (cycle: number) => g.left + (cycle - g.start) * g.scale;
  const lane = inLane(await redraw(p), g);
  const rects = lane.filter((c) => c.op === 'fillRect');
  assert.ok(rects.length > 0 && rects.length <= 2 * g.width, `fillRect calls in the lane: ${rects.length} for ${g.width} pixels`);
  const beyond = lane.filter((c) => c.x + c.w > x(1_000_000) + 1);
  assert.deepEqual(beyond, [], 'nothing drawn where only B spans are');
  assert.ok(rects.reduce((n, c) => n + c.w, 0) >= 0.9 * (x(999_987) - x(0)), 'the A spans of the first half are drawn');
  const reads = await readsPerFrame(p);
  assert.ok(reads <= readBound(g.width), `start/end reads in one filtered frame: ${reads} for ${g.width} pixels (bound ${readBound(g.width)}: O(pixels · log n), not O(n))`);

  // Zoomed in so each span is tens of pixels wide: the A spans are there, the B spans between them are not.
  await p.page.evaluate('(() => { const s = window.__timeline.state(); s.viewport.set(1000, 1200, s.model); })()');
  const gz = await laneGeometry(p);
  const xz = (cycle: number) => gz.left + (cycle - gz.start) * gz.scale;
  const zoomed = inLane(await redraw(p), gz);
  for (let j = 100; j < 120; j++) {
    const a = xz(j * 10), b = xz(j * 10 + 7);
    const hits = zoomed.filter((c) => c.x < b - 1 && c.x + c.w > a + 1);
    if (j % 2 === 0) assert.ok(hits.some((c) => c.op === 'fillRect' && c.x <= a + 1 && c.x + c.w >= b - 1), `A span ${j} drawn`);
    else assert.deepEqual(hits, [], `B span ${j} not drawn (no rectangle, label or marker over it)`);
  }
  assert.equal(await pixel(p, gz.page.x + xz(1015), gz.page.y + gz.top + gz.h / 2), '#1e1e1e', 'background where B span 101 would be');
  assert.equal(await pixel(p, gz.page.x + xz(1005), gz.page.y + gz.top + gz.h / 2 + 4), '#89d185', 'A span 100 in the TE colour');
});

test('level of detail looks for the next pixel\'s items next to the current ones: a frame reads O(pixels · log(items per pixel)), not O(pixels · log n)', async (t) => {
  // At 10M events a binary search over the rest of the row is a cache miss per step, per pixel.
  const p = await withPage(t, oneRow(() => 'A'));
  // 40 cycles per pixel from the row's start: 4 spans per pixel, and the ~196 000 spans after the view still in the row.
  await p.page.evaluate('(() => { const s = window.__timeline.state(); s.viewport.set(0, 40 * s.viewport.width, s.model); })()');
  const g = await laneGeometry(p);
  assert.ok(Math.abs(1 / g.scale - 40) < 1, `cycles per pixel: ${1 / g.scale}`);
  const rects = inLane(await redraw(p), g).filter((c) => c.op === 'fillRect');
  assert.ok(rects.reduce((n, c) => n + c.w, 0) >= 0.9 * g.width, 'density bars across the lane');
  const reads = await readsPerFrame(p);
  // Per pixel: the start and end of the item drawn, and a search over ~4 items (a few reads); a binary
  // search over the rest of the row reads log2(196 000) ≈ 18 values for every pixel.
  assert.ok(reads <= 3 * (Math.log2(4) + 2) * g.width, `start/end reads in one frame: ${reads} for ${g.width} pixels (${(reads / g.width).toFixed(1)} per pixel)`);
});

test('a filter keeps, per row, exactly the items that pass, in the order the renderer walks them', async (t) => {
  const p = await withPage(t);
  await filterBy(p, '0', 'QKV_PROJ');
  const check = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): any } }).__timeline.state(); // eslint-disable-line @typescript-eslint/no-explicit-any
    const m = s.model, f = s.filtered, rows = m.rowItemStart.length - 1;
    const bad: string[] = [];
    let kept = 0, multiLane = 0;
    for (let r = 0; r < rows; r++) {
      const want: number[] = [];
      for (let i = m.rowItemStart[r]; i < m.rowItemStart[r + 1]; i++) if (s.index.attr(i, 0) === 'QKV_PROJ') want.push(i);
      const got = Array.from(f.items.subarray(f.rowStart[r], f.rowStart[r + 1]));
      if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`row ${r}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
      kept += want.length;
      if (want.length && m.rowItemStart[r + 1] - m.rowItemStart[r] > want.length) multiLane++;
    }
    return { bad, kept, total: m.items.start.length, rows: f.rowStart.length - 1, mixed: multiLane };
  });
  assert.deepEqual(check.bad, []);
  assert.ok(check.kept > 0 && check.kept < check.total, `some items pass, some do not: ${check.kept} of ${check.total}`);
  assert.ok(check.mixed > 0, 'rows mixing passing and filtered-out items are covered');
  await filterBy(p, '-1', undefined);
  assert.equal(await p.page.evaluate('window.__timeline.state().filtered'), undefined, 'no filter, no list: the renderer walks the rows');
});

test('trace strings reach the page as text: markup in fields never runs', async () => {
  const evil = '<img src=x onerror="window.__xss=1">';
  const close = '</script><script>window.__xss=2</script>';
  const text = [
    `{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":1,"cmd_type":${JSON.stringify(evil)},"phase":${JSON.stringify(close)},"model_name":${JSON.stringify(evil)}}`,
    '{"event_type":"CMD_START","t_cycle":2,"cmd_id":1}',
    `{"event_type":"ERROR","t_cycle":5,"component":${JSON.stringify(evil)},"code":${JSON.stringify(close)},"msg":"x","cmd_id":1}`,
    '{"event_type":"CMD_END","t_cycle":9,"cmd_id":1,"status":"OK"}',
  ];
  const q = await open();
  try {
    await q.post(modelMessage(buildTimeline(`${evil}.trace.jsonl`, text)!, `${close}.trace.jsonl`));
    await q.frame();
    const c = await centreOf(q, 0, 1);
    await q.page.mouse.move(c.x, c.y);
    await q.page.mouse.click(c.x, c.y);
    await q.post({ type: 'details', line: 1, fields: [['cmd_type', JSON.stringify(evil)], [evil, close]], endFields: [] });
    // Colour-by and the filter-value list show attribute values too.
    await q.page.evaluate(() => {
      const attr = document.querySelector('vscode-dropdown[aria-label="Filter by"]') as HTMLElement & { value: string };
      attr.value = '0';
      attr.dispatchEvent(new Event('change'));
    });
    await q.frame();
    assert.equal(await q.page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.equal(await q.page.locator('img').count(), 0);
    assert.equal(await q.page.locator('script').count(), 1, 'only our own script element');
    assert.ok((await q.page.textContent('#details'))!.includes(evil), 'shown literally');
    assert.ok((await q.page.textContent('#tooltip'))!.includes(evil), 'tooltip shows it literally');
    assert.ok((await q.page.locator('vscode-dropdown[aria-label="Filter value"]').textContent())!.includes(close));
  } finally {
    await q.close();
  }
  const html = timelinePage({ cspSource: 'vscode-resource:', nonce: 'n', scriptUri: 's.js', styleUri: 's.css', title: close + evil });
  assert.ok(!html.includes('<img') && !html.includes('</script><script>'), 'the title is escaped in the page HTML');
  assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-n&#39;;/);
  assert.ok(!/script-src[^;]*(unsafe|\*)/.test(html.replace(/&#39;/g, "'")), 'no unsafe-inline / unsafe-eval / wildcard for scripts');
});

test('light and high-contrast themes: readable colours from the theme', async () => {
  for (const theme of ['light', 'hc'] as const) {
    const q = await open({ theme });
    try {
      await q.post(modelMessage(fixture()));
      await q.frame();
      await q.page.screenshot({ path: join(OUT, `timeline-${theme}.png`) });
      assert.equal(await pixel(q, 1190, 690), theme === 'light' ? '#ffffff' : '#000000', 'background from --vscode-editor-background');
      const te = await centreOf(q, 2, 1001);
      assert.equal(await pixel(q, te.x, te.y + 4), theme === 'light' ? '#388a34' : '#89d185');
      assert.deepEqual(q.errors, []);
    } finally {
      await q.close();
    }
  }
});

test('the toolbar has "Parquet…" next to the Chrome Trace export, and it asks the host to run Export as Parquet', async (t) => {
  const p = await withPage(t);
  const ids = await p.page.$$eval('#toolbar vscode-button', (bs) => bs.map((b) => b.id));
  assert.equal(ids.indexOf('exportParquet'), ids.indexOf('exportChromeTrace') + 1, ids.join(' '));
  await p.page.click('#exportParquet');
  await sentOfType(p, 'exportParquet');
  assert.deepEqual((await p.sent()).filter((m) => m.type.startsWith('export')), [{ type: 'exportParquet' }]);
});
