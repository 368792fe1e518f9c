/**
 * The Summary tab of the built timeline page in headless Chromium: the tables from a model with
 * stats, sorting, a phase click filtering and zooming the timeline, a finding click, Copy/Save
 * messages, the range's tables through the host, and hostile names staying text.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { MetricsCollector } from '../../../core/trace/metrics/collector';
import { chromeSummary } from '../../../core/chrome/summary';
import { launchChromium, modelMessage, openTimelinePage, shiftDrag, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
const example = (): TimelineModel => buildTimeline('llm-layer.trace.jsonl', splitLines(readFileSync(join(ROOT, 'examples/llm-layer.trace.jsonl'), 'utf8')))!;

let browser: Browser | undefined;
after(async () => browser?.close());

async function withPage(t: { after(fn: () => Promise<void>): void }, model: TimelineModel = example()): Promise<TimelinePage> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  browser ??= await launchChromium();
  const q = await openTimelinePage({ browser, width: 1400, height: 900 });
  t.after(() => q.close());
  await q.post(modelMessage(model, 'llm-layer.trace.jsonl'));
  await q.frame();
  return q;
}

/** The rows of a Summary table as the user reads them (cell texts). */
function rows(q: TimelinePage, table: string): Promise<string[][]> {
  return q.page.evaluate((table) => Array.from(document.querySelectorAll(`#summaryView section[data-table="${table}"] tbody tr`))
    .map((tr) => Array.from(tr.querySelectorAll('td:not(.bar-cell)')).map((td) => td.textContent ?? '')), table);
}

const viewport = (q: TimelinePage) => q.page.evaluate('(() => { const s = window.__timeline.state(); return [s.viewport.start, s.viewport.end, s.filter]; })()') as Promise<[number, number, { attr: number; value: string } | undefined]>;

test('Show Summary opens the tab with the tables of the complete model', async (t) => {
  const q = await withPage(t);
  assert.equal(await q.page.isVisible('#summaryView'), false, 'the timeline is shown first');
  await q.post({ type: 'showSummary' });
  assert.equal(await q.page.isVisible('#summaryView'), true);
  const phases = await rows(q, 'phases');
  const cli = new MetricsCollector();
  for (const l of splitLines(readFileSync(join(ROOT, 'examples/llm-layer.trace.jsonl'), 'utf8'))) cli.addLine(l);
  assert.deepEqual(phases.map((r) => r[0]), cli.finish().phases.map((p) => p.phase), 'the phases of `npu-trace stats`, in its order');
  const qkv = phases.find((r) => r[0] === 'QKV_PROJ')!;
  // The numbers of `npu-trace stats` on the same file: commands, latency Σ, span, p50, p95, max, TE %, VE %, DMA %.
  assert.deepEqual(qkv.slice(0, 10), ['QKV_PROJ', '2', '3,494', '11,292', '1,690', '1,804', '1,804', '28.7%', '0.0%', '25.2%']);
  assert.deepEqual((await rows(q, 'cores'))[0].slice(0, 4), ['0', '0', '75.0%', '8.2%']);
  assert.equal((await rows(q, 'banks')).length, 16);
  assert.equal(await q.page.locator('#summaryView section[data-table="layers"] .bar .seg').count() > 0, true, 'stacked TE/VE/DMA bars');
  await q.page.screenshot({ path: join(OUT, 'summary.png') });
  assert.deepEqual(q.errors, []);
});

test('a column header sorts the rows, numbers largest first, again to reverse', async (t) => {
  const q = await withPage(t);
  await q.post({ type: 'showSummary' });
  const max = async () => (await rows(q, 'phases')).map((r) => Number(r[6].replace(/,/g, '')));
  const header = '#summaryView section[data-table="phases"] th:has(button:text-matches("^max"))';
  await q.page.click(`${header} button`);
  const desc = await max();
  assert.deepEqual(desc, [...desc].sort((a, b) => b - a));
  assert.equal(await q.page.getAttribute(header, 'aria-sort'), 'descending');
  await q.page.click(`${header} button`);
  assert.deepEqual(await max(), [...desc].reverse());
});

