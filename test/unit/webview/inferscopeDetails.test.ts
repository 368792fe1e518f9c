/**
 * The details of a clicked InferScope item on the built timeline page (dist/webview) in headless
 * Chromium: its kind is its InferScope type, not the NPU engine whose colour it borrows (the e2e
 * journey showed "kind TE" for a GPU kernel).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { analyze } from '../../../core/inferscope/analyze';
import { eventLines } from '../../../core/inferscope/citations';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { buildTimeline } from '../../../core/detectFormat';
import { launchChromium, modelMessage, openTimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
let browser: Browser | undefined;
after(async () => browser?.close());

test('a clicked InferScope kernel and scope show their own kind', async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  const lines = readFileSync(join(ROOT, 'examples/llm-requests.inferscope.json'), 'utf8').split('\n');
  const model = buildTimeline('llm-requests.inferscope.json', lines)!;
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post(modelMessage(model));
  await p.frame();
  const rowsOf = async (name: string) => {
    const at = await p.page.evaluate((name) => {
      const s = (window as unknown as { __timeline: { state(): any } }).__timeline.state(); // eslint-disable-line @typescript-eslint/no-explicit-any
      const it = s.model.items;
      let i = -1;
      for (let k = 0; k < it.start.length && i < 0; k++) if (s.model.strings[it.name[k]] === name) i = k;
      s.viewport.set(it.start[i] - 1, it.end[i] + 1, s.model);
      const row = s.index.rowOfItem[i];
      const band = s.bands.find((b: { kind: string; rowFrom: number; rowTo: number }) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo);
      const canvas = document.getElementById('canvas')!.getBoundingClientRect();
      const header = canvas.width - s.viewport.width;
      return { x: canvas.left + header + s.viewport.x((it.start[i] + it.end[i]) / 2), y: canvas.top + 36 + band.y - s.scrollY + band.h / 2 };
    }, name);
    await p.frame();
    await p.page.mouse.click(at.x, at.y);
    await p.frame();
    const rows = await p.page.$$eval('#details table tr', (trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent)));
    return rows;
  };
  const kindOf = async (name: string) => (await rowsOf(name)).find((r) => r[0] === 'kind')?.[1];
  assert.equal(await kindOf('attention_forward'), 'gpu_kernel');
  assert.equal(await kindOf('tokenize'), 'cpu_call');
  assert.equal(await kindOf('inference'), 'scope');
  // Like an NPU trace's phase and layer: the event type and the innermost scope, shown with the item.
  const rows = await rowsOf('attention_forward');
  assert.deepEqual(rows.filter((r) => r[0] === 'phase' || r[0] === 'layer_id'), [['phase', 'gpu_kernel'], ['layer_id', 'gpu']]);
});

test('a finding\'s cited events (revealLines) are zoomed to and the first selected, also when sent before the model', async (t) => {
  const text = readFileSync(join(ROOT, 'examples/llm-requests.inferscope.json'), 'utf8');
  const lines = text.split('\n');
  const model = buildTimeline('llm-requests.inferscope.json', lines)!;
  const doc = InferscopeDocument.parse(text);
  const cited = analyze(doc).bottleneck.event_ids.slice(0, 2);
  const at = eventLines(doc, cited);
  assert.equal(at.length, 2);
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post({ type: 'revealLines', lines: at });
  await p.post(modelMessage(model));
  await p.frame();
  const got = await p.page.evaluate(() => {
    const s = (window as unknown as { __timeline: { state(): any } }).__timeline.state(); // eslint-disable-line @typescript-eslint/no-explicit-any
    return { selected: s.selected, line: s.selected >= 0 ? s.model.items.line[s.selected] : -1, view: [s.viewport.start, s.viewport.end], t: [s.model.t0, s.model.t1] };
  });
  assert.equal(got.line, at[0], 'the first cited event is selected');
  const it = model.items;
  const items = at.map((l) => Array.from(it.line).indexOf(l));
  const from = Math.min(...items.map((i) => it.start[i]));
  const to = Math.max(...items.map((i) => it.end[i]));
  assert.ok(got.view[0] <= from && got.view[1] >= to, `view ${got.view} holds the cited events ${from}–${to}`);
  assert.ok(got.view[1] - got.view[0] < (got.t[1] - got.t[0]) / 2, 'zoomed in, not the whole trace');
  assert.match((await p.page.textContent('#details'))!, new RegExp(`line${at[0] + 1}`));
});
