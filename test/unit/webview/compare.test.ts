/**
 * The built pages of Compare with… (dist/webview/diff.js and compare.js, the exact HTML the panels
 * serve) in headless Chromium: the Diff view fed a comparison with hostile names, and Compare
 * Timelines fed two runs' models, driven with the mouse as a user would.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compareTimelinesPage, diffPage } from '../../../client/diff/html';
import { buildTimeline } from '../../../core/detectFormat';
import type { DiffRun } from '../../../core/diff/types';
import { chromeDiff } from '../../../core/chrome/diff';
import { traceDiff } from '../../../core/trace/diff';
import type { CompareHostMessage, DiffHostMessage } from '../../../protocol/diff';
import { traceLines } from '../../gen/genTrace';
import { kinetoEagerTrace } from '../../gen/kinetoGen';
import { encode, launchChromium, UI_WAIT_MS } from '../../webview/page';
import { compare, runOfLines } from '../diff/helpers';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
let browser: Browser | undefined;
after(async () => browser?.close());

type Make = typeof diffPage;

async function open(t: { after(fn: () => Promise<void>): void }, make: Make, script: string): Promise<{ page: Page; errors: string[]; post(m: DiffHostMessage | CompareHostMessage): Promise<void>; sent(): Promise<{ type: string }[]> }> {
  assert.ok(existsSync(join(ROOT, 'dist/webview', script)), `dist/webview/${script} is missing: run \`npm run build\` first`);
  browser ??= await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 700 } });
  context.setDefaultTimeout(UI_WAIT_MS);
  t.after(() => context.close());
  const page = await context.newPage();
  const dir = mkdtempSync(join(tmpdir(), 'compare-page-'));
  const html = make({ cspSource: 'file:', nonce: 'testnonce123', title: 'test', scriptUri: pathToFileURL(join(ROOT, 'dist/webview', script)).href });
  writeFileSync(join(dir, 'index.html'), html.replace('<body>', '<body style="--vscode-editor-background:#1e1e1e;--vscode-editor-foreground:#cccccc;--vscode-descriptionForeground:#999999;--vscode-charts-green:#89d185;--vscode-charts-blue:#3794ff;--vscode-charts-red:#f14c4c">'));
  const errors: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('willReadFrequently')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  // The decoder of test/webview/page.ts's encode (typed arrays as base64), as a string: tsx leaves it alone.
  await page.addInitScript(`
    window.__sent = [];
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m) });
    window.__decode = function decode(v) {
      if (Array.isArray(v)) return v.map(decode);
      if (v && typeof v === 'object') {
        if (typeof v.__typed === 'string') {
          const bin = atob(v.b64);
          const bytes = new Uint8Array(bin.length);
          for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
          return new globalThis[v.__typed](bytes.buffer);
        }
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
      }
      return v;
    };`);
  await page.goto(pathToFileURL(join(dir, 'index.html')).href);
  await page.waitForFunction('window.__sent.some((m) => m.type === "ready")');
  const frame = () => page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))');
  return {
    page, errors,
    post: async (m) => {
      await page.evaluate((enc) => window.postMessage((window as unknown as { __decode(v: unknown): unknown }).__decode(enc), '*'), encode(m) as never);
      await frame();
    },
    sent: () => page.evaluate('window.__sent') as Promise<{ type: string }[]>,
  };
}

const lines = (seed: number, slow?: { phase: string; factor: number }, commands = 600) => [...traceLines({ events: 1e7, commands, seed, slow })];

test('the Diff view: the planted phase first, names as text, a click asks for its timelines, the selector for a kind', async (t) => {
  const a = runOfLines(traceDiff, lines(1));
  const b = runOfLines(traceDiff, lines(2, { phase: 'MLP', factor: 1.5 }));
  // A hostile group in both runs: markup, a right-to-left override, a control character.
  const evil = '<img src=x onerror="window.__pwned=1">\u202e\u0007';
  const withEvil = (r: DiffRun): DiffRun => ({ ...r, groups: [...r.groups, { kind: 'layer', key: evil, durations: [5, 6, 7] }] });
  const result = compare(withEvil(a), withEvil(b), 'npu-trace');
  const p = await open(t, diffPage, 'diff.js');
  await p.post({ type: 'result', kinds: ['phase', 'layer', 'cmd_type', 'engine'], by: '', result, notes: [] });
  const first = await p.page.locator('#groups tbody tr').first().locator('td').allTextContents();
  assert.deepEqual([first[0], first[1], first.at(-1)], ['phase', 'MLP', 'yes (reported)']);
  assert.equal(await p.page.locator('#groups tbody tr').count(), result.groups.length);
  // The hostile name is a cell's text, not markup.
  assert.equal(await p.page.locator('#groups img').count(), 0);
  assert.equal(await p.page.evaluate('window.__pwned'), undefined);
  // The hostile name is a cell's text, not markup, its override and control shown as escapes.
  assert.deepEqual(await p.page.locator('#groups td.key', { hasText: '<img src=x' }).allTextContents(), ['<img src=x onerror="window.__pwned=1">\\u202e\\x07']);
  mkdirSync(OUT, { recursive: true });
  await p.page.screenshot({ path: join(OUT, 'diff-view.png') });

  await p.page.locator('#groups tbody tr').first().click();
  await p.page.locator('#groups tbody tr', { hasText: '<img' }).press('Enter');
  await p.page.selectOption('#by', 'phase');
  const sent = (await p.sent()).filter((m) => m.type !== 'ready');
  assert.deepEqual(sent, [{ type: 'open', kind: 'phase', key: 'MLP' }, { type: 'open', kind: 'layer', key: evil }, { type: 'by', kind: 'phase' }]);

  // A message that is not a comparison is refused, and the table stays.
  await p.post({ type: 'result', kinds: [], by: '', result: { ...result, groups: 'no' }, notes: [] } as never);
  assert.equal((await p.sent()).at(-1)!.type, 'error');
  assert.equal(await p.page.locator('#groups tbody tr').count(), result.groups.length);
  assert.deepEqual(p.errors, []);
});

interface ComparePage {
  __compare: { sides(): { state: { viewport: { start: number; end: number }; highlight?: Uint8Array }; t0: number; marked: number }[] };
}
const views = (page: Page) => page.evaluate(() => (window as unknown as ComparePage).__compare.sides().map((s) => [s.state.viewport.start - s.t0, s.state.viewport.end - s.t0]));

test('Compare Timelines: both runs drawn, the group marked in both, zoom and pan locked from each start', async (t) => {
  const la = lines(1, undefined, 60), lb = lines(2, { phase: 'MLP', factor: 1.5 }, 60);
  // B starts later than A: the views are locked relative to each run's start.
  const shifted = lb.map((l) => l.replace(/"t_cycle":(\d+)/, (_m, c: string) => `"t_cycle":${Number(c) + 50_000}`));
  const ma = buildTimeline('a.trace.jsonl', la)!, mb = buildTimeline('b.trace.jsonl', shifted)!;
  assert.ok(mb.t0 > ma.t0 + 40_000, `${mb.t0} vs ${ma.t0}`);
  const p = await open(t, compareTimelinesPage, 'compare.js');
  await p.post({ type: 'models', a: { fileName: 'a.trace.jsonl', model: ma }, b: { fileName: 'b<b>.trace.jsonl', model: mb }, group: { kind: 'phase', key: 'MLP' }, match: traceDiff.timeline!.phase!, markers: [...traceDiff.markers!] });
  const marked = await p.page.evaluate(() => (window as unknown as ComparePage).__compare.sides().map((s) => s.marked));
  assert.ok(marked.every((n) => n > 0), String(marked));
  assert.match(await p.page.locator('#labelB').textContent() ?? '', /^B: b<b>\.trace\.jsonl — \d+ items of phase MLP$/);
  assert.equal(await p.page.locator('#labelB b').count(), 0);
  const fitted = await views(p.page);
  assert.deepEqual(fitted[0], fitted[1]);

  // Wheel on A zooms both.
  const boxA = (await p.page.locator('#canvasA').boundingBox())!;
  await p.page.mouse.move(boxA.x + boxA.width * 0.7, boxA.y + boxA.height * 0.6);
  for (let i = 0; i < 3; i++) await p.page.mouse.wheel(0, -400);
  await p.page.waitForFunction((span) => {
    const [a] = (window as unknown as ComparePage).__compare.sides();
    return a.state.viewport.end - a.state.viewport.start < span / 2;
  }, fitted[0][1] - fitted[0][0]);
  const zoomed = await views(p.page);
  assert.ok(Math.abs(zoomed[0][0] - zoomed[1][0]) < 1e-6 && Math.abs(zoomed[0][1] - zoomed[1][1]) < 1e-6, JSON.stringify(zoomed));

  // Drag on B pans both.
  const boxB = (await p.page.locator('#canvasB').boundingBox())!;
  const at = { x: boxB.x + boxB.width * 0.6, y: boxB.y + boxB.height * 0.5 };
  await p.page.mouse.move(at.x, at.y);
  await p.page.mouse.down();
  await p.page.mouse.move(at.x + 200, at.y, { steps: 5 });
  await p.page.mouse.up();
  const panned = await views(p.page);
  assert.ok(panned[0][0] < zoomed[0][0], `A moved left in time: ${JSON.stringify([zoomed, panned])}`);
  assert.ok(Math.abs(panned[0][0] - panned[1][0]) < 1e-6 && Math.abs(panned[0][1] - panned[1][1]) < 1e-6, JSON.stringify(panned));
  await p.page.screenshot({ path: join(OUT, 'compare-timelines.png') });
  assert.deepEqual(p.errors, []);
});

interface MarkerPage {
  __compare: {
    sides(): { state: { viewport: { start: number; end: number }; model: { t0: number; t1: number } }; t0: number; start: number; end: number }[];
    markers(): { pairs: { name: string; a: number | null; b: number | null }[]; aligned: number };
  };
}
const read = (page: Page) => page.evaluate(() => {
  const c = (window as unknown as MarkerPage).__compare;
  return { sides: c.sides().map((s) => ({ vp: [s.state.viewport.start, s.state.viewport.end], bounds: [s.state.model.t0, s.state.model.t1], t0: s.t0, start: s.start, end: s.end })), ...c.markers() };
});

test('Compare Timelines aligned at a marker: a phase clicked aligns at its first command, Align at picks another, both views move, one run lacking a marker lists it disabled, names as text', async (t) => {
  const la = lines(1, undefined, 60), lb = lines(2, { phase: 'MLP', factor: 1.5 }, 60);
  // B starts 50 000 cycles later, and calls its LN2 phase by a hostile name: LN2 is only in A, the other only in B.
  const evil = '<img src=x onerror="window.__pwned=1">';
  const shifted = lb.map((l) => l.replace(/"t_cycle":(\d+)/, (_m, c: string) => `"t_cycle":${Number(c) + 50_000}`).replace(/"phase":"LN2"/g, `"phase":${JSON.stringify(evil)}`));
  const ma = buildTimeline('a.trace.jsonl', la)!, mb = buildTimeline('b.trace.jsonl', shifted)!;
  const p = await open(t, compareTimelinesPage, 'compare.js');
  await p.post({ type: 'models', a: { fileName: 'a.trace.jsonl', model: ma }, b: { fileName: 'b.trace.jsonl', model: mb }, group: { kind: 'phase', key: 'MLP' }, match: traceDiff.timeline!.phase!, markers: [...traceDiff.markers!] });
  const firstCommand = (m: typeof ma, phase: string) => {
    let t = Infinity;
    const ph = m.strings.indexOf(phase);
    for (let i = 0; i < m.items.start.length; i++) if (m.items.kind[i] === 0 && m.ctxAttrs[m.items.ctx[i] * 5] === ph) t = Math.min(t, m.items.start[i]);
    return t;
  };
  // The click on phase MLP aligned both at its first command, and the label says so.
  let r = await read(p.page);
  assert.equal(r.pairs[r.aligned].name, 'phase MLP');
  assert.deepEqual(r.sides.map((s) => s.t0), [firstCommand(ma, 'MLP'), firstCommand(mb, 'MLP')]);
  assert.match(await p.page.locator('#info').textContent() ?? '', /aligned at phase MLP, where this group starts in each run/);
  assert.equal(await p.page.locator('#align').inputValue(), String(r.aligned));
  const rel = (x: typeof r) => x.sides.map((s) => [s.vp[0] - s.t0, s.vp[1] - s.t0]);
  // The same span from each anchor (up to rounding: a view is kept in absolute times).
  const locked = (x: typeof r) => {
    const [a, b] = rel(x);
    assert.ok(Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6, JSON.stringify(rel(x)));
  };
  locked(r);
  // The range both share relative to the markers: from the earlier start to the later end of either.
  const lo = Math.min(...r.sides.map((s) => s.start - s.t0)), hi = Math.max(...r.sides.map((s) => s.end - s.t0));
  for (const s of r.sides) assert.deepEqual(s.bounds, [s.t0 + lo, s.t0 + hi]);

  // The marker missing from one run is listed, disabled, its name as text.
  const options = await p.page.locator('#align option').evaluateAll((os) => os.map((o) => [o.textContent, (o as HTMLOptionElement).disabled]));
  assert.deepEqual(options.filter(([, d]) => d), [['phase LN2 (not in B)', true], [`phase ${evil} (not in A)`, true]]);
  assert.equal(await p.page.locator('#align img').count(), 0);
  assert.equal(await p.page.evaluate('window.__pwned'), undefined);

  // Align at layer 1 (keyboard: M on a view focuses the list): both views move, the marker at one x.
  await p.page.locator('#canvasA').focus();
  await p.page.keyboard.press('m');
  assert.equal(await p.page.evaluate(() => document.activeElement?.id), 'align');
  const layer1 = r.pairs.findIndex((x) => x.name === 'layer 1');
  await p.page.selectOption('#align', String(layer1));
  const before = r;
  r = await read(p.page);
  assert.equal(r.aligned, layer1);
  assert.deepEqual(r.sides.map((s) => s.t0), [r.pairs[layer1].a, r.pairs[layer1].b]);
  locked(r);
  // B's offset from A changed by the markers' difference: both views moved.
  const offset = (x: typeof r) => x.sides[1].vp[0] - x.sides[0].vp[0];
  assert.ok(Math.abs(offset(r) - offset(before) - ((r.pairs[layer1].b! - r.pairs[layer1].a!) - (before.sides[1].t0 - before.sides[0].t0))) < 1e-6);
  assert.notEqual(r.sides[1].vp[0], before.sides[1].vp[0]);
  // The marker is in view, and the views fitted (F) stop at the shared ends.
  assert.ok(r.sides.every((s) => s.vp[0] <= s.t0 && s.t0 <= s.vp[1]), JSON.stringify(r.sides));
  await p.page.locator('#canvasB').focus();
  await p.page.keyboard.press('f');
  r = await read(p.page);
  locked(r);
  await p.page.screenshot({ path: join(OUT, 'compare-timelines-marker.png') });

  // Starts again: anchored at each run's start.
  await p.page.selectOption('#align', '');
  r = await read(p.page);
  assert.equal(r.aligned, -1);
  assert.deepEqual(r.sides.map((s) => s.t0), [ma.t0, mb.t0]);
  locked(r);
  assert.deepEqual(p.errors, []);
});

test("Compare Timelines of two PyTorch runs, B's clock in µs since the epoch: the step group clicked aligns at the first step, another step picked, the rulers count from it", async (t) => {
  const text = kinetoEagerTrace().text;
  // B as a Kineto of another machine writes it: the same steps, its timestamps 16 digits long.
  const EPOCH = 1_732_000_000_000_000;
  const ma = buildTimeline('a.pt.trace.json', text.split('\n'))!;
  const mb = buildTimeline('b.pt.trace.json', text.replace(/"ts": (\d+\.\d+)/g, (_m, ts: string) => `"ts": ${EPOCH + Number(ts)}`).split('\n'))!;
  assert.ok(mb.t0 > 1e15);
  const p = await open(t, compareTimelinesPage, 'compare.js');
  await p.post({ type: 'models', a: { fileName: 'a.pt.trace.json', model: ma }, b: { fileName: 'b.pt.trace.json', model: mb }, group: { kind: 'step', key: 'ProfilerStep' }, match: null, markers: [...chromeDiff.markers!] });
  let r = await read(p.page);
  assert.deepEqual(r.pairs.map((x) => x.name), ['step ProfilerStep#2', 'step ProfilerStep#3']);
  assert.equal(r.aligned, 0);
  assert.match(await p.page.locator('#info').textContent() ?? '', /^step ProfilerStep: aligned at step ProfilerStep#2, where this group starts in each run/);
  await p.page.selectOption('#align', '1');
  r = await read(p.page);
  assert.equal(r.aligned, 1);
  assert.deepEqual(r.sides.map((s) => s.t0), [r.pairs[1].a, r.pairs[1].b]);
  assert.equal(r.pairs[1].b! - r.pairs[1].a!, EPOCH);
  // Zoomed to a few µs around the step's start: still one x, within a rounding of B's clock (¼ µs).
  const box = (await p.page.locator('#canvasA').boundingBox())!;
  await p.page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  for (let i = 0; i < 12; i++) await p.page.mouse.wheel(0, -600);
  r = await read(p.page);
  const [a, b] = r.sides.map((s) => [s.vp[0] - s.t0, s.vp[1] - s.t0]);
  assert.ok(a[1] - a[0] < 200, `zoomed in: ${a}`);
  assert.ok(Math.abs(a[0] - b[0]) <= 0.25 && Math.abs(a[1] - b[1]) <= 0.25, JSON.stringify([a, b]));
  await p.page.locator('#canvasA').focus();
  await p.page.keyboard.press('f');
  await p.page.screenshot({ path: join(OUT, 'compare-timelines-steps.png') });
  assert.deepEqual(p.errors, []);
});