test('clicking a phase filters the timeline by it and zooms to its span, and posts nothing', async (t) => {
  const q = await withPage(t);
  await q.post({ type: 'showSummary' });
  const before = (await q.sent()).length;
  // The slowest phase by max latency.
  const phases = await rows(q, 'phases');
  const slowest = phases.reduce((a, b) => (Number(b[6].replace(/,/g, '')) > Number(a[6].replace(/,/g, '')) ? b : a))[0];
  await q.page.click(`#summaryView section[data-table="phases"] tbody button:text-is("${slowest}")`);
  await q.frame();
  assert.equal(await q.page.isVisible('#summaryView'), false, 'back on the timeline');
  const [a, b, filter] = await viewport(q);
  assert.deepEqual(filter, { attr: 0, value: slowest });
  const span = await q.page.evaluate((phase) => {
    const s = (window as unknown as { __timeline: { state(): any } }).__timeline.state(); // eslint-disable-line @typescript-eslint/no-explicit-any
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < s.model.items.start.length; i++) if (s.index.attr(i, 0) === phase) { lo = Math.min(lo, s.model.items.start[i]); hi = Math.max(hi, s.model.items.end[i]); }
    return [lo, hi, s.model.t0, s.model.t1];
  }, slowest);
  assert.ok(a <= span[0] && b >= span[1], `the view ${a}..${b} holds the phase ${span[0]}..${span[1]}`);
  assert.ok(b - a < (span[1] - span[0]) * 1.1, `and is zoomed to it (${b - a} cycles for a ${span[1] - span[0]}-cycle phase)`);
  await q.page.waitForFunction((v) => (document.querySelector('vscode-dropdown[aria-label="Filter value"]') as HTMLElement & { value: string }).value === v, slowest)
    .catch(() => assert.fail('the toolbar does not show the filter'));
  assert.deepEqual((await q.sent()).slice(before), [], 'no message to the host');
});

test('a finding zooms to its first range and selects its first command', async (t) => {
  // Two phases, one holding nearly all the latency: dominant-phase, about command 2.
  const lines = [
    '{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":1,"phase":"A","npu_id":0,"core_id":0}',
    '{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":2,"phase":"B","npu_id":0,"core_id":0}',
    '{"event_type":"CMD_START","t_cycle":10,"cmd_id":1}',
    '{"event_type":"CMD_END","t_cycle":20,"cmd_id":1,"status":"OK"}',
    '{"event_type":"CMD_START","t_cycle":100,"cmd_id":2}',
    '{"event_type":"CMD_END","t_cycle":5000,"cmd_id":2,"status":"OK"}',
  ];
  const model = buildTimeline('f.trace.jsonl', lines)!;
  const f = model.stats!.findings.find((x) => x.rule === 'dominant-phase');
  assert.ok(f, `a dominant-phase finding: ${JSON.stringify(model.stats!.findings)}`);
  const q = await withPage(t, model);
  await q.post({ type: 'showSummary' });
  await q.page.click('#summaryView section[data-table="findings"] tbody button');
  await q.frame();
  const [a, b] = await viewport(q);
  assert.ok(a <= f.ranges[0][0] && b >= f.ranges[0][1] && b - a < (f.ranges[0][1] - f.ranges[0][0]) * 1.1, `view ${a}..${b} on ${f.ranges[0]}`);
  const sent = await q.sent();
  assert.deepEqual(sent[sent.length - 1], { type: 'select', line: 4, endLine: 5, reveal: true }, 'command 2 selected');
});

test('Copy as CSV and Save as CSV/JSON go through the host with the whole table', async (t) => {
  const q = await withPage(t);
  await q.post({ type: 'showSummary' });
  const sec = '#summaryView section[data-table="banks"]';
  await q.page.click(`${sec} button:text-is("Copy as CSV")`);
  await q.page.click(`${sec} button:text-is("Save as JSON")`);
  const sent = await q.sent();
  const copy = sent.find((m) => m.type === 'copy') as { text: string };
  const lines = copy.text.trimEnd().split('\r\n');
  assert.equal(lines[0], 'bank,accesses,conflicts,conflict rate');
  assert.equal(lines.length, 17);
  assert.equal(lines[1], '0,44,5,0.11363636363636363');
  const save = sent.find((m) => m.type === 'save') as { name: string; text: string };
  assert.equal(save.name, 'llm-layer-banks.json');
  assert.equal(JSON.parse(save.text).length, 16);
});

test('Shift+drag: the range box asks the host for the range, and its tables show the reply', async (t) => {
  const q = await withPage(t);
  const [from, to] = await shiftDrag(q, 400, 700, 200);
  const asked = (await q.sent()).filter((m) => m.type === 'rangeStats');
  assert.deepEqual(asked, [{ type: 'rangeStats', from, to }], 'a drag asks once, when it rests, for the range it ended on');
  assert.ok(from < to);
  const req = asked[0];
  const stats = buildTimeline('x.trace.jsonl', ['{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":1,"phase":"RANGE_PHASE"}', '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}', '{"event_type":"CMD_END","t_cycle":9,"cmd_id":1}'])!.stats!;
  await q.post({ type: 'rangeStats', from: req.from, to: req.to, stats, message: '' });
  await q.page.click('#summary button:text-is("Summary tables of this range")');
  assert.match((await q.page.textContent('#summaryView h2'))!, /^Summary of cycles /);
  assert.deepEqual((await rows(q, 'phases')).map((r) => r[0]), ['RANGE_PHASE']);
  await q.page.click('#summaryView button:text-is("Whole file")');
  assert.ok((await rows(q, 'phases')).length > 1, 'back to the whole file');
});

