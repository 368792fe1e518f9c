/**
 * The Summary, end to end in a real VS Code workbench as a user drives it: open the example trace
 * (the status bar shows its TE utilization), "NPU Trace: Show Summary" from the palette, sort the
 * phases by their longest command, click the slowest phase → the timeline filters by it and zooms
 * to it; Shift+drag a range → its tables from the worker; back on the whole file's Summary, Copy as
 * CSV → the clipboard holds exactly the phase table.
 *
 * One of the UI journeys of test/e2e/harness/ui.ts. Every wait is for a state, never a delay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { splitLines } from '../../../core/common/lines';
import { MetricsCollector } from '../../../core/trace/metrics/collector';
import { overallTeUtil } from '../../../protocol/stats';
import { toCsv } from '../../../webview/csv';
import { sortOrder, summaryTables } from '../../../webview/summaryTables';
import { palette, timelineFrame } from './timeline';
import { quickOpen } from './keys';

const STEP_MS = 60_000;

interface PageState {
  __timeline: {
    state(): {
      filter: { attr: number; value: string } | undefined;
      viewport: { start: number; end: number };
      model: { items: { start: Float64Array; end: Float64Array } };
      index: { attr(i: number, a: number): string };
      range: [number, number] | undefined;
    } | undefined;
  };
}


/** `file`: a trace of the workspace (examples/llm-layer.trace.jsonl). `shoot` saves the Summary's screenshot. */
export async function summaryJourney(page: Page, workspace: string, file: string, say: (msg: string) => void, shoot: () => Promise<unknown>): Promise<void> {
  // What `npu-trace stats` computes for the file: the numbers the Summary must show.
  const collector = new MetricsCollector();
  for (const l of splitLines(readFileSync(join(workspace, file), 'utf8'))) collector.addLine(l);
  const stats = collector.finish();
  const phases = summaryTables(stats).find((t) => t.id === 'phases')!;
  const byMax = sortOrder(phases.rows, 6, -1);
  const slowest = String(phases.rows[byMax[0]][0]);

  await quickOpen(page, file);
  const te = `TE ${(overallTeUtil(stats)! * 100).toFixed(1)}%`;
  await page.locator('.statusbar-item', { hasText: te }).first().waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`the status bar never showed "${te}"; it reads "${await page.locator('.statusbar').textContent()}"`); });
  say(`status bar: ${te}`);

  // Room for the tables beside the editor: the side bar closed (Ctrl+B), as on a laptop screen.
  await page.keyboard.press('Control+B');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: STEP_MS });
  await palette(page, 'NPU Trace: Show Summary');
  const frame = await timelineFrame(page);
  const rows = frame.locator('#summaryView section[data-table="phases"] tbody tr');
  await rows.first().waitFor({ timeout: STEP_MS });
  if ((await rows.count()) !== phases.rows.length) throw new Error(`the Summary lists ${await rows.count()} phases, npu-trace stats ${phases.rows.length}`);
  // Sort by the longest command (the header's first click sorts numbers largest first).
  await frame.locator('#summaryView section[data-table="phases"] th button', { hasText: /^max/ }).click();
  await frame.locator('#summaryView section[data-table="phases"] th[aria-sort="descending"]', { hasText: 'max' }).waitFor({ timeout: STEP_MS });
  const first = (await rows.first().locator('td').first().textContent())?.trim();
  if (first !== slowest) throw new Error(`sorted by max, the first phase is "${first}", expected the slowest, "${slowest}"`);
  say(`Summary shown; sorted by max: ${slowest} first`);
  await shoot();

  // The slowest phase: the timeline comes back filtered by it and zoomed to its span.
  await rows.first().locator('button').first().click();
  await frame.locator('#summaryView').waitFor({ state: 'hidden', timeout: STEP_MS });
  const view = await frame.waitForFunction((phase) => {
    const s = (window as unknown as PageState).__timeline.state();
    if (!s || s.filter?.value !== phase) return false;
    let lo = Infinity, hi = -Infinity;
    const it = s.model.items;
    for (let i = 0; i < it.start.length; i++) if (s.index.attr(i, 0) === phase) { lo = Math.min(lo, it.start[i]); hi = Math.max(hi, it.end[i]); }
    return { lo, hi, start: s.viewport.start, end: s.viewport.end };
  }, slowest, { timeout: STEP_MS }).then((h) => h.jsonValue() as Promise<{ lo: number; hi: number; start: number; end: number }>)
    .catch(() => { throw new Error(`clicking ${slowest} did not filter the timeline by it`); });
  if (!(view.start <= view.lo && view.end >= view.hi && view.end - view.start < (view.hi - view.lo) * 1.1)) {
    throw new Error(`the view ${view.start}..${view.end} is not zoomed to ${slowest} (${view.lo}..${view.hi})`);
  }
  say(`click ${slowest} → filtered and zoomed to cycles ${view.lo}..${view.hi}`);

  // Shift+drag a range: its tables come from the worker, as `npu-trace stats --from/--to` computes them.
  const box = (await frame.locator('#canvas').boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const range = await frame.evaluate(() => (window as unknown as PageState).__timeline.state()!.range);
  if (!range) throw new Error('Shift+drag selected no range');
  await frame.locator('#summary button', { hasText: 'Summary tables of this range' }).click({ timeout: STEP_MS });
  await frame.locator('#summaryView h2', { hasText: 'Summary of cycles' }).waitFor({ timeout: STEP_MS });
  const windowed = new MetricsCollector({ from: range[0], to: range[1] });
  for (const l of splitLines(readFileSync(join(workspace, file), 'utf8'))) windowed.addLine(l);
  // Still sorted by max (the sort is kept per table): compared as sets of "phase commands".
  const wantPhases = windowed.finish().phases.map((p) => `${p.phase} ${p.commands}`).sort();
  const gotPhases = (await rows.evaluateAll((trs) => trs.map((tr) => `${tr.children[0].textContent} ${tr.children[2].textContent}`))).sort();
  if (gotPhases.join() !== wantPhases.join()) throw new Error(`the range's phases read ${gotPhases.join()}; npu-trace stats --from ${range[0]} --to ${range[1]}: ${wantPhases.join()}`);
  say(`Shift+drag cycles ${Math.round(range[0])}..${Math.round(range[1])} → its tables from the worker (${gotPhases.length} phases, as npu-trace stats --from/--to)`);
  await frame.locator('#summaryView button', { hasText: 'Whole file' }).click();

  // Copy as CSV of the phase table, through the host's clipboard.
  await frame.locator('#summaryView h2', { hasText: /^Summary$/ }).waitFor({ timeout: STEP_MS });
  await frame.locator('#summaryView section[data-table="phases"] button', { hasText: 'Copy as CSV' }).click();
  const want = toCsv(phases.columns.map((c) => c.label), byMax.map((i) => phases.rows[i]));
  // Polled in the page: the clipboard has no event to await.
  await page.waitForFunction(async (want) => (await navigator.clipboard.readText().catch(() => '')) === want, want, { timeout: STEP_MS, polling: 200 })
    .catch(async () => {
      const got = await page.evaluate(() => navigator.clipboard.readText()).catch((e: unknown) => `(clipboard not readable: ${String(e)})`);
      throw new Error(`the clipboard holds ${JSON.stringify(got.slice(0, 300))}, expected ${JSON.stringify(want.slice(0, 300))}`);
    });
  say(`Copy as CSV → ${want.split('\r\n').length - 2} phase rows on the clipboard, as npu-trace stats computes them`);
}
