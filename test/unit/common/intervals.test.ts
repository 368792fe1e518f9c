// The interval algebra behind every busy and overlap time (NPU trace metrics, InferScope analysis,
// kernel-profiler overlap): each operation must agree with the same set computed point by point.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  complement, intersect, intersectionLength, lengthOf, runsOfSorted, unionOf, unionSweep, unite, unitedLength, UnionBuilder,
} from '../../../core/common/intervals';

/** Integer intervals on 0..40, so that a set is the list of unit cells [k, k+1) it covers. */
const interval = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 8 })).map(([s, d]): [number, number] => [s, s + d]);
const intervals = fc.array(interval, { maxLength: 30 });

function cells(u: ArrayLike<number>): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < u.length; i += 2) for (let k = u[i]; k < u[i + 1]; k++) out.add(k);
  return out;
}
function cellsOf(xs: [number, number][]): Set<number> {
  const out = new Set<number>();
  for (const [s, e] of xs) for (let k = s; k < e; k++) out.add(k);
  return out;
}
/** Disjoint, ordered, non-empty, and not touching (touching pairs are one). */
function assertUnion(u: ArrayLike<number>): void {
  assert.equal(u.length % 2, 0);
  for (let i = 0; i < u.length; i += 2) {
    assert.ok(u[i + 1] > u[i], `pair ${i / 2} is empty`);
    if (i > 0) assert.ok(u[i] > u[i - 1], `pair ${i / 2} touches or overlaps the one before`);
  }
}
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
const union = (xs: [number, number][]) => unionOf(xs.map((x) => x[0]), xs.map((x) => x[1]));

describe('interval algebra (core/common/intervals)', () => {
  it('unionOf: intervals in any order become disjoint ordered pairs covering the same cells', () => {
    fc.assert(fc.property(intervals, (xs) => {
      const u = union(xs);
      assertUnion(u);
      assert.deepEqual(sorted(cells(u)), sorted(cellsOf(xs)));
      assert.equal(lengthOf(u), cellsOf(xs).size);
    }));
  });

  it('touching intervals merge; empty and inverted ones add nothing', () => {
    assert.deepEqual([...unionOf([0, 5, 9, 20], [5, 9, 9, 10])], [0, 9]);
    assert.deepEqual([...unionOf([4, 3], [4, 1])], []);
    const b = new UnionBuilder(4);
    b.add(1, 2);
    b.add(2, 3);
    assert.deepEqual([...b.done()], [1, 3]);
  });

  it('unite, intersect, intersectionLength and complement match the sets cell by cell', () => {
    fc.assert(fc.property(intervals, intervals, fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), (xs, ys, f, t) => {
      const a = union(xs);
      const b = union(ys);
      const ca = cells(a);
      const cb = cells(b);
      const both = unite(a, b);
      assertUnion(both);
      assert.deepEqual(sorted(cells(both)), sorted(new Set([...ca, ...cb])));
      const common = [...ca].filter((k) => cb.has(k));
      const i = intersect(a, b);
      assert.deepEqual(sorted(cells(i)), common);
      assert.equal(intersectionLength(a, b), common.length);
      const [from, to] = f <= t ? [f, t] : [t, f];
      const free = complement(a, from, to);
      const want: number[] = [];
      for (let k = from; k < to; k++) if (!ca.has(k)) want.push(k);
      assert.deepEqual(sorted(cells(free)), want);
    }));
  });

  it('unitedLength is the length of unite, number for number', () => {
    fc.assert(fc.property(intervals, intervals, (xs, ys) => {
      assert.equal(unitedLength(union(xs), union(ys)), lengthOf(unite(union(xs), union(ys))));
    }));
  });

  it('runsOfSorted: the runs of the starts and ends sorted apart are the union', () => {
    fc.assert(fc.property(intervals, (xs) => {
      const runs: number[] = [];
      runsOfSorted(Float64Array.from(xs, (x) => x[0]).sort(), Float64Array.from(xs, (x) => x[1]).sort(), (s, e) => runs.push(s, e));
      // Runs keep zero-length intervals as runs of their own; the union drops them.
      const nonEmpty: number[] = [];
      for (let i = 0; i < runs.length; i += 2) if (runs[i + 1] > runs[i]) nonEmpty.push(runs[i], runs[i + 1]);
      assert.deepEqual(nonEmpty, [...union(xs)]);
    }));
  });
});

describe('unionSweep (an unsorted list\'s union: starts and ends sorted apart)', () => {
  it('is what UnionBuilder makes of the intervals in order of their starts, number for number', () => {
    const real = fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e3, noNaN: true })).map(([s, d]): [number, number] => [s, s + d]);
    fc.assert(fc.property(fc.array(fc.oneof(interval, real), { maxLength: 40 }), (xs) => {
      const kept = xs.filter(([s, e]) => e > s);
      const b = new UnionBuilder(2 * kept.length);
      for (const [s, e] of [...kept].sort((x, y) => x[0] - y[0])) b.add(s, e);
      assert.deepStrictEqual(unionSweep(Float64Array.from(kept, (x) => x[0]), Float64Array.from(kept, (x) => x[1])), b.done());
    }), { numRuns: 500 });
  });
});
