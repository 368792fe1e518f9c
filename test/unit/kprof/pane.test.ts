/**
 * The kernel-profiler pane of the built timeline page (dist/webview) in headless Chromium, fed as
 * the custom editor feeds it: the header facts above the timeline, the statistics tables per
 * event, block and group in the Summary tab (sortable, Copy as CSV), a region's name filtering
 * the lanes, and the overlap of a chosen pair of groups asked of the host and drawn.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { decode } from '../../../core/kprof/decode';
import { namesFromLines } from '../../../core/kprof/names';
import { readNpy } from '../../../core/kprof/npy';
import { groupOverlap } from '../../../core/kprof/overlap';
import { regionStats } from '../../../core/kprof/stats';
import { kprofOverlap, kprofRange, kprofSummary } from '../../../core/kprof/summary';
import { kprofTimeline } from '../../../core/kprof/timeline';
import { launchChromium, modelMessage, openTimelinePage, sentOfType, shiftDrag, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
let browser: Browser | undefined;
after(async () => browser?.close());

const [buf] = readNpy(new Uint8Array(readFileSync(join(ROOT, 'examples/warpspec.kprof.npy'))));
const d = decode(buf, { names: namesFromLines(readFileSync(join(ROOT, 'examples/warpspec.kprof.names.txt'), 'utf8')) });

async function withPane(t: { after(fn: () => Promise<void>): void }): Promise<TimelinePage> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser, width: 1300, height: 1000 });
  t.after(() => p.close());
  await p.post(modelMessage(kprofTimeline(d), 'warpspec.kprof.npy'));
  await p.post({ type: 'kprofSummary', summary: kprofSummary(d) });
  await p.frame();
  return p;
}

function rows(p: TimelinePage, table: string): Promise<string[][]> {
  return p.page.evaluate((table) => Array.from(document.querySelectorAll(`#summaryView section[data-table="${table}"] tbody tr`))
    .map((tr) => Array.from(tr.querySelectorAll('td:not(.bar-cell)')).map((td) => td.textContent ?? '')), table);
}

test('the header facts above the timeline; the Summary tab holds the statistics per event, block and group', async (t) => {
  const p = await withPane(t);
  const status = (await p.page.textContent('#toolbar'))!;
  assert.match(status, /layout tvm · blocks 2 · groups 6 · write_stride 12 \(inferred\) · records 304 in 1,024 slots · regions 146 · kernel [\d,]+ ns · problems 0 · 146 items/);
  assert.match(status, new RegExp(`kernel ${d.durationNs.toLocaleString('en-US')} ns`));
  await p.page.click('#summaryTab');
  assert.equal(await p.page.isVisible('#summaryView'), true);
  assert.match((await p.page.textContent('#summaryView .kprof-facts'))!, /layout tvm · blocks 2 · groups 6/);
  const byEvent = await rows(p, 'regions-by-event');
  const stats = regionStats(d);
  assert.deepEqual(byEvent.map((r) => r[0]), stats.map((s) => s.name), 'a row per event, in event order');
  // count, total, mean, min, p50, p95, max, std of the CLI's statistics (issue-tma-k: 16 × 160 ns).
  assert.deepEqual(byEvent.find((r) => r[0] === 'issue-tma-k'), ['issue-tma-k', '16', '2,560', '160', '160', '160', '160', '160', '0']);
  assert.equal((await rows(p, 'regions-by-block')).length, regionStats(d, 'block').length);
  const byGroup = await rows(p, 'regions-by-group');
  assert.deepEqual(byGroup.map((r) => `${r[0]}/${r[1]}`), regionStats(d, 'group').map((s) => `${s.name}/${s.of}`));
  await p.page.screenshot({ path: join(OUT, 'kprof-stats.png'), fullPage: true });
  assert.deepEqual(p.errors, []);
});

test('a header sorts a table (largest first, then reversed); Copy as CSV sends the sorted rows', async (t) => {
  const p = await withPane(t);
  await p.page.click('#summaryTab');
  const header = '#summaryView section[data-table="regions-by-group"] th:has(button:text-matches("^mean ns"))';
  const mean = async () => (await rows(p, 'regions-by-group')).map((r) => Number(r[4].replace(/,/g, '')));
  await p.page.click(`${header} button`);
  const desc = await mean();
  assert.deepEqual(desc, [...desc].sort((a, b) => b - a));
  assert.ok(desc[0] > desc[desc.length - 1], 'not all equal: the sort is seen');
  assert.equal(await p.page.getAttribute(header, 'aria-sort'), 'descending');
  await p.page.click(`${header} button`);
  assert.deepEqual(await mean(), [...desc].reverse());
  await p.page.click('#summaryView section[data-table="regions-by-group"] button:text("Copy as CSV")');
  const copy = (await p.sent()).filter((m) => m.type === 'copy').pop();
  assert.ok(copy && copy.type === 'copy');
  const lines = copy.text.trim().split('\r\n');
  assert.equal(lines[0], 'region,group,count,total ns,mean ns,min ns,p50 ns,p95 ns,max ns,std ns');
  assert.equal(lines.length, 1 + regionStats(d, 'group').length);
  assert.deepEqual(lines.slice(1).map((l) => Number(l.split(',')[4])), [...desc].reverse(), 'rows in the order shown');
  await p.page.click('#summaryView section[data-table="regions-by-event"] button:text("Save as CSV")');
  const save = (await p.sent()).filter((m) => m.type === 'save').pop();
  assert.ok(save && save.type === 'save' && /^warpspec\.kprof\.npy-regions-by-event\.csv$/.test(save.name), JSON.stringify(save));
});

test('clicking a region\'s name filters the lanes by it and shows the timeline', async (t) => {
  const p = await withPane(t);
  await p.page.click('#summaryTab');
  await p.page.click('#summaryView section[data-table="regions-by-event"] td button:text-is("epilogue")');
  assert.equal(await p.page.isVisible('#summaryView'), false);
  const filter = await p.page.evaluate('window.__timeline.state().filter') as { value: string };
  assert.equal(filter.value, 'epilogue');
});

test('the overlap of a chosen pair of groups: asked of the host, its answer drawn per block', async (t) => {
  const p = await withPane(t);
  await p.page.click('#summaryTab');
  await p.page.selectOption('#kprofGroupA', '0');
  await p.page.selectOption('#kprofGroupB', '1');
  await p.page.click('#kprofOverlapGo');
  assert.deepEqual((await p.sent()).pop(), { type: 'kprofOverlap', a: 0, b: 1 });
  assert.match((await p.page.textContent('#summaryView .kprof-overlap'))!, /Computing…/);
  // A late answer for another pair than the one asked is not drawn.
  await p.post({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, 2, 3)), message: '' });
  assert.equal(await p.page.locator('#summaryView section[data-table="overlap-2-3"]').count(), 0);
  assert.match((await p.page.textContent('#summaryView .kprof-overlap'))!, /Computing…/);
  await p.post({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, 0, 1)), message: '' });
  // The CLI's numbers for the same pair (test/cli/kprof.test.ts): 5120 / 3520 / 2560 ns, 50.0 % / 72.7 %.
  assert.match((await p.page.textContent('#summaryView .kprof-overlap-total'))!, /Group 0 is busy 5,120 ns and group 1 3,520 ns .* together 2,560 ns: 50\.0% of group 0's time, 72\.7% of group 1's/);
  assert.deepEqual((await rows(p, 'overlap-0-1')).map((r) => r[0]), ['0', '1']);
  assert.equal(await p.page.locator('#summaryView section[data-table="overlap-0-1"] .bar .seg').count(), 2, 'a bar per block');
  await p.page.locator('.kprof-overlap').screenshot({ path: join(OUT, 'kprof-overlap.png') });
  assert.deepEqual(p.errors, []);
});

test('the Overlap of Two Groups command\'s answer (nothing asked in the page) opens the pane on it, pickers set to its pair', async (t) => {
  const p = await withPane(t);
  await p.post({ type: 'showSummary' });
  await p.post({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, 5, 4)), message: '' });
  assert.equal(await p.page.isVisible('#summaryView'), true);
  assert.equal(await p.page.locator('#summaryView section[data-table="overlap-5-4"] tbody tr').count(), 2);
  assert.deepEqual([await p.page.inputValue('#kprofGroupA'), await p.page.inputValue('#kprofGroupB')], ['5', '4']);
  // A refusal with nothing asked has nothing to attach to.
  await p.post({ type: 'kprofOverlap', overlap: null, message: 'Pick two different groups.' });
  assert.equal(await p.page.locator('#summaryView section[data-table="overlap-5-4"]').count(), 1);
  assert.deepEqual(p.errors, []);
});

test('event names with markup and formula starts stay text in the tables and CSV', async (t) => {
  const names = ['<img src=x onerror="window.__pwned=1">', '=HYPERLINK("http://x")', 'ok'];
  const g = decode(buf, { names });
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post(modelMessage(kprofTimeline(g), 'x.kprof.npy'));
  await p.post({ type: 'kprofSummary', summary: kprofSummary(g) });
  await p.page.click('#summaryTab');
  const first = await rows(p, 'regions-by-event');
  assert.deepEqual(first.slice(0, 3).map((r) => r[0]), names);
  assert.equal(await p.page.locator('#summaryView img').count(), 0);
  assert.equal(await p.page.evaluate('window.__pwned'), undefined);
  await p.page.click('#summaryView section[data-table="regions-by-event"] button:text("Copy as CSV")');
  const copy = (await p.sent()).filter((m) => m.type === 'copy').pop();
  assert.ok(copy && copy.type === 'copy');
  assert.match(copy.text, /\r\n"'=HYPERLINK\(""http:\/\/x""\)",/, 'a formula start gets an apostrophe, quotes doubled');
  assert.deepEqual(p.errors, []);
});

test('Shift+drag on the buffer\'s timeline asks the host for the range; its region statistics top the Summary tab', async (t) => {
  const p = await withPane(t);
  const [from, to] = await shiftDrag(p, 400, 700, 200);
  const req = await sentOfType(p, 'rangeStats');
  assert.deepEqual([req.from, req.to], [from, to], 'the range asked is the one the drag ended on');
  assert.ok(from < to);
  // A late answer for another range is not drawn; the one asked is.
  await p.post({ type: 'kprofRange', range: kprofRange(d, req.from + 1, req.to) });
  await p.page.click('#summary button:text-is("Region statistics of this range")');
  assert.match((await p.page.textContent('#summaryView .kprof-range'))!, /computing its statistics/);
  const r = kprofRange(d, req.from, req.to);
  await p.post({ type: 'kprofRange', range: r });
  assert.match((await p.page.textContent('#summaryView .kprof-range'))!, new RegExp(`: ${r.regions} region\\(s\\) overlap it`));
  const got = await rows(p, 'range-regions-by-event');
  assert.deepEqual(got.map((x) => [x[0], x[1]]), r.tables[0].rows.map((x) => [x.name, String(x.count)]));
  assert.ok(got.length > 0);
  assert.equal((await rows(p, 'regions-by-event')).length, regionStats(d).length, 'the whole buffer\'s tables stay below');
  assert.deepEqual(p.errors, []);
});
