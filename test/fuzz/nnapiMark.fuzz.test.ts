// The tag scanner must find exactly what the reference's tag regex finds (groups and indices), and
// its cost must stay linear in the mark's length. Marks are built from the pieces the regex's
// backtracking feeds on — `B|<n>|`, brackets, pipes, line terminators — repeated in long runs,
// then damaged. The regex is the oracle, on inputs short enough for it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readBeginMark, readBeginMarkUncached, tagRange } from '../../core/nnapi/mark';
import { parseRowLine } from '../../core/nnapi/row';
import { lastTagScanSteps, matchTag } from '../../core/nnapi/tagMatch';

// The reference's regex, verbatim: only here, as the oracle.
const TAG = /B\|\d+\|.*\[([^\]]+)\]\[?([^\]])\]?/d;

function oracle(text: string) {
  const m = TAG.exec(text);
  if (!m) return undefined;
  return { index: m.index, end: m.index + m[0].length, tagStart: m.indices![1][0], tagEnd: m.indices![1][1], nextStart: m.indices![2][0] };
}

const piece = fc.constantFrom('B|1|', 'B|', 'B|12|', '|', 'B', '1', '[', ']', '[[', ']]', '][', '[NN_LR_PE]', '[SW]', '[SUB]', 'f', 'x y', '\n', '\r',
  '\u2028', '\u2029', 'B|1|[', '[NN_', '_', 'E|1', '|B|2|');
const run = fc.tuple(piece, fc.integer({ min: 1, max: 40 })).map(([p, k]) => p.repeat(k));
const markText = fc.oneof(
  fc.array(piece, { maxLength: 30 }).map((xs) => xs.join('')),
  fc.array(fc.oneof(piece, run), { maxLength: 8 }).map((xs) => xs.join('')),
  fc.string({ maxLength: 40, unit: fc.constantFrom('B', '|', '1', '[', ']', 'a', '\n') }),
);
const damaged = fc.tuple(markText, fc.nat(), fc.string({ maxLength: 3 }), fc.boolean()).map(([r, at, ins, cut]) => {
  const i = at % (r.length + 1);
  return cut ? r.slice(0, i) + r.slice(i + 1) : r.slice(0, i) + ins + r.slice(i);
});

/** Work the scanner may do on a text of this length: a few visits per character (four terminator searches among them). */
const stepBound = (len: number) => 10 * len + 16;

describe('tag scanner', () => {
  it('finds what the reference regex finds: same start, end and groups', () => {
    fc.assert(fc.property(fc.oneof(markText, damaged), (text) => {
      assert.deepEqual(matchTag(text), oracle(text), JSON.stringify(text));
      assert.ok(lastTagScanSteps() <= stepBound(text.length), `${lastTagScanSteps()} steps for ${text.length} chars`);
    }), { numRuns: 30_000 });
  });

  it('finds it on marks without line terminators too (the scanner has a path of its own for them)', () => {
    fc.assert(fc.property(fc.oneof(markText, damaged).map((t) => t.replace(/[\n\r\u2028\u2029]/g, '')), (text) => {
      assert.deepEqual(matchTag(text), oracle(text), JSON.stringify(text));
      assert.ok(lastTagScanSteps() <= stepBound(text.length), `${lastTagScanSteps()} steps for ${text.length} chars`);
    }), { numRuns: 20_000 });
  });

  it('agrees on the marks traces carry', () => {
    for (const text of ['B|1|[NN_LR_PE]f', 'B|1|[SW][NN_LA_PR]executeWithCompilation', 'B|1|[NN_LR_PC]', 'B|1|HIDL::IDevice::x::client',
      'B|1|[NN_LR]c', 'B|1|[x]y[NN_LI_PC]z', 'B|1|[NN_LR_PC][', 'B|1|[NN_LR_PC][]', 'B|1|[a]]', 'xB|1|[a]b', 'B|1|\n[a]b', 'B|1|[a\n]b']) {
      assert.deepEqual(matchTag(text), oracle(text), text);
    }
  });

  it('does linear work on long runs of what the regex backtracks on', () => {
    for (const unit of ['B|1|[', '[', 'B|1|', '[a', 'B|1|[a]', '[]', 'B|1|]', 'B|1|\u2028', '|B|1|[[']) {
      for (const k of [1_000, 4_000]) {
        const text = unit.repeat(k) + 'x';
        matchTag(text);
        assert.ok(lastTagScanSteps() <= stepBound(text.length), `${unit} × ${k}: ${lastTagScanSteps()} steps`);
      }
    }
  });

  it('reads a hostile mark through the whole reader with the same tag range as the regex', () => {
    fc.assert(fc.property(fc.oneof(markText, damaged), (text) => {
      const want = oracle(text);
      const [a, b] = tagRange(text);
      if (want) assert.deepEqual([a, b], [want.tagStart - 1, want.tagEnd + 1]);
      assert.doesNotThrow(() => readBeginMark(text));
    }), { numRuns: 5_000 });
  });
});

/** Seconds per call of `f`, the best of a few batches each long enough to measure. */
function perCall(f: () => void): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    let calls = 0;
    const t0 = performance.now();
    let t = t0;
    do {
      f();
      calls++;
      t = performance.now();
    } while (t - t0 < 15);
    best = Math.min(best, (t - t0) / calls);
  }
  return best;
}

describe('whole-row reading cost', () => {
  // The reader as a whole (row regexes, fix-ups, function name, tag) on hostile rows: the time for
  // an 8× longer row must grow about 8×, not 64× (quadratic) or 512× (cubic). A ratio of times in
  // one process, not a wall-clock limit; the mark cache is left out (it would answer repeats).
  // A line separator at the end makes the row regexes' `$` fail after every marker (no row then).
  const hostile = fc.tuple(fc.constantFrom('B|1|[', '[', 'B|1|[a]', '|', '[]B|1|', ' 1.5: tracing_mark_write: B|1|[', '-1 (1) ', ' 1.5: tracing_mark_write: B'),
    fc.constantFrom('', 'x', ']', '\u2028'));
  const make = ([unit, tail]: [string, string], k: number) => `  task-1  (    1) [000] ...1   1.000000: tracing_mark_write: B|1|${unit.repeat(k)}${tail}`;
  it('grows linearly with the length of a hostile row', () => {
    fc.assert(fc.property(hostile, (pieces) => {
      const cost = (k: number) => {
        const line = make(pieces, k);
        return perCall(() => {
          const r = parseRowLine(line);
          assert.equal(r?.kind, pieces[1] === '\u2028' ? 'unparsed' : 'row');
          if (r?.kind === 'row' && r.mark.startsWith('B')) readBeginMarkUncached(r.mark);
        });
      };
      // Measured again when over the bound: a regex engine's tier-up can slow one measurement;
      // a super-linear reader fails every time.
      let ratio = cost(800) / cost(100);
      if (ratio >= 24) ratio = Math.min(ratio, cost(800) / cost(100));
      assert.ok(ratio < 24, `×8 length cost ×${ratio.toFixed(1)}`);
    }), { numRuns: 24 });
  });
});
