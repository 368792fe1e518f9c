// The window re-split behind incremental CMDQ and InferScope edits: after an edit inside an array,
// the elements must be those a full split of the new text finds, with the same offsets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { resplitArray, type ElementKind } from '../../../core/json/arrayEdit';
import { splitArray } from '../../../core/json/split';

interface El { index: number; start: number; end: number; kind: string; value: unknown }
const KIND: ElementKind<El> = {
  make: (index, start, end, kind, value) => ({ index, start, end, kind, value }),
  move: (e, index, delta) => ({ ...e, index, start: e.start + delta, end: e.end + delta }),
};

function full(text: string): El[] {
  const open = text.indexOf('[');
  const s = splitArray(text, open)!;
  return s.starts.map((start, i) => KIND.make(i, start, s.ends[i], '', JSON.parse(text.slice(start, s.ends[i]))));
}
const strip = (xs: El[]) => xs.map(({ index, start, end, value }) => ({ index, start, end, value }));

describe('resplitArray (core/json/arrayEdit)', () => {
  it('an element replaced, inserted or removed: the elements of a full split of the new text', () => {
    const value = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v));
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), fc.nat(), fc.option(value), fc.boolean(), (vals, at, repl, insert) => {
      const k = at % vals.length;
      const before = `{"a": [\n${vals.join(',\n')}\n]}`;
      const next = [...vals];
      if (insert && repl !== null) next.splice(k, 0, repl);
      else if (repl !== null) next[k] = repl;
      else if (vals.length > 1) next.splice(k, 1);
      else return;
      const after = `{"a": [\n${next.join(',\n')}\n]}`;
      const old = full(before);
      // The edit: the lines of element k (and its comma) in the old text.
      const a = old[k].start;
      const b = k + 1 < old.length ? old[k + 1].start : before.lastIndexOf(']');
      const open = before.indexOf('[');
      const got = resplitArray(old, after, open, before.lastIndexOf(']'), a, b, after.length - before.length, false, KIND);
      assert.ok(got, 'an edit inside the array is re-split');
      assert.deepEqual(strip(got), strip(full(after)));
    }));
  });

  it('an edit that breaks the array or reaches its brackets is left to the full parse', () => {
    const before = '[1, 2, 3]';
    const old = full(before);
    assert.equal(resplitArray(old, '[1, 2 3]', 0, 8, 4, 6, -1, false, KIND), undefined);
    assert.equal(resplitArray(old, '[1, {, 3]', 0, 8, 4, 5, 0, false, KIND), undefined);
    assert.equal(resplitArray(old, ' 1, 2, 3]', 0, 8, 0, 2, 0, false, KIND), undefined);
    assert.equal(resplitArray(old, '[1, 2, 3,]', 0, 8, 7, 8, 1, false, KIND), undefined);
    assert.ok(resplitArray(old, '[1, 2, 3,]', 0, 8, 7, 8, 1, true, KIND));
  });
});
