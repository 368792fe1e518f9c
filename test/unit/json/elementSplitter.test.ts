// The one streaming element splitter (under the Chrome event stream and the InferScope streamed
// reader): fed a document cut anywhere, by chunks or by lines, it must hand over each element of the
// arrays it walks with the text and offsets a reader of the whole text sees, and never loop.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CAPTURED, CLOSED, ElementSplitter, KEY, MORE, UNEXPECTED, VALUE, type Captured, type Place } from '../../../core/json/elementSplitter';
import type { BareEnd } from '../../../core/json/valueScanner';

const ROOT = 0, ITEMS = 1;

/** Walks `{"items": [...], other keys}` or a root array: captures each item and each other key's value. */
function split(pieces: string[], opts: { bareEnd?: BareEnd; cap?: number; lines?: boolean; skipStray?: boolean } = {}) {
  const got: { what: string; v: Captured }[] = [];
  const problems: { role: number; place: Place; c: string; at: number }[] = [];
  const keys: string[] = [];
  const closed: number[] = [];
  let what = '';
  const sp = new ElementSplitter(opts.bareEnd ?? 'token');
  const value = () => {
    const { role, name: key, c } = sp;
    if (role < 0) return c === 0x7b ? sp.walk(ROOT) : c === 0x5b ? sp.walk(ITEMS) : sp.stop();
    if (role === ROOT && key === 'items' && c === 0x5b) return sp.walk(ITEMS);
    if (role === ROOT && key === 'skipped') return sp.skip();
    what = role === ITEMS ? 'item' : key;
    sp.capture(opts.cap ?? 1 << 20);
  };
  const drain = () => {
    for (let k = sp.next(); k !== MORE; k = sp.next()) {
      if (k === VALUE) value();
      else if (k === CAPTURED) got.push({ what, v: { ...sp.out } });
      else if (k === KEY) keys.push(sp.name);
      else if (k === CLOSED) closed.push(sp.role);
      else if (k === UNEXPECTED) {
        problems.push({ role: sp.role, place: sp.place, c: String.fromCharCode(sp.c), at: sp.at });
        if (opts.skipStray === true && sp.place === 'element') sp.pass();
      }
    }
  };
  pieces.forEach((p, k) => {
    if (opts.lines && k > 0 && sp.lineBreak()) drain();
    sp.feed(p);
    drain();
  });
  const state = { finished: sp.finished, stopped: sp.stopped, depth: sp.depth, inValue: sp.inValue };
  if (sp.end()) got.push({ what, v: { ...sp.out } });
  return { got, problems, keys, closed, state };
}

/** `text` cut into pieces of the given sizes (cycled). */
function cut(text: string, sizes: number[]): string[] {
  const out: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const item = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, Math.random() < 0.5 ? 1 : 0));

describe('ElementSplitter (core/json/elementSplitter)', () => {
  it('hands over every element with its text and offsets, however the document is cut', () => {
    fc.assert(fc.property(fc.array(item, { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }), (items, sizes) => {
      const doc = `\uFEFF{"meta": {"a":[1,"]"]}, "skipped": [{"x":"}"}], "items": [ ${items.join(' ,\n ')} ], "last": "x\\"y"}`;
      const { got, problems, keys, closed, state } = split(cut(doc, sizes));
      assert.deepEqual(problems, []);
      assert.deepEqual(keys, ['meta', 'skipped', 'items', 'last']);
      assert.deepEqual(closed, [ITEMS, ROOT]);
      assert.equal(state.finished, true);
      assert.deepEqual(got.map((g) => g.what), ['meta', ...items.map(() => 'item'), 'last']);
      for (const { v } of got) {
        assert.equal(doc.slice(v.start, v.end), v.text);
        assert.doesNotThrow(() => JSON.parse(v.text), v.text);
      }
      assert.deepEqual(got.filter((g) => g.what === 'item').map((g) => JSON.parse(g.v.text) as unknown), items.map((t) => JSON.parse(t) as unknown));
    }), { numRuns: 150 });
  });

  it('fed by lines, counts each line break as a character and gives each element the starts of its lines', () => {
    const doc = '[{"a":\n1,\n"b":2},\n{"c":3}\n]';
    const { got, state } = split(doc.split('\n'), { lines: true });
    assert.equal(state.finished, true);
    assert.deepEqual(got.map((g) => [g.v.text, g.v.start, g.v.end, g.v.lineStarts]), [['{"a":\n1,\n"b":2}', 1, 16, [6, 9]], ['{"c":3}', 18, 25, undefined]]);
  });

  it('ends a bare value at its token, or (Chrome) at the next delimiter', () => {
    assert.deepEqual(split(['[1 x, tru', 'e]']).got.map((g) => g.v.text), ['1', 'x', 'true']);
    assert.deepEqual(split(['[1 x, tru', 'e]'], { bareEnd: 'delimiter' }).got.map((g) => g.v.text), ['1 x', ' true'.trim()]);
  });

  it('keeps the start of a value over the cap and says it is oversized', () => {
    const { got } = split(['[{"a":"', 'x'.repeat(30), '"}, 5]'], { cap: 10 });
    assert.deepEqual(got.map((g) => [g.v.text, g.v.oversized]), [['{"a":"xxxx', true], ['5', false]]);
  });

  it('hands over a value cut by the end of the document as cut, and tells an unclosed container', () => {
    const { got, state } = split(['{"items":[{"a":1},{"b":']);
    assert.deepEqual(state, { finished: false, stopped: false, depth: 2, inValue: true });
    assert.deepEqual(got.map((g) => [g.v.text, g.v.cut]), [['{"a":1}', false], ['{"b":', true]]);
  });

  it('asks the format about a character out of place, and passes over it or stops as told, never looping on it', () => {
    const stop = split(['{"items":[}, 1]} x']);
    assert.deepEqual(stop.problems, [{ role: ITEMS, place: 'element', c: '}', at: 10 }]);
    assert.equal(stop.state.stopped, true);
    assert.deepEqual(stop.got, []);
    const skip = split(['{"items":[}, 1]} x'], { skipStray: true });
    assert.deepEqual(skip.got.map((g) => g.v.text), ['1']);
    assert.deepEqual(skip.problems.map((p) => p.place), ['element', 'after']);
    assert.deepEqual(split(['{"a" 1}']).problems.map((p) => p.place), ['colon']);
    assert.deepEqual(split(['{1:2}']).problems.map((p) => p.place), ['key']);
  });
});
