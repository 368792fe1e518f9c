// The interval lists behind every busy time: their union (clipped to a window) must be that of the
// intervals as added, however they are stored (chunks, merged on arrival when in order).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lengthOf, unite } from '../../../core/common/intervals';
import { Intervals } from '../../../core/trace/metrics/intervals';

/** The union by the definition: clip, drop empty, sort by start, join overlapping or touching. */
function naive(xs: [number, number][], from = -Infinity, to = Infinity): number[] {
  const c = xs.filter(([s, e]) => e >= s).map(([s, e]): [number, number] => [Math.max(s, from), Math.min(e, to)]).filter(([s, e]) => e > s);
  c.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [s, e] of c) {
    if (out.length && s <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], e);
    else out.push(s, e);
  }
  return out;
}

const interval = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: -2, max: 8 })).map(([s, d]): [number, number] => [s, s + d]);
// Mostly in order of start (as spans close on one engine), sometimes not, sometimes many (several chunks).
const list = fc.oneof(
  fc.array(interval, { maxLength: 40 }),
  fc.array(interval, { maxLength: 40 }).map((xs) => xs.sort((a, b) => a[0] - b[0])),
  fc.array(interval, { minLength: 5000, maxLength: 9000 }).map((xs) => xs.map(([s, e], i): [number, number] => [s + 4 * i, e + 4 * i])),
);

describe('interval lists', () => {
  it('give the union of what was added, clipped to any window', () => {
    fc.assert(fc.property(list, fc.integer({ min: -5, max: 70 }), fc.integer({ min: 0, max: 40 }), (xs, from, len) => {
      const iv = new Intervals();
      for (const [s, e] of xs) iv.add(s, e);
      assert.deepStrictEqual([...iv.union()], naive(xs));
      // A window around every pair (the whole trace's, as `stats` asks): in order, the pairs copied as kept.
      assert.deepStrictEqual([...iv.union(-10, 1e9)], naive(xs));
      assert.deepStrictEqual([...iv.union(from, from + len)], naive(xs, from, from + len));
      assert.equal(iv.length(), lengthOf(iv.union()));
      assert.equal(iv.length(-10, 1e9), lengthOf(iv.union(-10, 1e9)));
      assert.equal(iv.length(from, from + len), lengthOf(iv.union(from, from + len)));
    }), { numRuns: 300, seed: 21 });
  });

  it('length is the length of the union to the last bit, with cycles that are not whole, over many chunks', () => {
    // Mostly apart (many pairs, so chunks fill), some overlapping or touching (merged on arrival).
    const real = fc.tuple(fc.double({ min: 0, max: 8, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }));
    fc.assert(fc.property(fc.array(real, { minLength: 4000, maxLength: 12_000 }), fc.boolean(), (steps, shuffle) => {
      const iv = new Intervals();
      let at = 0.1;
      const xs: [number, number][] = steps.map(([gap, d]) => [(at += gap), at + d]);
      if (shuffle) xs.reverse();
      for (const [s, e] of xs) iv.add(s, e);
      assert.equal(iv.length(), lengthOf(iv.union()));
      assert.equal(iv.length(0, 1e9), lengthOf(iv.union(0, 1e9)));
      assert.equal(iv.length(1, 50), lengthOf(iv.union(1, 50)));
    }), { numRuns: 60 });
  });

  it('merge what arrives in order into few pairs, and unite two unions', () => {
    const iv = new Intervals();
    for (let i = 0; i < 100_000; i++) iv.add(10 * i, 10 * i + 10);
    assert.equal(iv.count, 1);
    assert.deepStrictEqual([...iv.union()], [0, 1_000_000]);
    // Disjoint pairs fill many chunks (the 33rd once overflowed its size computation); the last out of order.
    const many = new Intervals();
    for (let i = 0; i < 300_000; i++) many.add(10 * i, 10 * i + 5);
    many.add(7, 8);
    const u = many.union();
    assert.equal(u.length, 2 * 300_001);
    assert.deepStrictEqual([...u.subarray(0, 6)], [0, 5, 7, 8, 10, 15]);
    assert.deepStrictEqual([...u.subarray(-2)], [2_999_990, 2_999_995]);
    assert.deepStrictEqual([...unite(Float64Array.of(0, 2, 5, 6), Float64Array.of(1, 3, 6, 9))], [0, 3, 5, 9]);
  });
});
