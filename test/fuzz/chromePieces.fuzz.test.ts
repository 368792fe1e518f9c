// `check` reads a Chrome trace in pieces of any size and reads most events where they stand (no
// JSON.parse: core/json/objectFields.ts); the editor feeds it lines and parses every event. Both
// must say the same, to the character: random events (valid, and with every field the in-place
// reading declines — unknown or odd phases, string and huge numbers, negative durations, escapes,
// duplicate keys, nested values, broken JSON, empty objects, non-objects), written pretty-printed,
// compact or on one line, with LF, CRLF or CR line ends, cut into random pieces; and a .gz cut in
// the middle (its cut line left out either way). Also the real writers' fixtures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eol, lastBreak, mutate, writeDoc } from './chromeDocText';
import { ChromeChecker } from '../../core/chrome/checks';
import type { Diagnostic } from '../../core/common/diagnostic';
import { kinetoCompiledTrace, kinetoEagerTrace } from '../gen/kinetoGen';
import { kinetoTrainingTrace } from '../gen/kinetoTraining';

const show = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code} ${d.message}`).sort();

/** The editor's way: every line, each event through JSON.parse. */
function byLines(text: string, cutOff = false): string[] {
  const c = new ChromeChecker();
  const lines = text.split(/\r\n|\r|\n/);
  // A cut .gz: the line the cut falls in is not read.
  if (cutOff) lines.pop();
  lines.forEach((l, i) => c.add(l, i));
  return show(c.finish());
}

/** `check`'s way: pieces cut at `cuts` (offsets), most events read in place. */
function byPieces(text: string, cuts: number[], cutOff = false): string[] {
  const c = new ChromeChecker();
  let at = 0;
  for (const k of [...new Set(cuts)].filter((k) => k > 0 && k < text.length).sort((a, b) => a - b)) {
    c.addText(text.slice(at, k));
    at = k;
  }
  c.addText(text.slice(at));
  c.endText(cutOff);
  return show(c.finish());
}

const str = fc.oneof(fc.constantFrom('ac2g', 'fwdbwd', 'cpu_op', '', 'a"b', 'tab\there', 'x\\y', 'é', '\u2028'), fc.string({ maxLength: 6 }));
const num = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double({ min: -10, max: 1e7, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1e15, 12345678901234568, 1.5e300));
/** A value as text: JSON, and some text JSON does not have. */
const rawValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: num.map((n) => JSON.stringify(n)) },
  { weight: 4, arbitrary: str.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '1e400', '-0', '0.5e2', '"\\u0041"', '{}', '[]', '[1, [2, {"a": null}]]', '{"name": "x", "value": 3}', '{"a": {"b": [true]}}') },
  { weight: 1, arbitrary: fc.constantFrom('01', '1.', '"a\nb"', 'tru', '[1,]', '{"a" 1}', '"\\x"', '-', '[', '"\t"') },
);
const phase = fc.constantFrom('"X"', '"X"', '"X"', '"s"', '"f"', '"t"', '"i"', '"I"', '"B"', '"E"', '"b"', '"e"', '"C"', '"M"', '"n"', '"Q"', '"XX"', '1', '"\\u0058"');
const key = fc.constantFrom('ph', 'ts', 'dur', 'tdur', 'cat', 'id', 'id2', 'bind_id', 'flow_in', 'flow_out', 'name', 'pid', 'tid', 'args', 'bp', 's', 'p\\u0068', 'other');
const field = fc.tuple(key, rawValue).map(([k, v]) => [k, v] as [string, string]);

/** An event: mostly plausible (ph, ts, and for X a dur, for a flow an id), with random fields around. */
const event: fc.Arbitrary<[string, string][]> = fc.record({
  ph: fc.option(phase, { freq: 12 }),
  ts: fc.option(fc.oneof(num.map((n) => JSON.stringify(n)), fc.constantFrom('"12"', 'null', '1e400')), { freq: 10 }),
  dur: fc.option(fc.oneof(num.map((n) => JSON.stringify(Math.abs(n))), fc.constantFrom('-3', '"4"', 'null')), { freq: 3 }),
  id: fc.option(fc.oneof(fc.integer({ min: 0, max: 30 }).map(String), fc.constantFrom('"7"', '"a\\"b"', '1.5', '007', '12345678901234567890', '-0', '{}')), { freq: 3 }),
  cat: fc.option(fc.constantFrom('"ac2g"', '"fwdbwd"', '""', '5', '"c\\u0061t"'), { freq: 3 }),
  extra: fc.array(field, { maxLength: 4 }),
}).map(({ ph, ts, dur, id, cat, extra }) => {
  const fs: [string, string][] = [];
  if (ph !== null) fs.push(['ph', ph]);
  if (ts !== null) fs.push(['ts', ts]);
  if (dur !== null) fs.push(['dur', dur]);
  if (id !== null) fs.push(['id', id]);
  if (cat !== null) fs.push(['cat', cat]);
  return [...fs, ...extra];
});
const element = fc.oneof(
  { weight: 20, arbitrary: event.map((fs) => ({ fs })) },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[]', '7', '"x"', 'null', '{"ph": "X", "ts": 1', '}', '{"ph": "X",, "ts": 1}').map((raw) => ({ raw })) },
);
const layout = fc.constantFrom('pretty', 'compact', 'oneLine');

describe('Chrome checks: the text read in pieces says what lines say', () => {
  it('random traces, any layout, line end and pieces', () => {
    fc.assert(fc.property(
      fc.array(element, { maxLength: 12 }), layout, eol, fc.constantFrom('object', 'array', 'open'), fc.array(fc.nat(), { maxLength: 8 }),
      (els, how, nl, form, cuts) => {
        const text = writeDoc(els, how, nl, form);
        assert.deepEqual(byPieces(text, cuts.map((c) => c % (text.length + 1))), byLines(text));
      },
    ), { numRuns: 400 });
  });

  it('a mutated trace (characters dropped or doubled): the same broken events and structure', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 1, maxLength: 8 }), layout, eol, fc.nat(), fc.constantFrom('drop', 'double', 'brace', 'quote'), fc.array(fc.nat(), { maxLength: 6 }),
      (els, how, nl, at, op, cuts) => {
        const text = mutate(writeDoc(els, how, nl, 'object'), at, op);
        assert.deepEqual(byPieces(text, cuts.map((c) => c % (text.length + 1))), byLines(text));
      },
    ), { numRuns: 300 });
  });

  it('a cut .gz: the line the cut falls in is left out either way', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 1, maxLength: 8 }), fc.constantFrom('pretty', 'compact'), eol, fc.nat(), fc.array(fc.nat(), { maxLength: 4 }),
      (els, how, nl, at, cuts) => {
        const whole = writeDoc(els, how, nl, 'object');
        const text = whole.slice(0, at % whole.length);
        const last = lastBreak(text);
        assert.deepEqual(byPieces(text, last < 0 ? [] : cuts.map((c) => c % (last + 1)), true), byLines(text, true));
      },
    ), { numRuns: 200 });
  });

  it('the real writers\' traces and the generators\' (Kineto eager, compiled, a training run)', () => {
    const dir = join(__dirname, '..', 'fixtures', 'real');
    const texts = [
      ...['pytorch/eager-step.pt.trace.json', 'pytorch/compiled-step.pt.trace.json', 'pytorch/kineto-2021.pt.trace.json'].map((f) => readFileSync(join(dir, f), 'utf8')),
      kinetoEagerTrace().text, kinetoCompiledTrace().text, kinetoTrainingTrace({ steps: 2, layers: 2 }).text,
    ];
    for (const text of texts) {
      const lines = byLines(text);
      for (const piece of [7, 4096, 1 << 20]) {
        const cuts: number[] = [];
        for (let k = piece; k < text.length; k += piece) cuts.push(k);
        assert.deepEqual(byPieces(text, cuts), lines);
        assert.deepEqual(byPieces(text.replace(/\n/g, '\r\n'), cuts), byLines(text.replace(/\n/g, '\r\n')));
      }
    }
  });
});
