/**
 * The renderer's per-pixel search (webview/query.ts gallopVia) against a plain scan, on rows of
 * many sizes, from every start position, with and without a filter's item list.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTimeline } from '../../../core/detectFormat';
import { gallopVia, lowerBoundVia, ModelIndex } from '../../../webview/query';

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

test('the cursor on any line of a pretty-printed Chrome event finds its item (export_chrome_trace writes a field a line)', () => {
  const text = readFileSync(join(__dirname, '../../fixtures/real/pytorch/eager-step.pt.trace.json'), 'utf8');
  const lines = text.split('\n');
  const m = buildTimeline('eager-step.pt.trace.json', lines)!;
  assert.ok(m.lastLine, 'the model keeps the last line of multi-line events');
  const ix = new ModelIndex(m);
  // Every line of the first ProfilerStep's event: its opening brace, its "ts", its "args" and its closing brace.
  const first = lines.findIndex((l) => l.includes('"name": "ProfilerStep#2"'));
  let open = first;
  while (!lines[open].trim().startsWith('{')) open--;
  let close = first;
  while (!lines[close].trim().startsWith('}')) close++;
  const item = ix.itemOfLine[open];
  assert.ok(item >= 0);
  assert.equal(m.strings[m.items.name[item]], 'ProfilerStep#2');
  for (let l = open; l <= close; l++) assert.equal(ix.itemOfLine[l], item, `line ${l + 1}: ${lines[l]}`);
  // A one-line trace needs no such column.
  assert.equal(buildTimeline('x.json', [JSON.stringify({ traceEvents: [{ ph: 'X', name: 'a', pid: 1, tid: 1, ts: 1, dur: 1 }] })])!.lastLine, undefined);
});
