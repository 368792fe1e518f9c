/**
 * The kprof timeline on the built timeline page (dist/webview) in headless Chromium, as the
 * custom editor feeds it: the warp-specialized example's lanes drawn, a click on a span asking
 * for its records by slot, and the records shown in the details pane.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { decode } from '../../../core/kprof/decode';
import { namesFromLines } from '../../../core/kprof/names';
import { readNpy } from '../../../core/kprof/npy';
import { recordFields } from '../../../core/kprof/records';
import { kprofTimeline } from '../../../core/kprof/timeline';
import { launchChromium, modelMessage, openTimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const OUT = join(ROOT, 'test-results');
let browser: Browser | undefined;
after(async () => browser?.close());

test('the warp-specialized example on the timeline page: lanes drawn, a span\'s two records in the details', async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  const [buf] = readNpy(new Uint8Array(readFileSync(join(ROOT, 'examples/warpspec.kprof.npy'))));
  const d = decode(buf, { names: namesFromLines(readFileSync(join(ROOT, 'examples/warpspec.kprof.names.txt'), 'utf8')) });
  const model = kprofTimeline(d);
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser, recordDraws: true });
  t.after(() => p.close());
  await p.post(modelMessage(model));
  await p.frame();
  await p.page.screenshot({ path: join(OUT, 'kprof-timeline.png') });
  // Every region is an item of the page's model (track names are drawn on the canvas).
  assert.match((await p.page.textContent('body'))!, new RegExp(`${d.regionCount} items`));
  const draws = await p.drawCalls();
  assert.ok(draws.filter((c) => c.op === 'fillRect').length >= 12, 'spans drawn in the lanes');
  // The epilogue of block 0 (group 2): click its centre, found through the page's own layout.
  const at = await p.page.evaluate(() => {
    const tl = (window as unknown as { __timeline: { state(): any } }).__timeline; // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = tl.state();
    const it = s.model.items;
    let i = -1;
    for (let k = 0; k < it.start.length && i < 0; k++) if (s.model.strings[it.name[k]] === 'epilogue') i = k;
    const row = s.index.rowOfItem[i];
    const band = s.bands.find((b: { kind: string; rowFrom: number; rowTo: number }) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo);
    const canvas = document.getElementById('canvas')!.getBoundingClientRect();
    const mid = (it.start[i] + Math.min(it.end[i], s.viewport.end)) / 2;
    return { x: canvas.left + 200 + s.viewport.x(mid), y: canvas.top + 36 + band.y - s.scrollY + band.h / 2, line: it.line[i], endLine: it.endLine[i] };
  });
  await p.page.mouse.click(at.x, at.y);
  await p.frame();
  const sent = await p.sent();
  const select = sent[sent.length - 1];
  assert.deepEqual(select, { type: 'select', line: at.line, endLine: at.endLine, reveal: true });
  await p.post({ type: 'details', line: at.line, fields: recordFields(buf, d, at.line), endFields: recordFields(buf, d, at.endLine) });
  const details = (await p.page.textContent('#details'))!;
  assert.match(details, /epilogue/);
  assert.match(details, /raw"0x[0-9a-f]{16}"/);
  assert.match(details, /type"start"/);
  assert.match(details, /type"end"/);
  // The pane points at the records' slots (0-based, as their fields), not at lines.
  assert.ok(details.includes(`slot${at.line} → ${at.endLine}`), details);
  await p.page.screenshot({ path: join(OUT, 'kprof-timeline-selected.png') });
  assert.deepEqual(p.errors, []);
});
