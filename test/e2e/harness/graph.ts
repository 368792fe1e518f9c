/**
 * The CMDQ dependency graph (issue #18), end to end in the real VS Code: open the golden queue,
 * "CMDQ: Show Dependency Graph" from the palette, the critical path is drawn in red (read back from
 * the canvas's pixels), a click on a node selects its entry in the editor (the status bar's line and
 * selection length), and the cursor on another entry selects that node in the graph. The page's
 * `__graph` hook gives its state and view, so the test clicks where the page drew a node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { CRITICAL_COLOR } from '../../../core/cmdq/graph/palette';
import { COL_W, NODE_H, NODE_W, ROW_H } from '../../../webview/graph/layout';
import { goToLine, quickOpen, STEP_MS } from './keys';
import { palette } from './timeline';
import type { UiContext } from './ui';

interface PageGraph {
  __graph: {
    state(): { selected: number; model: { n: number; criticalPath: number[] }; layout: { col: Int32Array; row: Int32Array } } | undefined;
    view(): { scale: number; ox: number; oy: number; mode: string };
  };
}

/** The webview frame of the graph page of `name` (VS Code nests it two iframes deep). */
async function graphFrame(page: Page, name: string): Promise<Frame> {
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      if (!(await f.locator('#canvas').count().catch(() => 0))) continue;
      if ((await f.title().catch(() => '')) === `Graph: ${name}`) return f;
    }
    await page.waitForEvent('frameattached', { timeout: 1000 }).catch(() => undefined);
  }
  throw new Error(`no graph page for ${name} appeared`);
}

/** Where node `i` is drawn on the canvas: its box in CSS pixels. */
function nodeBox(frame: Frame, i: number): Promise<{ x: number; y: number; w: number; h: number }> {
  return frame.evaluate(([i, COL_W, ROW_H, NODE_W, NODE_H]) => {
    const g = (window as unknown as PageGraph).__graph;
    const s = g.state()!;
    const v = g.view();
    return { x: v.ox + s.layout.col[i] * COL_W * v.scale, y: v.oy + s.layout.row[i] * ROW_H * v.scale, w: NODE_W * v.scale, h: NODE_H * v.scale };
  }, [i, COL_W, ROW_H, NODE_W, NODE_H] as const);
}

/** How many pixels of the canvas inside `box` (grown by 3 px) have `color` (#rrggbb), within a small tolerance. */
function pixelsOf(frame: Frame, box: { x: number; y: number; w: number; h: number }, color: string): Promise<number> {
  return frame.evaluate(([b, color]) => {
    const canvas = document.getElementById('canvas') as HTMLCanvasElement;
    const dpr = canvas.width / canvas.clientWidth;
    const x0 = Math.max(0, Math.floor((b.x - 3) * dpr)), y0 = Math.max(0, Math.floor((b.y - 3) * dpr));
    const w = Math.min(canvas.width - x0, Math.ceil((b.w + 6) * dpr)), h = Math.min(canvas.height - y0, Math.ceil((b.h + 6) * dpr));
    const data = canvas.getContext('2d')!.getImageData(x0, y0, w, h).data;
    const want = [1, 3, 5].map((k) => parseInt(color.slice(k, k + 2), 16));
    let n = 0;
    for (let p = 0; p < data.length; p += 4) if (want.every((c, k) => Math.abs(data[p + k] - c) <= 8)) n++;
    return n;
  }, [box, color] as const);
}

