import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { buildTimeline } from '../../../core/detectFormat';
import { MetricsCollector } from '../../../core/trace/metrics/collector';
import { buildSliced, Cancelled, SLICE_MS, statsSliced, type Slicing } from '../../../client/browser/slicedBuild';

const LINES = readFileSync(resolve(__dirname, '../../../examples/llm-layer.trace.jsonl'), 'utf8').split('\n');

/** A clock that advances `step` ms per reading, so slices end by the line count, not by the machine's speed. */
function fakeSlicing(step: number, cancelAfter = Infinity): Slicing & { pauses: number } {
  let t = 0;
  const s = {
    pauses: 0,
    cancelled: () => s.pauses >= cancelAfter,
    pause: async () => { s.pauses++; },
    now: () => (t += step),
  };
  return s;
}

// The browser timeline (client/browser/timelineHost.ts) builds in the extension host in slices.
describe('the browser timeline build in slices', () => {
  it('builds the same model as the desktop worker\'s builder', async () => {
    const s = fakeSlicing(0);
    const model = await buildSliced('llm-layer.trace.jsonl', LINES.length, (i) => LINES[i], s);
    assert.deepEqual(model, buildTimeline('llm-layer.trace.jsonl', LINES));
    assert.equal(s.pauses, 0, 'a clock that never moves never ends a slice');
  });

  it('yields between slices and stops when cancelled', async () => {
    assert.ok(LINES.length > 1024, 'the example is long enough for several slices');
    const s = fakeSlicing(SLICE_MS);
    await buildSliced('llm-layer.trace.jsonl', LINES.length, (i) => LINES[i], s);
    // The clock is read every 256 lines and each reading ends the slice.
    assert.equal(s.pauses, Math.floor(LINES.length / 256));
    await assert.rejects(buildSliced('llm-layer.trace.jsonl', LINES.length, (i) => LINES[i], fakeSlicing(SLICE_MS, 1)), Cancelled);
  });

  it('computes the range metrics the core collector does', async () => {
    const c = new MetricsCollector({ from: 0, to: 5000 });
    for (const l of LINES) c.addLine(l);
    assert.deepEqual(await statsSliced(LINES.length, (i) => LINES[i], { from: 0, to: 5000 }, fakeSlicing(1)), c.finish());
  });

  it('says why a file has no timeline', async () => {
    await assert.rejects(buildSliced('x.txt', 1, () => 'hello', fakeSlicing(0)), /No timeline for x\.txt/);
    await assert.rejects(buildSliced('x.trace.jsonl', 0, () => '', fakeSlicing(0)), /x\.trace\.jsonl is empty/);
  });
});
