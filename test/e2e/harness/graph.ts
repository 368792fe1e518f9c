/**
 * The CMDQ dependency graph (issue #18), end to end in the real VS Code: open the golden queue,
 * "CMDQ: Show Dependency Graph" from the palette, the critical path is drawn in red (read back from
 * the canvas's pixels), a click on a node selects its entry in the editor (the status bar's line and
 * selection length), and the cursor on another entry selects that node in the graph. The page's
 * `__graph` hook gives its state and view, so the test clicks where the page drew a node.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { CRITICAL_COLOR } from '../../../core/cmdq/graph/palette';
import { AXIS_H, LABEL_W } from '../../../webview/graph/state';
import { goToLine, quickOpen, STEP_MS } from './keys';
import { palette } from './timeline';
import type { UiContext } from './ui';

interface PageGraph {
  __graph: {
    state(): { selected: number; model: { n: number; criticalPath: number[] }; layout: { col: Int32Array; row: Int32Array } } | undefined;
    view(): { scale: number; ox: number; oy: number; mode: string; orient: string };
    box(i: number): { x: number; y: number; w: number; h: number };
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

/** Where node `i` is drawn on the canvas: its box in CSS pixels (the page says, whichever way its levels run). */
function nodeBox(frame: Frame, i: number): Promise<{ x: number; y: number; w: number; h: number }> {
  return frame.evaluate((i) => (window as unknown as PageGraph).__graph.box(i), i);
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
  // The host reveals the entry with the focus in the editor, but under load the webview's own focus
  // (from the click) can reach the workbench after it: the graph's tab is then the active one and
  // VS Code shows no cursor item. What is tested is the selection, so the file's tab is clicked
  // (which focuses the editor and keeps its selection) until the status bar reads it.
  const fileTab = page.locator('.tabs-container .tab', { hasText: file, hasNotText: 'Graph:' }).first();
  const deadline = Date.now() + STEP_MS;
  while (!(await status.filter({ hasText: want }).waitFor({ timeout: 1500 }).then(() => true, () => false))) {
    if (Date.now() > deadline) throw new Error(`after clicking the node of entry ${target} the status bar reads "${await status.textContent().catch(() => '(no cursor item)')}", not ${want}`);
    await fileTab.click();
  }
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

/** How many pixels of the canvas inside `box` differ from the colour of its top-left pixel (the background). */
function inkIn(frame: Frame, box: { x: number; y: number; w: number; h: number }): Promise<number> {
  return frame.evaluate((b) => {
    const canvas = document.getElementById('canvas') as HTMLCanvasElement;
    const dpr = canvas.width / canvas.clientWidth;
    const x0 = Math.floor(b.x * dpr), y0 = Math.floor(b.y * dpr);
    const w = Math.min(canvas.width - x0, Math.ceil(b.w * dpr)), h = Math.min(canvas.height - y0, Math.ceil(b.h * dpr));
    const data = canvas.getContext('2d')!.getImageData(x0, y0, w, h).data;
    let n = 0;
    for (let p = 4; p < data.length; p += 4) if (Math.abs(data[p] - data[0]) + Math.abs(data[p + 1] - data[1]) + Math.abs(data[p + 2] - data[2]) > 60) n++;
    return n;
  }, box);
}

/**
 * Issue #30 item 15: a CMDQ file has code lenses only above the entries the graph branches at (not
 * "1 dependent" on every entry); the graph of a small queue fills its panel at readable size,
 * centred; the Schedule view has a time axis in cycles over its rows.
 */
export async function cmdqViewsJourney(page: Page, ctx: UiContext): Promise<void> {
  const say = (m: string) => ctx.say(`    ${m}`);
  // The golden queue with its store waiting for the GEMM too: the GEMM (entry 2) now has two dependents.
  const text = readFileSync(join(ctx.workspace, 'golden.cmdq.json'), 'utf8').replace('"id": 4, "layer_id": "ffn_0",    "deps_before": [3]', '"id": 4, "layer_id": "ffn_0",    "deps_before": [2, 3]');
  if (!text.includes('[2, 3]')) throw new Error('golden.cmdq.json changed: the journey could not make entry 2 branch');
  writeFileSync(join(ctx.workspace, 'branch.cmdq.json'), text);
  await quickOpen(page, 'branch.cmdq.json');
  await page.locator('[id="status.editor.mode"]', { hasText: 'CMDQ' }).waitFor({ timeout: STEP_MS });
  const lens = page.locator('.monaco-editor .codelens-decoration');
  await lens.filter({ hasText: /2 dependents · depth \d+/ }).first().waitFor({ timeout: STEP_MS })
    .catch(async () => { throw new Error(`no "2 dependents" lens above the GEMM; the lenses read ${JSON.stringify(await lens.allTextContents())}`); });
  const lenses = (await lens.allTextContents()).map((t) => t.trim()).filter(Boolean);
  if (lenses.length !== 1) throw new Error(`one entry branches, but the editor shows ${lenses.length} lenses: ${JSON.stringify(lenses)}`);
  const lensBox = await lens.first().boundingBox();
  const gemm = await page.locator('.monaco-editor .view-line', { hasText: '"TE_GEMM_TILE"' }).first().boundingBox();
  if (!lensBox || !gemm || lensBox.y > gemm.y || gemm.y - lensBox.y > 3 * gemm.height) throw new Error('the lens is not right above the GEMM entry');
  say(`one lens, above the GEMM: "${lenses[0]}"`);

  await palette(page, 'CMDQ: Show Dependency Graph');
  const frame = await graphFrame(page, 'branch.cmdq.json');
  await frame.waitForFunction(() => (window as unknown as PageGraph).__graph?.state()?.model.n === 6, undefined, { timeout: STEP_MS });
  // Readable: the six nodes at least their nominal size, all in view, the drawing centred in the canvas.
  const fit = await frame.evaluate(() => {
    const g = (window as unknown as PageGraph).__graph;
    const canvas = document.getElementById('canvas') as HTMLCanvasElement;
    const boxes = Array.from({ length: 6 }, (_, i) => g.box(i));
    const left = Math.min(...boxes.map((b) => b.x)), right = canvas.clientWidth - Math.max(...boxes.map((b) => b.x + b.w));
    const top = Math.min(...boxes.map((b) => b.y)), bottom = canvas.clientHeight - Math.max(...boxes.map((b) => b.y + b.h));
    return { scale: g.view().scale, orient: g.view().orient, left, right, top, bottom, width: canvas.clientWidth, height: canvas.clientHeight };
  });
  if (fit.scale < 1) throw new Error(`the graph of 6 entries is drawn at ${fit.scale.toFixed(2)}× its nodes' size in a ${fit.width}×${fit.height} px panel`);
  if (Math.min(fit.left, fit.right, fit.top, fit.bottom) < 0) throw new Error(`part of the graph is out of view: ${JSON.stringify(fit)}`);
  if (Math.abs(fit.left - fit.right) > Math.max(60, fit.width * 0.2)) throw new Error(`the graph is not centred: ${fit.left.toFixed(0)} px left of it, ${fit.right.toFixed(0)} px right`);
  await frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
  const box = await nodeBox(frame, 2);
  if (await inkIn(frame, { x: box.x + 4, y: box.y + 4, w: box.w - 8, h: box.h - 8 }) < 20) throw new Error('the GEMM node has no text drawn in it');
  say(`graph ${fit.orient === 'tb' ? 'top to bottom' : 'left to right'} at ${fit.scale.toFixed(2)}× nominal size in ${fit.width}×${fit.height} px, ${fit.left.toFixed(0)} / ${fit.right.toFixed(0)} px either side`);
  await ctx.shoot(page, 'cmdq-graph-fit');

  // The Schedule view: a time axis over the rows, its labels drawn in the band above the bars.
  await frame.locator('#mode').click();
  await frame.waitForFunction(() => (window as unknown as PageGraph).__graph.view().mode === 'schedule', undefined, { timeout: STEP_MS });
  await frame.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
  const v = await frame.evaluate(() => (window as unknown as PageGraph).__graph.view());
  if (v.oy < AXIS_H) throw new Error(`the schedule's rows start at ${v.oy} px, under the ${AXIS_H} px time axis`);
  const width = await frame.evaluate(() => (document.getElementById('canvas') as HTMLCanvasElement).clientWidth);
  const axisInk = await inkIn(frame, { x: LABEL_W + 1, y: 0, w: width - LABEL_W - 2, h: AXIS_H - 1 });
  const labelInk = await inkIn(frame, { x: 2, y: 2, w: LABEL_W - 4, h: AXIS_H - 4 });
  if (axisInk < 30 || labelInk < 10) throw new Error(`the schedule has no time axis: ${axisInk} px of ticks and labels, ${labelInk} px of its unit`);
  say(`schedule: time axis drawn (${axisInk} px of ticks and labels, "cycles" at its left)`);
  await ctx.shoot(page, 'cmdq-schedule-axis');
}
