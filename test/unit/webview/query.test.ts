/**
 * The renderer's per-pixel search (webview/query.ts gallopVia) against a plain scan, on rows of
 * many sizes, from every start position, with and without a filter's item list.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gallopVia, lowerBoundVia } from '../../../webview/query';

/** Row sizes around powers of two, where the gallop's probes land. */
const SAMPLE = 32;

/** Two rows of sorted starts back to back (the second restarts at 0, as rows do), with repeats. */
function column(rowA: number, rowB: number, seed: number): Float64Array {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const a = new Float64Array(rowA + rowB);
  for (let i = 1; i < rowA; i++) a[i] = a[i - 1] + Math.floor(rnd() * 3);
  for (let i = rowA + 1; i < rowA + rowB; i++) a[i] = a[i - 1] + Math.floor(rnd() * 3);
  return a;
}

const scan = (a: Float64Array, ix: Uint32Array | undefined, lo: number, hi: number, x: number) => {
  let p = lo;
  while (p < hi && (ix ? a[ix[p]] : a[p]) < x) p++;
  return p;
};

test('gallopVia finds what a scan finds: every start position and target in two rows', () => {
  for (const [rowA, rowB] of [[1, 1], [SAMPLE - 1, 5], [SAMPLE, SAMPLE], [SAMPLE + 1, 3 * SAMPLE + 7], [5 * SAMPLE + 3, 2]]) {
    const a = column(rowA, rowB, rowA * 31 + rowB);
    for (const [lo, hi] of [[0, rowA], [rowA, rowA + rowB]]) {
      for (let from = lo; from <= hi; from++) {
        for (let x = a[lo] - 1; x <= a[hi - 1] + 1; x += 0.5) {
          assert.equal(gallopVia(a, undefined, from, hi, x), scan(a, undefined, from, hi, x), `rows ${rowA}/${rowB}, [${from}, ${hi}), x = ${x}`);
        }
      }
    }
  }
});

test('gallopVia over a filter\'s item list searches the listed items only', () => {
  const a = column(10 * SAMPLE + 5, 4 * SAMPLE, 7);
  const keep: number[] = [];
  for (let i = 0; i < a.length; i++) if (i % 3 !== 1) keep.push(i);
  const ix = Uint32Array.from(keep);
  const split = keep.findIndex((i) => i >= 10 * SAMPLE + 5);
  for (const [lo, hi] of [[0, split], [split, ix.length]]) {
    for (let from = lo; from <= hi; from += 3) {
      for (let x = a[ix[lo]] - 1; x <= a[ix[hi - 1]] + 1; x += 1.5) {
        assert.equal(gallopVia(a, ix, from, hi, x), scan(a, ix, from, hi, x), `[${from}, ${hi}), x = ${x}`);
        assert.equal(lowerBoundVia(a, ix, from, hi, x), scan(a, ix, from, hi, x));
      }
    }
  }
});
