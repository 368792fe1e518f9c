/**
 * The timeline, end to end in a real VS Code workbench (code-server in Chromium), as a user drives
 * it: open a trace, "NPU Trace: Show Timeline", click an event → the editor selects its line; put the
 * cursor on another line → the timeline selects that event; filter by phase → only its spans remain.
 *
 * Written against playwright-core only, so it plugs into the end-to-end harness as one more UI
 * journey: call `timelineJourney(page, file, say)` with a workbench page whose workspace holds
 * `file` (a copy of test/fixtures/timeline/llama-layer.trace.jsonl). Every wait is for a state,
 * never a fixed delay; each step fails with what it saw.
 */
import type { Frame, Page } from 'playwright-core';

const STEP_MS = 60_000;

interface PageTimeline {
  __timeline: {
    perf: { firstPaint: number };
    state(): {
      selected: number;
      scrollY: number;
      viewport: { width: number; x(t: number): number };
      bands: { kind: string; rowFrom: number; rowTo: number; y: number; h: number }[];
      index: { rowOfItem: ArrayLike<number>; attr(i: number, a: number): string };
      model: { items: { start: Float64Array; end: Float64Array; id: Float64Array; kind: Uint8Array } };
      passes(i: number): boolean;
    } | undefined;
  };
}

async function palette(page: Page, command: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
  await page.keyboard.type(command);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: command.replace(/^.*: /, '') }).first().waitFor({ timeout: STEP_MS });
  await page.keyboard.press('Enter');
}

/** The webview frame that holds the timeline page (VS Code nests it two iframes deep). */
async function timelineFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) if (await f.locator('#canvas').count().catch(() => 0)) return f;
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error('the timeline webview never appeared');
}

/** Centre of item (kind, id) on the canvas, from the page's own layout. */
function centreOf(frame: Frame, kind: number, id: number): Promise<{ x: number; y: number }> {
  return frame.evaluate(([kind, id]) => {
    const s = (window as unknown as PageTimeline).__timeline.state()!;
    const it = s.model.items;
    let i = -1;
    for (let k = 0; k < it.start.length; k++) if (it.kind[k] === kind && it.id[k] === id) i = k;
    if (i < 0) throw new Error(`no item of kind ${kind} with id ${id}`);
    const row = s.index.rowOfItem[i];
    const band = s.bands.find((b) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo)!;
    const header = document.getElementById('canvas')!.clientWidth - s.viewport.width;
    return { x: header + s.viewport.x((it.start[i] + it.end[i]) / 2), y: 36 + band.y - s.scrollY + band.h / 2 };
  }, [kind, id] as const);
}

export async function timelineJourney(page: Page, file: string, say: (msg: string) => void): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.keyboard.type(file);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: file }).first().waitFor({ timeout: STEP_MS });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: STEP_MS });

  await palette(page, 'NPU Trace: Show Timeline');
  const frame = await timelineFrame(page);
  await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
  say('timeline painted');

  // Click TE job 1001 (TE_START on line 10): the editor selects line 10.
  const te = await centreOf(frame, 2, 1001);
  await frame.locator('#canvas').click({ position: te });
  await page.locator('.tabs-container .tab', { hasText: file }).first().click();
  const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
  await status.filter({ hasText: /Ln 10, Col 1 \(\d+ selected\)/ }).waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`after clicking TE #1001 the editor should select line 10; status bar: ${await status.textContent()}`); });
  say('click → editor selection on line 10');

  // Cursor to line 26 (VE_END of job 1100): the timeline selects that VE span.
  await page.keyboard.press('Control+G');
  await page.keyboard.type('26');
  await page.keyboard.press('Enter');
  await frame.waitForFunction(() => {
    const s = (window as unknown as PageTimeline).__timeline.state()!;
    return s.selected >= 0 && s.model.items.kind[s.selected] === 3 && s.model.items.id[s.selected] === 1100;
  }, undefined, { timeout: STEP_MS }).catch(() => { throw new Error('the cursor on line 26 did not select VE job 1100 in the timeline'); });
  say('cursor → timeline selection');

  // Filter by phase LN1 through the toolbar: only LN1 items stay.
  const filterBy = frame.locator('vscode-dropdown[aria-label="Filter by"]');
  await filterBy.click();
  await frame.locator('vscode-dropdown[aria-label="Filter by"] vscode-option', { hasText: 'filter: phase' }).click();
  const value = frame.locator('vscode-dropdown[aria-label="Filter value"]');
  await value.click();
  await frame.locator('vscode-dropdown[aria-label="Filter value"] vscode-option', { hasText: 'LN1' }).click();
  const phases = await frame.evaluate(() => {
    const s = (window as unknown as PageTimeline).__timeline.state()!;
    const out = new Set<string>();
    for (let i = 0; i < s.model.items.start.length; i++) if (s.passes(i)) out.add(s.index.attr(i, 0));
    return [...out];
  });
  if (phases.length !== 1 || phases[0] !== 'LN1') throw new Error(`after filtering by phase LN1 the drawn phases are ${JSON.stringify(phases)}`);
  say('filter by phase → only LN1 spans');
}
