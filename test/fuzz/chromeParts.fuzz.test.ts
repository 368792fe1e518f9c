// `check` of a big Chrome trace reads it in parts on several threads (cli/parallelChrome.ts): each
// part from a guessed event start, after a prefix, its order-dependent events and flows merged by
// the checker of the whole (core/chrome/parts.ts, partsMerge.ts). Whatever the guesses — true event
// starts, a `{` inside an event, inside a string, in a broken or cut document — the result must be
// the one pass's, to the character, the cap and its count included; and a guess at a true event
// start of a well-formed document must be taken, not read again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { element, eol, layout, mutate, writeDoc } from './chromeDocText';
import { ChromeChecker } from '../../core/chrome/checks';
import { partChecker, PartsMerge, type PartOutcome } from '../../core/chrome/partsMerge';
import type { PartForm } from '../../core/chrome/parts';
import type { Diagnostic } from '../../core/common/diagnostic';
import { defaultDiagnosticSettings } from '../../core/common/settings';
import { kinetoTrainingTrace } from '../gen/kinetoTraining';

const show = (r: { diagnostics: Diagnostic[]; hasError: boolean }) =>
  [`hasError ${r.hasError}`, ...r.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code} ${d.message}`)];

/** Cuts `s` into pieces of `size` characters. */
function feedIn(s: string, size: number, feed: (p: string) => void): void {
  for (let i = 0; i < s.length; i += size) feed(s.slice(i, i + size));
}

function onePass(text: string, max: number, size: number): string[] {
  const c = new ChromeChecker({ maxProblems: max });
  feedIn(text, size, (p) => c.addText(p));
  c.endText();
  return show(c.finishCapped({ ...defaultDiagnosticSettings, maxProblems: max }));
}

/** The document cut at `starts` (sorted, past 0), part 0 read by the whole's checker, the others by part checkers. */
function inParts(text: string, starts: number[], form: PartForm, max: number, size: number): { out: string[]; outcomes: PartOutcome[] } {
  const bounds = [0, ...starts, text.length];
  const parts = starts.map((_, j) => {
    const c = partChecker(form, { maxProblems: max });
    feedIn(text.slice(bounds[j + 1], bounds[j + 2]), size, (p) => c.feed(p));
    return c.result(j === starts.length - 1);
  });
  const m = new PartsMerge({ maxProblems: max });
  feedIn(text.slice(0, bounds[1]), size, (p) => m.feed(p));
  const outcomes: PartOutcome[] = [];
  for (const p of parts) {
    const o = m.merge(p);
    outcomes.push(o);
    if (o === 'read-on') {
      feedIn(text.slice(bounds[1]), size, (p) => m.readOn(p));
      break;
    }
    if (o === 'again') return { out: onePass(text, max, size), outcomes };
  }
  return { out: show(m.finishCapped({ ...defaultDiagnosticSettings, maxProblems: max })), outcomes };
}

/** The form a reader of the file's head guesses (cli/parallelChrome.ts): from its first character. */
const formOf = (text: string): PartForm => (text.trimStart().startsWith('[') ? 'array' : 'object');

/** Offsets of the `{` of each event start a pretty or compact writer puts on its own line. */
function eventStarts(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?:\r\n|\r|\n) {2}\{/g)) out.push(m.index + m[0].length - 1);
  return out;
}

/** Split points moved to the next `{` at or after each (true event starts or not), distinct, sorted. */
function guesses(text: string, at: number[]): number[] {
  const out = new Set<number>();
  for (const a of at) {
    const k = text.indexOf('{', (a % text.length) + 1);
    if (k > 0) out.add(k);
  }
  return [...out].sort((a, b) => a - b);
}

const MAX = fc.constantFrom(Infinity, 1000, 3, 1);
const SIZE = fc.constantFrom(5, 64, 1 << 20);

describe('Chrome check in parts: what the one pass says, wherever the parts start', () => {
  it('random traces, parts at random `{`: the same problems, the same cap', () => {
    fc.assert(fc.property(
      fc.array(element, { maxLength: 14 }), layout, eol, fc.constantFrom('object', 'array', 'open'), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), MAX, SIZE,
      (els, how, nl, form, at, max, size) => {
        const text = writeDoc(els, how, nl, form);
        const starts = guesses(text, at);
        fc.pre(starts.length > 0);
        assert.deepEqual(inParts(text, starts, formOf(text), max, size).out, onePass(text, max, size));
      },
    ), { numRuns: 400 });
  });

  it('a well-formed trace cut at its events\' starts: every part is taken, and says what the one pass says', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 2, maxLength: 14 }), fc.constantFrom('pretty', 'compact'), eol, fc.constantFrom('object', 'array', 'open'), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), MAX,
      (els, how, nl, form, at, max) => {
        const text = writeDoc(els, how, nl, form);
        const all = eventStarts(text);
        fc.pre(all.length > 1);
        const starts = [...new Set(at.map((a) => all[1 + (a % (all.length - 1))]))].sort((a, b) => a - b);
        const r = inParts(text, starts, formOf(text), max, 1 << 20);
        assert.deepEqual(r.out, onePass(text, max, 1 << 20));
        let valid = true;
        try {
          JSON.parse(form === 'open' ? `${text.trimEnd().replace(/,$/, '')}]` : text);
        } catch {
          valid = false;
        }
        if (valid) assert.deepEqual(r.outcomes, starts.map(() => 'merged'));
      },
    ), { numRuns: 300 });
  });

  it('a mutated trace (a character dropped, doubled, a brace or quote put in): the same', () => {
    fc.assert(fc.property(
      fc.array(element, { minLength: 1, maxLength: 10 }), layout, eol, fc.nat(), fc.constantFrom('drop', 'double', 'brace', 'quote'), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), MAX,
      (els, how, nl, k, op, at, max) => {
        const text = mutate(writeDoc(els, how, nl, 'object'), k, op);
        const starts = guesses(text, at);
        fc.pre(starts.length > 0);
        assert.deepEqual(inParts(text, starts, formOf(text), max, 64).out, onePass(text, max, 64));
      },
    ), { numRuns: 300 });
  });

  it('flows only, few ids and times, across 2 to 5 parts: paired, unfolded and left open as in one pass', () => {
    // Equal times and reused ids make ties and flows paired in one part and met again in a later one.
    const flowEvent = fc.tuple(fc.constantFrom('s', 's', 't', 'f', 'f', 'X'), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 4 }), fc.boolean())
      .map(([ph, id, ts, out]) => ph === 'X'
        ? `{"ph": "X", "ts": ${ts}, "dur": 1, "pid": 1, "tid": 1, "bind_id": ${id}, ${out ? '"flow_out": true' : '"flow_in": true'}}`
        : `{"ph": "${ph}", "cat": "c", "id": ${id}, "ts": ${ts}, "pid": 1, "tid": 1}`);
    fc.assert(fc.property(fc.array(flowEvent, { minLength: 2, maxLength: 60 }), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (evs, at) => {
      const text = `{"traceEvents": [\n  ${evs.join(',\n  ')}\n]}\n`;
      const all = eventStarts(text);
      // Parts start anywhere, the first one often early (flows first met in a later part are taken as they are).
      const starts = [...new Set(at.map((a, j) => all[1 + (a % (j === 0 ? Math.min(3, all.length - 1) : all.length - 1))]))].sort((a, b) => a - b);
      const r = inParts(text, starts, 'object', Infinity, 1 << 20);
      assert.deepEqual(r.outcomes, starts.map(() => 'merged'));
      assert.deepEqual(r.out, onePass(text, Infinity, 1 << 20));
    }), { numRuns: 500 });
  });

  it('the end: an events array given twice, the first closed before the part, the second cut in it', () => {
    const head = '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}], "traceEvents": [\n  {"ph": "X", "ts": 2, "dur": 1},\n  ';
    for (const tail of ['{"ph": "X", "ts": 3, "dur": 1}', '{"ph": "X", "ts": 3, "dur": 1}]}', '{"ph": "X", "ts": 3, "dur": 1}]', '{"ph": "X", "ts": 3']) {
      const text = head + tail;
      const r = inParts(text, [head.length], 'object', Infinity, 1 << 20);
      assert.deepEqual(r.outcomes, ['merged']);
      assert.deepEqual(r.out, onePass(text, Infinity, 1 << 20));
    }
  });

  it('B/E, b/e, M and flows across parts are paired as in one pass (a training trace cut anywhere)', () => {
    const text = kinetoTrainingTrace({ steps: 2, layers: 2 }).text;
    const all = eventStarts(text);
    const one = onePass(text, Infinity, 1 << 20);
    for (const n of [2, 3, 7]) {
      const starts = Array.from({ length: n - 1 }, (_, j) => all[Math.floor(((j + 1) * all.length) / n)]);
      const r = inParts(text, starts, 'object', Infinity, 1 << 20);
      assert.deepEqual(r.outcomes, starts.map(() => 'merged'));
      assert.deepEqual(r.out, one);
    }
  });
});
