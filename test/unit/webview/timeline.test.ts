/**
 * The built timeline page (dist/webview) in headless Chromium: feed it a model as the host does,
 * look at what it drew, click, and check the messages it sends back.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { timelinePage } from '../../../client/timeline/html';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/timeline/builder';
import type { TimelineModel } from '../../../core/timeline/model';
import { modelMessage, openTimelinePage, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
const fixture = (): TimelineModel => buildTimeline('x.trace.jsonl', splitLines(readFileSync(join(ROOT, 'test/fixtures/timeline/llama-layer.trace.jsonl'), 'utf8')))!;

let p: TimelinePage;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  p = await openTimelinePage();
});
after(async () => p?.close());

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

test('draws the fixture: spans in their theme colour, and a screenshot', async () => {
  await p.post(modelMessage(fixture()));
  await p.frame();
  await p.page.screenshot({ path: join(OUT, 'timeline-dark.png') });
  const te = await centreOf(p, 2, 1001);
  assert.equal(await pixel(p, te.x, te.y + 4), '#89d185', 'TE spans use --vscode-charts-green');
  const cmd = await centreOf(p, 0, 42);
  assert.equal(await pixel(p, cmd.x, cmd.y + 4), '#3794ff', 'commands use --vscode-charts-blue');
  assert.deepEqual(p.errors, []);
});

test('clicking a span selects it, shows its details and asks the host to reveal its line', async () => {
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

test('the editor cursor on a line selects its event without moving the editor', async () => {
  await p.post({ type: 'selectLine', line: 25 });
  await p.frame();
  const state = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): { selected: number; model: { items: { id: Float64Array; kind: Uint8Array } } } } }).__timeline.state();
    return { id: s.model.items.id[s.selected], kind: s.model.items.kind[s.selected] };
  });
  assert.deepEqual(state, { id: 1100, kind: 3 }, 'line 26 is VE_END of job 1100');
  assert.deepEqual(await lastSent(p), { type: 'select', line: 24, endLine: 25, reveal: false });
});

test('filter by phase: only that phase stays drawn', async () => {
  const ve = await centreOf(p, 3, 1100);
  const te = await centreOf(p, 2, 1001);
  await p.page.evaluate(() => {
    const attr = document.querySelector('vscode-dropdown[aria-label="Filter by"]') as HTMLElement & { value: string };
    attr.value = '0';
    attr.dispatchEvent(new Event('change'));
  });
  await p.frame();
  await p.page.evaluate(() => {
    const val = document.querySelector('vscode-dropdown[aria-label="Filter value"]') as HTMLElement & { value: string };
    val.value = 'QKV_PROJ';
    val.dispatchEvent(new Event('change'));
  });
  await p.frame();
  assert.equal(await pixel(p, te.x, te.y + 4), '#89d185', 'QKV_PROJ TE span stays');
  assert.notEqual(await pixel(p, ve.x, ve.y + 4), '#d18616', 'LN1 VE span is gone');
  await p.page.evaluate(() => {
    const attr = document.querySelector('vscode-dropdown[aria-label="Filter by"]') as HTMLElement & { value: string };
    attr.value = '-1';
    attr.dispatchEvent(new Event('change'));
  });
  await p.frame();
  assert.equal(await pixel(p, ve.x, ve.y + 4), '#d18616', 'filter off: VE span back');
});

test('keyboard: W zooms in at the centre, A pans, F fits all', async () => {
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

test('search by id finds the event and Enter steps through matches', async () => {
  await p.page.locator('vscode-text-field').locator('input').fill('500');
  await p.page.locator('vscode-text-field').locator('input').press('Enter');
  await p.frame();
  const sel = await lastSent(p);
  assert.equal(sel.type, 'select');
  assert.ok(sel.type === 'select' && [5, 6, 7].includes(sel.line), 'a START line of tx 500 (DMA, NoC or DRAM)');
  assert.match((await p.page.textContent('#toolbar'))!, /1 of 3/);
});

test('an invalid model is rejected and reported, not drawn', async () => {
  const m = fixture();
  (m.items as { start: Float64Array }).start = new Float64Array(1);
  await p.post(modelMessage(m));
  const sent = await lastSent(p);
  assert.equal(sent.type, 'error');
});

test('level of detail: 200 000 spans in one row draw at most ~2 rectangles per pixel, and zoom reaches single cycles', async () => {
  const lines: string[] = [];
  for (let j = 0; j < 200_000; j++) lines.push(`{"event_type":"TE_START","t_cycle":${j * 10},"job_id":${j}}`, `{"event_type":"TE_END","t_cycle":${j * 10 + 7},"job_id":${j}}`);
  await p.post(modelMessage(buildTimeline('big.trace.jsonl', lines)!));
  await p.frame();
  const stats = await p.page.evaluate(() => (window as unknown as { __timeline: { perf: { last: { maxRectsPerPixelRow: number; rects: number } } } }).__timeline.perf.last);
  assert.ok(stats.maxRectsPerPixelRow <= 2, `rects per pixel per row: ${stats.maxRectsPerPixelRow}`);
  assert.ok(stats.rects > 0);
  // Zoom in at the pointer until single cycles are pixels apart.
  const te = { x: 700, y: 36 + 35 + 60 };
  for (let k = 0; k < 40; k++) await p.page.mouse.wheel(0, -400);
  await p.page.mouse.move(te.x, te.y);
  await p.frame();
  const span = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): { viewport: { start: number; end: number; width: number } } } }).__timeline.state();
    return (s.viewport.end - s.viewport.start) / s.viewport.width;
  });
  assert.ok(span < 0.05, `cycles per pixel at full zoom: ${span}`);
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
  const q = await openTimelinePage();
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
    const q = await openTimelinePage({ theme });
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
