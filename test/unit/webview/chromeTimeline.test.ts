/**
 * The built timeline page (dist/webview) in headless Chromium with Chrome traces: a one-line file's
 * cursor → slice and slice → characters, and flows (drawn without errors, listed in the details pane,
 * one click from a kernel to the op that launched it).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildTimeline } from '../../../core/detectFormat';
import type { TimelineModel } from '../../../core/timeline/model';
import { launchChromium, modelMessage, openTimelinePage, type TimelinePage } from '../../webview/page';

const ROOT = resolve(__dirname, '../../..');
const FIX = join(ROOT, 'test/fixtures/chrome');

let browser: Browser | undefined;
after(async () => browser?.close());

async function withPage(t: { after(fn: () => Promise<void>): void }, model: TimelineModel): Promise<TimelinePage> {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  browser ??= await launchChromium();
  const q = await openTimelinePage({ browser });
  t.after(() => q.close());
  await q.post(modelMessage(model));
  await q.frame();
  return q;
}

const selectedName = (p: TimelinePage) => p.page.evaluate(() => {
  const s = (window as unknown as { __timeline: { state(): { selected: number; model: { strings: string[]; items: { name: Uint32Array } } } } }).__timeline.state();
  return s.selected < 0 ? null : s.model.strings[s.model.items.name[s.selected]];
});

async function lastSent(p: TimelinePage) {
  const sent = await p.sent();
  return sent[sent.length - 1];
}

test('one-line trace: the cursor on an event selects its slice, and the page sends that event\'s characters', async (t) => {
  const text = readFileSync(join(FIX, 'one-line.pt.trace.json'), 'utf8');
  const line = text.split('\n')[0];
  const p = await withPage(t, buildTimeline('one-line.pt.trace.json', text.split('\n'))!);
  const at = line.indexOf('"name":"ampere_sgemm_64x64_nn_1"');
  await p.post({ type: 'selectLine', line: 0, character: at + 3 });
  await p.frame();
  assert.equal(await selectedName(p), 'ampere_sgemm_64x64_nn_1');
  const sent = await lastSent(p);
  assert.equal(sent.type, 'select');
  const span = (sent as { span?: [number, number] }).span!;
  assert.ok(span[0] < at && at < span[1], 'the span holds the cursor');
  assert.equal((JSON.parse(line.slice(span[0], span[1])) as { name: string }).name, 'ampere_sgemm_64x64_nn_1');
  // Another event on the same line selects another slice (line 0 alone would always give the same one).
  await p.post({ type: 'selectLine', line: 0, character: line.indexOf('"name":"aten::linear"') + 2 });
  await p.frame();
  assert.equal(await selectedName(p), 'aten::linear');
  // The B/E pair: the E event's characters come as the end span.
  await p.post({ type: 'selectLine', line: 0, character: line.indexOf('"ph":"E"') });
  await p.frame();
  assert.equal(await selectedName(p), 'step');
  const be = (await lastSent(p)) as { span?: [number, number]; endSpan?: [number, number] };
  assert.deepEqual(JSON.parse(line.slice(be.endSpan![0], be.endSpan![1])), { ph: 'E', pid: 1234, tid: 1240, ts: 1700000000600 });
  assert.deepEqual(p.errors, []);
});

test('flows: a kernel lists the op that launched it, and one click selects and reveals that op', async (t) => {
  const text = readFileSync(join(FIX, 'pytorch.pt.trace.json'), 'utf8');
  const lines = text.split('\n');
  const p = await withPage(t, buildTimeline('run.pt.trace.json', lines)!);
  const kernelLine = lines.findIndex((l) => l.includes('"name":"ampere_sgemm_64x64_nn_0"'));
  await p.post({ type: 'selectLine', line: kernelLine });
  await p.frame();
  assert.equal(await selectedName(p), 'ampere_sgemm_64x64_nn_0');
  const details = (await p.page.textContent('#details'))!;
  assert.match(details, /Flow from \(1\)/);
  await p.page.click('#details button.link:has-text("cudaLaunchKernel")');
  await p.frame();
  assert.equal(await selectedName(p), 'cudaLaunchKernel');
  const sent = (await lastSent(p)) as { line: number; reveal: boolean };
  assert.equal(sent.reveal, true);
  assert.match(lines[sent.line], /"cudaLaunchKernel".*"correlation":1,/);
  assert.match((await p.page.textContent('#details'))!, /Flow to \(1\)/);
  assert.deepEqual(p.errors, []);
});

test('red is for problems: PyTorch [memory] instants and every category are drawn without the error colour; an END without its START is', async (t) => {
  assert.ok(existsSync(join(ROOT, 'dist/webview/webview.js')), 'dist/webview/webview.js is missing: run `npm run build` first');
  browser ??= await launchChromium();
  const RED = ['#f14c4c', 'rgb(241, 76, 76)'];
  const events: object[] = [];
  // Twelve categories (more than a palette that held red would need to reach it) and Kineto's memory instants.
  for (let k = 0; k < 12; k++) events.push({ ph: 'X', cat: `cat${k}`, name: `op${k}`, pid: 1, tid: 1, ts: k * 10, dur: 8 });
  for (let k = 0; k < 20; k++) events.push({ ph: 'i', s: 't', cat: 'cpu_instant_event', name: '[memory]', pid: 1, tid: 1, ts: k * 6, args: { Bytes: 512 } });
  const drawnRed = async (evs: object[]) => {
    const q = await openTimelinePage({ browser, recordDraws: true });
    t.after(() => q.close());
    await q.post(modelMessage(buildTimeline('m.pt.trace.json', [JSON.stringify({ traceEvents: evs })])!));
    await q.frame();
    const calls = await q.drawCalls();
    assert.ok(calls.length > 0, 'a frame was drawn');
    return calls.some((c) => RED.includes(c.style.toLowerCase()));
  };
  assert.equal(await drawnRed(events), false);
  // The check can see red: an E with no B is a problem, drawn in it.
  assert.equal(await drawnRed([...events, { ph: 'E', pid: 1, tid: 2, ts: 50 }]), true);
});
