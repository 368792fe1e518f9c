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
import { revealItem, type Revealed } from './reveal';
import { quickOpen } from './keys';

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

/** Runs `command` from the palette; `beforeEnter` is called as it is listed, just before Enter (a bench's start). */
export async function palette(page: Page, command: string, beforeEnter?: () => void): Promise<void> {
  // The palette lists the commands whose `when` held as it opened: right after a file opens, the
  // editor's language or custom editor may not be in the context yet, and the list stays without
  // the command (seen once on a loaded machine). So it is closed and opened again until it lists it.
  for (let round = 1; ; round++) {
    await openPalette(page, command);
    await page.keyboard.type(command);
    const listed = await page.locator('.quick-input-widget .monaco-list-row', { hasText: command.replace(/^.*: /, '') }).first()
      .waitFor({ timeout: round < 3 ? 10_000 : STEP_MS }).then(() => true, () => false);
    if (listed) break;
    if (round === 3) throw new Error(`the command palette never listed "${command}"`);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_MS });
  }
  beforeEnter?.();
  await page.keyboard.press('Enter');
}

async function openPalette(page: Page, command: string): Promise<void> {
  // Right after a Quick Open the closing widget can still be on screen, and a Ctrl+Shift+P pressed
  // while the editor takes the focus back is lost, so the command's name would be typed into the
  // file: type only once the palette's own input ('>…') has the focus, pressing again if it never came.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+Shift+P');
    const open = await page.waitForFunction(() => {
      const input = document.querySelector<HTMLInputElement>('.quick-input-widget input');
      return !!input && document.activeElement === input && input.value.startsWith('>');
    }, undefined, { timeout: attempt < 3 ? 5_000 : STEP_MS }).then(() => true, () => false);
    if (open) return;
    if (attempt === 3) throw new Error(`the command palette did not open for "${command}"`);
  }
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

/** An item of `kind` that has both a START and an END line, in view at a readable zoom. */
function showItem(frame: Frame, kind: number, nth: number): Promise<Revealed> {
  return revealItem(frame, { kind, complete: true, nth, pad: 4 });
}

/**
 * `file` must be a trace of the workspace with TE and VE spans and events of `phase`
 * (examples/llm-layer.trace.jsonl and LN1).
 */
export async function timelineJourney(page: Page, file: string, phase: string, say: (msg: string) => void): Promise<void> {
  await quickOpen(page, file);
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
