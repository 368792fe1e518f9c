import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IntervalList } from '../../../core/inferscope/intervals';

/** The merge by start the lists did before: [start, end] of each run of overlapping or touching intervals. */
function byStart(iv: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...iv].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const listOf = (iv: [number, number][]) => {
  const l = new IntervalList(1);
  for (const [a, b] of iv) l.push(a, b);
  return l;
};

const interval = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 15 })).map(([a, d]): [number, number] => [a, a + d]);

describe('IntervalList', () => {
  it('merges overlapping and touching intervals, zero-length ones too, as a merge by start does (property)', () => {
    fc.assert(fc.property(fc.array(interval, { maxLength: 80 }), (iv) => {
      const m = listOf(iv).merged();
      const got: [number, number][] = [];
      for (let i = 0; i < m.length; i++) got.push([m.starts[i], m.ends[i]]);
      assert.deepEqual(got, byStart(iv));
    }));
  });

  it('gives the union length of one list and of several as one', () => {
    fc.assert(fc.property(fc.array(interval, { maxLength: 60 }), fc.array(interval, { maxLength: 60 }), (x, y) => {
      const want = (iv: [number, number][]) => byStart(iv).reduce((t, [a, b]) => t + (b - a), 0);
      assert.equal(listOf(x).unionLength(), want(x));
      assert.equal(IntervalList.unionLength(listOf(x), listOf(y)), want([...x, ...y]));
    }));
    assert.equal(IntervalList.unionLength(listOf([[0, 1], [1, 2], [5, 5], [3, 4]])), 3);
    assert.equal(new IntervalList().merged().length, 0);
  });

  it('spends a list on its runs: the same runs as merged, and the list left empty', () => {
    fc.assert(fc.property(fc.array(interval, { maxLength: 80 }), (iv) => {
      const l = listOf(iv);
      const got: [number, number][] = [];
      l.spendRuns((a, b) => got.push([a, b]));
      assert.deepEqual(got, byStart(iv));
      assert.equal(l.length, 0);
    }));
  });
});
