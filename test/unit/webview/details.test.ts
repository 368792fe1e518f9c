/**
 * The details of a clicked item on the built timeline page (dist/webview) in headless Chromium, in
 * its format's words: an InferScope item's kind is its InferScope type, not the NPU engine whose
 * colour it borrows (the e2e journey showed "kind TE" for a GPU kernel); an NNAPI systrace's process
 * is its pid, not a tenant_id (#30); a Perfetto track event shows its arguments (#33).
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
import { launchChromium, modelMessage, openTimelinePage, type TimelinePage } from '../../webview/page';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { sdkArgsTrace } from '../../gen/perfettoArgsGen';

const ROOT = resolve(__dirname, '../../..');
let browser: Browser | undefined;
after(async () => browser?.close());

/** Clicks the first item called `name` (zoomed to it) and gives the details pane's rows. */
async function detailsOf(p: TimelinePage, name: string): Promise<(string | null)[][]> {
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
}

test('a clicked InferScope kernel and scope show their own kind', async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  const lines = readFileSync(join(ROOT, 'examples/llm-requests.inferscope.json'), 'utf8').split('\n');
  const model = buildTimeline('llm-requests.inferscope.json', lines)!;
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post(modelMessage(model));
  await p.frame();
  const rowsOf = (name: string) => detailsOf(p, name);
  const kindOf = async (name: string) => (await rowsOf(name)).find((r) => r[0] === 'kind')?.[1];
  assert.equal(await kindOf('attention_forward'), 'gpu_kernel');
  assert.equal(await kindOf('tokenize'), 'cpu_call');
  assert.equal(await kindOf('inference'), 'scope');
  // Like an NPU trace's phase and layer: the event type and the innermost scope, shown with the item.
  const rows = await rowsOf('attention_forward');
  // Under InferScope's own names, not the NPU trace's phase and layer_id.
  assert.deepEqual(rows.filter((r) => r[0] === 'type' || r[0] === 'scope' || r[0] === 'phase' || r[0] === 'layer_id'), [['type', 'gpu_kernel'], ['scope', 'gpu']]);
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

test('each format names its own fields: an NNAPI systrace\'s details and menus say pid, phase and layer, never tenant_id', async (t) => {
  const lines = readFileSync(join(ROOT, 'examples/nnapi-mobilenet.systrace'), 'utf8').split('\n');
  const model = buildTimeline('nnapi-mobilenet.systrace', lines)!;
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post(modelMessage(model));
  await p.frame();
  const options = (label: string) => p.page.$$eval(`[aria-label="${label}"] vscode-option`, (os) => os.map((o) => o.textContent));
  assert.deepEqual(await options('Colour by'), ['colour: resource', 'colour: phase', 'colour: layer', 'colour: pid']);
  assert.deepEqual(await options('Filter by'), ['filter: none', 'filter: phase', 'filter: layer', 'filter: pid']);
  const name = model.strings[model.items.name[0]];
  const rows = await detailsOf(p, name);
  const keys = rows.map((r) => r[0]);
  assert.ok(keys.includes('pid'), keys.join());
  assert.ok(!keys.includes('tenant_id') && !keys.includes('layer_id'), keys.join());
});

test('a Perfetto track event\'s debug annotations are its arguments in the details pane, names resolved', async (t) => {
  const model = perfettoTimeline(sdkArgsTrace());
  browser ??= await launchChromium();
  const p = await openTimelinePage({ browser });
  t.after(() => p.close());
  await p.post(modelMessage(model));
  await p.frame();
  const rows = await detailsOf(p, 'Invoke');
  const get = (k: string) => rows.find((r) => r[0] === k)?.[1];
  assert.equal(get('batch'), '8');
  assert.equal(get('device'), '"npu0"');
  assert.equal(get('config'), '{"threads":4,"delegate":"nnapi","dims":[1,224]}');
  assert.equal(get('status'), '"ok"', 'the end event\'s argument too');
  assert.ok((await p.page.textContent('#details'))!.includes('Arguments'));
});
