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
import { element, eol, feedCut, lastBreak, layout, mutate, writeDoc } from './chromeDocText';
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
  feedCut(text, cuts, (t) => c.addText(t));
  c.endText(cutOff);
  return show(c.finish());
}

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
