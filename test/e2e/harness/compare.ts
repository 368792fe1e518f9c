/**
 * Compare two runs, end to end in a real VS Code workbench as a user drives it: two generated NPU
 * traces in the workspace (test/gen/genTrace.ts, the pair of test/unit/diff/trace.test.ts: 600
 * commands each, the MLP phase 1.5× slower in the second) → "NPU Trace: Compare with…" from the
 * palette, the second run picked in the quick pick → the Diff view lists phase MLP first, as a
 * reported (significant) regression → a click on it → both timelines in one panel, MLP's items
 * highlighted in both, aligned at MLP's first command in each, and panning one moves the other →
 * Align at layer 1 (picked with the keyboard, as the list is reached with M) → both views move to
 * it, the marker at one x in both.
 *
 * One of the UI journeys of test/e2e/harness/ui.ts. Every wait is for a state, never a delay.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { PLANTED_PAIR, traceText } from '../../gen/genTrace';
import { quickOpen, STEP_MS } from './keys';
import { palette } from './timeline';

interface ComparePage {
  __compare: {
    sides(): { state: { viewport: { start: number; end: number }; model: { items: { start: Float64Array } } } | undefined; t0: number; marked: number }[];
    markers(): { pairs: { name: string; a: number | null; b: number | null }[]; aligned: number };
  };
}

/** The webview frame holding `selector` (VS Code nests a webview two iframes deep). */
async function frameWith(page: Page, selector: string, what: string): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) if (await f.locator(selector).count().catch(() => 0)) return f;
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error(`${what} never appeared`);
}

/** Both views relative to their run's start: [start, end] of A and of B. */
function views(frame: Frame): Promise<number[][]> {
  return frame.evaluate(() => (window as unknown as ComparePage).__compare.sides().map((s) => [s.state!.viewport.start - s.t0, s.state!.viewport.end - s.t0]));
}

/**
 * Two runs of one build in the workspace, `base.trace.jsonl` and `slower.trace.jsonl` (600 commands,
 * phase MLP 1.5× slower in the second), 20 MB each: the comparison journeys' pair.
 */
export function writeRunPair(workspace: string): void {
  writeFileSync(join(workspace, 'base.trace.jsonl'), traceText(PLANTED_PAIR.base));
  writeFileSync(join(workspace, 'slower.trace.jsonl'), traceText(PLANTED_PAIR.slower));
}

