import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDuration, isWallClock, lengthOfTime, pointInTime, rulerLabels, rulerTicks } from '../../../webview/timeAxis';

// A PyTorch trace's clock: Kineto writes µs since boot (13 digits), as the 4,978,308,800,000.
const KINETO = { unit: 'µs', nsPerCycle: 1000, t0: 4_978_308_800_000 };
// A FlashInfer buffer: globaltimer ns.
const KPROF = { unit: 'ns', nsPerCycle: 1, t0: 1_732_000_000_123_456_768 };
const NPU = { unit: undefined, nsPerCycle: 0.5, t0: 100 };

describe('the timeline\'s time axis', () => {
  it('a wall clock is shown from the start in the unit of the step; cycles as cycles', () => {
    assert.equal(isWallClock(KINETO), true);
    assert.equal(isWallClock(KPROF), true);
    assert.equal(isWallClock(NPU), false);
    // 1 px per µs, a tick at least 100 px apart: 100 µs steps from the start.
    const ticks = rulerTicks(KINETO, KINETO.t0, KINETO.t0 + 1000, 1);
    assert.deepEqual(ticks.slice(0, 3).map((x) => [x.t - KINETO.t0, x.label]), [[0, '0'], [100, '100 µs'], [200, '200 µs']]);
    assert.ok(ticks.every((x) => !/\d{7}/.test(x.label.replace(/,/g, ''))), 'no 13-digit timestamp on the ruler');
    // Zoomed out over 20 s: whole seconds or a half step, never µs.
    const wide = rulerTicks(KINETO, KINETO.t0, KINETO.t0 + 20e6, 1000 / 20e6);
    assert.deepEqual(wide.slice(0, 3).map((x) => x.label), ['0', '2 s', '4 s']);
    // Zoomed in below a µs on a µs clock: fractions of a µs in ns.
    const fine = rulerTicks(KINETO, KINETO.t0 + 10, KINETO.t0 + 10.5, 1000);
    assert.equal(fine[0].label, '10,000 ns');
    assert.equal(fine[1].label, '10,100 ns');
    // A step of 0.5 ms shows one decimal.
    const half = rulerTicks(KINETO, KINETO.t0 + 1000, KINETO.t0 + 3000, 100 / 500);
    assert.deepEqual(half.slice(0, 2).map((x) => x.label), ['1.0 ms', '1.5 ms']);
    // 19-digit ns stay exact enough to tick from the start.
    assert.deepEqual(rulerTicks(KPROF, KPROF.t0, KPROF.t0 + 2000, 0.1).slice(0, 2).map((x) => x.label), ['0', '1 µs']);
    // Cycles keep their absolute values.
    assert.deepEqual(rulerTicks(NPU, 0, 1000, 1).slice(0, 2).map((x) => x.label), ['0', '100']);
  });

  it('the ruler is bounded whatever the zoom', () => {
    assert.ok(rulerTicks(KINETO, KINETO.t0, KINETO.t0 + 1e9, 1e6).length <= 400);
    assert.deepEqual(rulerTicks(KINETO, 5, 5, 1), []);
  });

  it('rows and points say their unit: from the start and as written on a wall clock', () => {
    assert.deepEqual(rulerLabels(KINETO), ['from start', 'start 4,978,308,800,000 µs']);
    assert.deepEqual(rulerLabels(NPU), ['cycles', 'time']);
    assert.deepEqual(rulerLabels({ ...NPU, nsPerCycle: undefined }), ['cycles', undefined]);
    assert.equal(pointInTime(KINETO, KINETO.t0 + 1250.5), '+1.251 ms · 4,978,308,801,250.5 µs');
    assert.equal(pointInTime(NPU, 1200), '1,200 cycles (600 ns)');
    assert.equal(lengthOfTime(KINETO, 1500), '1.5 ms');
    assert.equal(lengthOfTime(KPROF, 250), '250 ns');
    assert.equal(lengthOfTime(NPU, 12), '12 cycles (6 ns)');
    assert.equal(formatDuration(2.5e9), '2.5 s');
  });
});
