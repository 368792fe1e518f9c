/**
 * The timeline, end to end in a real VS Code workbench (code-server in Chromium), as a user drives
 * it: open a trace, "NPU Trace: Show Timeline", click an event → the editor selects its line; put the
 * cursor on another line → the timeline selects that event; filter by phase → only its spans remain.
 *
 * One of the UI journeys of test/e2e/harness/ui.ts. Every wait is for a state, never a fixed delay;
 * each step fails with what it saw. The page's `__timeline` hook gives the model and the layout,
 * so the test clicks where the page drew an item and checks what it selected.
 */
import type { Frame, Page } from 'playwright-core';

const STEP_MS = 60_000;

interface PageItems {
  start: Float64Array;
  end: Float64Array;
  line: Uint32Array;
  endLine: Uint32Array;
  kind: Uint8Array;
}

interface PageTimeline {
  __timeline: {
    perf: { firstPaint: number };
    redraw(): void;
    state(): {
      selected: number;
      scrollY: number;
      bands: { kind: string; rowFrom: number; rowTo: number; y: number; h: number }[];
      index: { rowOfItem: ArrayLike<number>; attr(i: number, a: number): string };
      model: { items: PageItems & { id: Float64Array } };
      viewport: { width: number; x(t: number): number; set(a: number, b: number, bounds: unknown): void };
      passes(i: number): boolean;
    } | undefined;
  };
}

export async function palette(page: Page, command: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
  await page.keyboard.type(command);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: command.replace(/^.*: /, '') }).first().waitFor({ timeout: STEP_MS });
  await page.keyboard.press('Enter');
}

/** The webview frame that holds the timeline page (VS Code nests it two iframes deep). */
export async function timelineFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) if (await f.locator('#canvas').count().catch(() => 0)) return f;
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error('the timeline webview never appeared');
}

/**
 * Picks an item of `kind` that has both a START and an END line, brings it into view at a readable
 * zoom, and returns its index, START line (0-based) and centre on the canvas.
 */
function showItem(frame: Frame, kind: number, nth: number): Promise<{ i: number; line: number; x: number; y: number }> {
  return frame.evaluate(async ([kind, nth]) => {
    const tl = (window as unknown as PageTimeline).__timeline;
    const s = tl.state()!;
    const it = s.model.items;
    let i = -1;
    for (let k = 0, seen = 0; k < it.start.length && i < 0; k++) if (it.kind[k] === kind && it.endLine[k] !== 0xffffffff && seen++ === nth) i = k;
    if (i < 0) throw new Error(`the example has no complete item of kind ${kind}`);
    const pad = Math.max(4, it.end[i] - it.start[i]);
    s.viewport.set(it.start[i] - pad, it.end[i] + pad, s.model);
    tl.redraw();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const row = s.index.rowOfItem[i];
    const band = s.bands.find((b) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo)!;
    s.scrollY = Math.max(0, band.y - 100);
    tl.redraw();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const header = document.getElementById('canvas')!.clientWidth - s.viewport.width;
    return { i, line: it.line[i], x: header + s.viewport.x((it.start[i] + it.end[i]) / 2), y: 36 + band.y - s.scrollY + band.h / 2 };
  }, [kind, nth] as const);
}

/**
 * `file` must be a trace of the workspace with TE and VE spans and events of `phase`
 * (examples/llm-layer.trace.jsonl and LN1).
 */
export async function timelineJourney(page: Page, file: string, phase: string, say: (msg: string) => void): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.keyboard.type(file);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: file }).first().waitFor({ timeout: STEP_MS });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: STEP_MS });
  await page.locator('[id="status.editor.mode"]', { hasText: 'NPU Trace' }).waitFor({ timeout: STEP_MS });

  await palette(page, 'NPU Trace: Show Timeline');
  const frame = await timelineFrame(page);
  await frame.waitForFunction(() => ((window as unknown as PageTimeline).__timeline?.perf.firstPaint ?? 0) > 0, undefined, { timeout: STEP_MS });
  say('timeline painted');

  // Click a VE span: the editor selects its START line, cursor at the line's start.
  const ve = await showItem(frame, 3, 0);
  await frame.locator('#canvas').click({ position: { x: ve.x, y: ve.y } });
  await page.locator('.tabs-container .tab', { hasText: file }).first().click();
  const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
  const want = new RegExp(`Ln ${ve.line + 1}, Col 1 \\(\\d+ selected\\)`);
  await status.filter({ hasText: want }).waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`after clicking the VE span of line ${ve.line + 1} the status bar reads "${await status.textContent()}"`); });
  say(`click → editor selection on line ${ve.line + 1}`);

  // Cursor to the START line of a TE span: the timeline selects that span.
  const te = await showItem(frame, 2, 3);
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: STEP_MS });
  await page.keyboard.type(String(te.line + 1));
  await page.keyboard.press('Enter');
  await frame.waitForFunction((i) => (window as unknown as PageTimeline).__timeline.state()!.selected === i, te.i, { timeout: STEP_MS })
    .catch(() => { throw new Error(`the cursor on line ${te.line + 1} did not select its TE span in the timeline`); });
  say(`cursor on line ${te.line + 1} → its TE span selected`);

  // Filter by phase through the toolbar's dropdowns: only that phase stays drawn.
  await frame.locator('vscode-dropdown[aria-label="Filter by"]').click();
  await frame.locator('vscode-dropdown[aria-label="Filter by"] vscode-option', { hasText: 'filter: phase' }).click();
  await frame.locator('vscode-dropdown[aria-label="Filter value"]').click();
  await frame.locator('vscode-dropdown[aria-label="Filter value"] vscode-option', { hasText: new RegExp(`^\\s*${phase}\\s*$`) }).click();
  const drawn = await frame.evaluate(() => {
    const s = (window as unknown as PageTimeline).__timeline.state()!;
    const out: Record<string, number> = {};
    for (let i = 0; i < s.model.items.start.length; i++) if (s.passes(i)) out[s.index.attr(i, 0)] = (out[s.index.attr(i, 0)] ?? 0) + 1;
    return out;
  });
  if (Object.keys(drawn).join() !== phase) throw new Error(`after filtering by phase ${phase} the drawn items by phase are ${JSON.stringify(drawn)}`);
  say(`filter by phase → only ${drawn[phase]} ${phase} items drawn`);
}
