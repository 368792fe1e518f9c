import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TimeIndex } from '../../../core/inferscope/times';

/** [earliest start, latest end] of a..b by a loop, events without a time left out. */
function brute(starts: number[], ends: number[], a: number, b: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = a; i <= b && i < starts.length; i++) {
    if (starts[i] === starts[i]) lo = Math.min(lo, starts[i]);
    if (ends[i] === ends[i]) hi = Math.max(hi, ends[i]);
  }
  return [lo, hi];
}

const indexOf = (starts: number[], ends: number[]) => new TimeIndex(starts.length, (i, out) => {
  out[0] = starts[i];
  out[1] = ends[i];
});

describe('TimeIndex', () => {
  it('gives the same ranges as a loop, within one leaf, across leaves and over the whole (property)', () => {
    const time = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(NaN));
    fc.assert(fc.property(fc.array(fc.tuple(time, time), { minLength: 1, maxLength: 200 }), fc.nat(), fc.nat(), (ev, x, y) => {
      const starts = ev.map((e) => e[0]);
      const ends = ev.map((e) => e[1]);
      const a = x % ev.length;
      const b = a + (y % (ev.length - a));
      const ix = indexOf(starts, ends);
      assert.deepEqual(ix.range(a, b), brute(starts, ends, a, b));
      assert.deepEqual(ix.range(0, ev.length - 1), brute(starts, ends, 0, ev.length - 1));
    }));
  });

  it('has no say for events without times, an empty or reversed range, or one past the end', () => {
    const ix = indexOf([NaN, 5, NaN, 1, 9, 9, 9, 9, 9, 9, 9, 9, 0.5], [NaN, 6, 7, NaN, 10, 10, 10, 10, 10, 10, 10, 10, 11]);
    assert.deepEqual(ix.range(0, 0), [Infinity, -Infinity]);
    assert.deepEqual(ix.range(0, 3), [1, 7]);
    assert.deepEqual(ix.range(2, 12), [0.5, 11]);
    assert.deepEqual(ix.range(5, 4), [Infinity, -Infinity]);
    assert.deepEqual(ix.range(10, 40), [0.5, 11]);
    assert.deepEqual(indexOf([], []).range(0, 0), [Infinity, -Infinity]);
  });

  it('reads each event once when built, and only the events of cut leaves when asked', () => {
    const n = 1000;
    let reads = 0;
    const ix = new TimeIndex(n, (i, out) => {
      reads++;
      out[0] = i;
      out[1] = i + 1;
    });
    assert.equal(reads, n);
    reads = 0;
    assert.deepEqual(ix.range(3, 996), [3, 997]);
    assert.ok(reads <= 16, `${reads} reads`);
  });
});