export const compareJourneys = [
  {
    name: 'Compare with…: two runs of one build but a slower phase → the Diff view lists it first as significant → a click shows both timelines locked together, aligned at the phase, then at layer 1',
    async run(page: Page, ctx: { workspace: string; say: (msg: string) => void; shoot: (page: Page, name: string) => Promise<string> }) {
      writeRunPair(ctx.workspace);
      // 20 MB each: VS Code shows "too large" instead of the text; the command takes the tab's file.
      await quickOpen(page, 'base.trace.jsonl');

      await palette(page, 'NPU Trace: Compare with');
      const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'slower.trace.jsonl' }).first();
      await pick.waitFor({ timeout: STEP_MS });
      // Other runs of the format only: the CMDQ and InferScope examples are not offered.
      const offered = await page.locator('.quick-input-widget .monaco-list-row').allTextContents();
      if (offered.some((t) => /\.cmdq\.json|inferscope/.test(t))) throw new Error(`the quick pick offers files of other formats: ${offered.join(' | ')}`);
      await page.keyboard.type('slower.trace');
      await page.keyboard.press('Enter');
      ctx.say('Compare with… → slower.trace.jsonl picked');

      const diff = await frameWith(page, '#groups', 'the Diff view');
      const first = diff.locator('#groups tbody tr').first();
      await first.waitFor({ timeout: STEP_MS });
      const cells = await first.locator('td').allTextContents();
      if (cells[0] !== 'phase' || cells[1] !== 'MLP' || !/^yes \(reported\)$/.test(cells.at(-1) ?? '')) throw new Error(`the Diff view's first row is ${JSON.stringify(cells)}`);
      const reportedPhases = await diff.locator('#groups tbody tr', { hasText: 'yes (reported)' }).evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent)).filter((c) => c[0] === 'phase').map((c) => c[1]));
      if (reportedPhases.join() !== 'MLP') throw new Error(`reported phases: ${reportedPhases.join(', ')}`);
      ctx.say(`Diff view: first row ${cells.slice(0, 2).join(' ')}, Δ total ${cells[14]} (${cells[15]}), p ${cells[17]}`);
      await ctx.shoot(page, 'compare-diff-view');

      await first.click();
      const tl = await frameWith(page, '#canvasA', 'the Compare Timelines panel');
      await tl.waitForFunction(() => {
        const s = (window as unknown as ComparePage).__compare?.sides();
        return !!s && s.every((x) => x.state && x.marked > 0);
      }, undefined, { timeout: STEP_MS });
      const marked = await tl.evaluate(() => (window as unknown as ComparePage).__compare.sides().map((s) => s.marked));
      ctx.say(`both timelines drawn, MLP items highlighted: ${marked.join(' and ')}`);

      // Zoom in on A (wheel), then pan A (drag): B follows, relative to its own start.
      const box = (await tl.locator('#canvasA').boundingBox())!;
      const at = { x: box.x + box.width * 0.6, y: box.y + box.height * 0.6 };
      const fitted = await views(tl);
      await page.mouse.move(at.x, at.y);
      for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
      await tl.waitForFunction((span) => {
        const [a] = (window as unknown as ComparePage).__compare.sides();
        return a.state!.viewport.end - a.state!.viewport.start < span / 2;
      }, fitted[0][1] - fitted[0][0], { timeout: STEP_MS });
      const before = await views(tl);
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await page.mouse.move(at.x - 150, at.y, { steps: 5 });
      await page.mouse.up();
      await tl.waitForFunction((b) => {
        const [a] = (window as unknown as ComparePage).__compare.sides();
        return Math.abs(a.state!.viewport.start - a.t0 - b) > 1e-6;
      }, before[0][0], { timeout: STEP_MS });
      const after = await views(tl);
      const same = (x: number, y: number) => Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x));
      if (!(same(after[0][0], after[1][0]) && same(after[0][1], after[1][1]))) throw new Error(`after panning A the views differ: A ${after[0].join('–')}, B ${after[1].join('–')}`);
      if (same(after[1][0], before[1][0])) throw new Error(`B did not move when A was panned: ${before[1].join('–')} → ${after[1].join('–')}`);
      ctx.say(`pan A → B moved with it: ${before[1].map(Math.round).join('–')} → ${after[1].map(Math.round).join('–')} from its marker`);

      // The click on phase MLP aligned both runs at its first command, and the line above says so.
      const m0 = await tl.evaluate(() => (window as unknown as ComparePage).__compare.markers());
      if (m0.pairs[m0.aligned]?.name !== 'phase MLP') throw new Error(`aligned at ${m0.pairs[m0.aligned]?.name ?? 'the starts'}, not phase MLP`);
      const info = await tl.locator('#info').textContent();
      if (!/aligned at phase MLP, where this group starts in each run/.test(info ?? '')) throw new Error(`the line above the views says: ${info}`);
      // Align at layer 1: M on a view reaches the list (the keyboard way in), then layer 1 is picked in it.
      const absolute = () => tl.evaluate(() => (window as unknown as ComparePage).__compare.sides().map((s) => [s.state!.viewport.start, s.t0]));
      const was = await absolute();
      await tl.locator('#canvasB').focus();
      await page.keyboard.press('m');
      await tl.waitForFunction(() => document.activeElement?.id === 'align', undefined, { timeout: STEP_MS });
      const layer1 = m0.pairs.findIndex((p) => p.name === 'layer 1');
      if (layer1 < 0) throw new Error(`no layer 1 among ${m0.pairs.map((p) => p.name).join(', ')}`);
      await tl.locator('#align').selectOption(String(layer1));
      await tl.waitForFunction((k) => (window as unknown as ComparePage).__compare.markers().aligned === k, layer1, { timeout: STEP_MS });
      const now = await absolute();
      const pair = m0.pairs[layer1];
      if (now[0][1] !== pair.a || now[1][1] !== pair.b) throw new Error(`anchors ${now.map((x) => x[1]).join(', ')} are not layer 1's first commands ${pair.a}, ${pair.b}`);
      if (now[0][0] === was[0][0] || now[1][0] === was[1][0]) throw new Error(`a view did not move: A ${was[0][0]} → ${now[0][0]}, B ${was[1][0]} → ${now[1][0]}`);
      const rel = await views(tl);
      if (!(same(rel[0][0], rel[1][0]) && same(rel[0][1], rel[1][1]))) throw new Error(`aligned at layer 1 the views differ from their markers: A ${rel[0].join('–')}, B ${rel[1].join('–')}`);
      if (!(rel[0][0] <= 0 && 0 <= rel[0][1])) throw new Error(`layer 1 is out of view: ${rel[0].join('–')} from it`);
      ctx.say(`Align at layer 1 → A moved ${Math.round(now[0][0] - was[0][0])}, B ${Math.round(now[1][0] - was[1][0])} cycles; the marker at one x in both`);
      await ctx.shoot(page, 'compare-timelines');
    },
  },
];