/** `examples/golden.cmdq.json`: one entry per line; the 1-based line of each entry and its text's length. */
function entryLines(file: string): { line: number; length: number }[] {
  const out: { line: number; length: number }[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((l, k) => {
    if (l.trimStart().startsWith('{ "opcode"')) out.push({ line: k + 1, length: l.lastIndexOf('}') + 1 - l.indexOf('{') });
  });
  return out;
}

export async function graphJourney(page: Page, ctx: UiContext, file: string): Promise<void> {
  const say = (m: string) => ctx.say(`    ${m}`);
  const entries = entryLines(join(ctx.workspace, file));
  await quickOpen(page, file);
  await page.locator('[id="status.editor.mode"]', { hasText: 'CMDQ' }).waitFor({ timeout: STEP_MS });
  const t0 = Date.now();
  await palette(page, 'CMDQ: Show Dependency Graph');
  const frame = await graphFrame(page, file);
  await frame.waitForFunction((n) => (window as unknown as PageGraph).__graph?.state()?.model.n === n, entries.length, { timeout: STEP_MS })
    .catch(() => { throw new Error(`the graph page never held the ${entries.length} entries of ${file}`); });
  const summary = (await frame.locator('#summary').textContent()) ?? '';
  if (!new RegExp(`^${file.replace(/\./g, '\\.')}: ${entries.length} entries · critical path \\d+ cycles`).test(summary)) throw new Error(`the graph's summary reads "${summary}"`);
  const path = await frame.evaluate(() => (window as unknown as PageGraph).__graph.state()!.model.criticalPath);
  if (path.length < 2) throw new Error(`the critical path has ${path.length} entries`);
  say(`graph drawn in ${Date.now() - t0} ms: ${summary}`);

  // The critical path on screen: every node on it outlined in red, a node off it not.
  const off = Array.from({ length: entries.length }, (_, i) => i).find((i) => !path.includes(i));
  await frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
  for (const i of path) {
    const red = await pixelsOf(frame, await nodeBox(frame, i), CRITICAL_COLOR);
    if (red < 40) throw new Error(`entry ${i} is on the critical path ${JSON.stringify(path)} but its node has ${red} red pixels`);
  }
  if (off !== undefined) {
    const box = await nodeBox(frame, off);
    // Only its own box: edges of the path may pass its corner.
    const red = await pixelsOf(frame, { x: box.x + 4, y: box.y + 4, w: box.w - 8, h: box.h - 8 }, CRITICAL_COLOR);
    if (red > 0) throw new Error(`entry ${off} is off the critical path but its node has ${red} red pixels`);
  }
  say(`critical path ${path.join(' → ')} outlined in red${off !== undefined ? `, entry ${off} not` : ''}`);

  // Click a node of the path: the editor selects its entry (the whole object, on its line).
  const target = path[Math.floor(path.length / 2)];
  const box = await nodeBox(frame, target);
  await frame.locator('#canvas').click({ position: { x: box.x + box.w / 2, y: box.y + box.h / 2 } });
  const status = page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first();
  const want = new RegExp(`Ln ${entries[target].line}, Col \\d+ \\(${entries[target].length} selected\\)`);
  await status.filter({ hasText: want }).waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`after clicking the node of entry ${target} the status bar reads "${await status.textContent()}", not ${want}`); });
  await frame.waitForFunction((i) => (window as unknown as PageGraph).__graph.state()!.selected === i, target, { timeout: STEP_MS });
  say(`click on entry ${target}'s node → its ${entries[target].length} characters selected on line ${entries[target].line}`);

  // The cursor onto another entry (the editor has the focus after the click): its node is selected.
  const other = off ?? (target === 0 ? 1 : 0);
  await goToLine(page, entries[other].line);
  await frame.waitForFunction((i) => (window as unknown as PageGraph).__graph.state()!.selected === i, other, { timeout: STEP_MS })
    .catch(async () => { throw new Error(`the cursor on line ${entries[other].line} did not select entry ${other}; the page shows "${await frame.locator('#selection').textContent()}"`); });
  await frame.locator('#selection', { hasText: `Entry ${other} ` }).waitFor({ timeout: STEP_MS });
  await frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
  const white = await pixelsOf(frame, await nodeBox(frame, other), '#ffffff');
  if (white < 40) throw new Error(`entry ${other} is selected but its node has ${white} white outline pixels`);
  say(`cursor on line ${entries[other].line} → entry ${other}'s node selected (outlined in white)`);
}