test('hostile phase names and findings render as text, and invalid stats are rejected', async (t) => {
  const evil = '<img src=x onerror="window.__xss=1">';
  const lines = [
    `{"event_type":"CMD_ENQUEUE","t_cycle":0,"cmd_id":1,"phase":${JSON.stringify(evil)},"layer_id":${JSON.stringify('</script><b>x')}}`,
    '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}',
    '{"event_type":"CMD_END","t_cycle":500,"cmd_id":1}',
  ];
  const q = await withPage(t, buildTimeline('e.trace.jsonl', lines)!);
  await q.post({ type: 'showSummary' });
  assert.deepEqual((await rows(q, 'phases')).map((r) => r[0]), [evil]);
  assert.equal(await q.page.locator('#summaryView img, #summaryView b').count(), 0);
  assert.equal(await q.page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
  const bad = example();
  (bad.stats as unknown as { phases: unknown }).phases = [{ phase: 3 }];
  await q.post(modelMessage(bad));
  const sent = await q.sent();
  assert.match(JSON.stringify(sent[sent.length - 1]), /Ignored an invalid message: model/);
  assert.deepEqual((await rows(q, 'phases')).map((r) => r[0]), [evil], 'the previous tables stay');
});

test('a table of 3 000 phases draws its first 500 rows; Copy has them all', async (t) => {
  const lines: string[] = [];
  for (let k = 0; k < 3000; k++) {
    lines.push(`{"event_type":"CMD_ENQUEUE","t_cycle":${k * 10},"cmd_id":${k},"phase":"P${k}"}`, `{"event_type":"CMD_START","t_cycle":${k * 10},"cmd_id":${k}}`, `{"event_type":"CMD_END","t_cycle":${k * 10 + 5},"cmd_id":${k}}`);
  }
  const q = await withPage(t, buildTimeline('many.trace.jsonl', lines)!);
  await q.post({ type: 'showSummary' });
  assert.equal((await rows(q, 'phases')).length, 500);
  assert.match((await q.page.textContent('#summaryView section[data-table="phases"]'))!, /The first 500 of 3000 rows are shown/);
  await q.page.click('#summaryView section[data-table="phases"] button:text-is("Copy as CSV")');
  const copy = (await q.sent()).find((m) => m.type === 'copy') as { text: string };
  assert.equal(copy.text.trimEnd().split('\r\n').length, 3001);
});

test('a PyTorch trace\'s Summary: GPU streams, steps, top kernels and operators, copies; a kernel\'s row filters the timeline by its name', async (t) => {
  const text = readFileSync(join(ROOT, 'test/fixtures/real/pytorch/eager-step.pt.trace.json'), 'utf8');
  const model = buildTimeline('eager-step.pt.trace.json', text.split('\n'))!;
  browser ??= await launchChromium();
  const q = await openTimelinePage({ browser, width: 1400, height: 900 });
  t.after(() => q.close());
  await q.post(modelMessage(model, 'eager-step.pt.trace.json'));
  await q.frame();
  await q.post({ type: 'showSummary' });
  assert.equal(await q.page.isVisible('#summaryView'), true);
  const want = chromeSummary(model);
  assert.deepEqual((await rows(q, 'streams')).map((r) => r[0]), want.streams.map((s) => s.track));
  assert.deepEqual((await rows(q, 'steps')).map((r) => r[0]), ['ProfilerStep#2', 'ProfilerStep#3']);
  const kernels = await rows(q, 'kernels');
  assert.equal(kernels.length, want.kernels.length);
  assert.equal(kernels[0][0], want.kernels[0].name, 'the kernel with the most time first');
  assert.ok((await rows(q, 'cpuOps')).length > 0 && (await rows(q, 'copies')).length > 0 && (await rows(q, 'opGpu')).length > 0);
  assert.doesNotMatch(await q.page.textContent('#summaryView') ?? '', /for NPU traces/);
  await q.page.screenshot({ path: join(OUT, 'summary-pytorch.png') });
  await q.page.click(`#summaryView section[data-table="kernels"] tbody button:text-is("${want.kernels[0].name}")`);
  await q.frame();
  assert.equal(await q.page.isVisible('#summaryView'), false, 'back on the timeline');
  const [, , filter] = await viewport(q);
  assert.deepEqual(filter, { attr: 2, value: want.kernels[0].name });
  assert.deepEqual(q.errors, []);
});
