// The hand-written row reader must read every row exactly as the reference regex does, or leave it
// to the regex. Rows are built from pieces chosen to sit on the regex's edges: tasks with dashes and
// spaces, 1–17 characters, Unicode spaces, a second marker inside the mark, timestamps without a
// leading space, line terminators, and then character damage anywhere.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ChunkRowReader, parseRowLine, readNewRow, regexNewRow, regexOldRow } from '../../core/nnapi/row';

// The reference's row regexes, verbatim: only here, as the oracle of the ones the reader runs.
const REF_NEW = /^\s*([^ ].{1,15})-(\d+)\s+\(\s*([-0-9]+)\) .* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;
const REF_OLD = /^\s*([^ ].{1,15})-(\d+) .* (\d+\.\d+): tracing_mark_write: ([BE].*)$/;
const groups = (m: RegExpExecArray | null) => (m ? [...m] : null);

const MARKER = 'tracing_mark_write: ';
const piece = (xs: string[]) => fc.constantFrom(...xs);
const task = fc.oneof(
  piece(['NeuralNetworks', 'HwBinder:2000_1', 'a', 'ab', 'a-1', 'task name', 'x-12-y', 'abcdefghijklmnopq', '1234567890123456', '-', 'a\u2028b', '\tz', 'ab-1 (2) c', 'q-5\t(-) r']),
  fc.string({ minLength: 1, maxLength: 18, unit: fc.constantFrom('a', '-', '1', ' ', '\t', '\u00a0', '(', ')') }),
);
const lead = piece(['', ' ', '  ', '\t', '\u3000 ', '\ufeff']);
const pid = piece(['1000', '7', '', 'x', '12a']);
const gap = piece([' ', '  ', '\t', '', '\u2003']);
const tgid = piece(['1000', ' 1000', '-----', '', '1-2', 'ab']);
const close = piece([') ', ')', ')  ', ') x']);
const middle = piece(['[000] ...1   ', '[001] d..2 ', '', ' ', '[0]', 'x 1.5: ']);
const digits = (max: number) => fc.string({ minLength: 1, maxLength: max, unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9') });
// Up to 24 digits: the reader computes the double itself below 16 and must equal `Number` either way.
const time = fc.oneof(piece(['100.000003', '1.5', '.5', '5.', '12', '0.0', '99999999.999999']), fc.tuple(digits(12), digits(12)).map(([a, b]) => `${a}.${b}`));
const sep = piece([': ', ':', ' : ']);
const mark = piece(['B|1000|[NN_LA_PO]run', 'E', 'E|1000', 'B', 'X|1', `B|1|x ${'1.0: '}${MARKER}E`, 'B|1|\u2029', 'B|1|[NN_LR_PE]ANeuralNetworksEvent_wait']);

const row = fc.tuple(lead, task, pid, gap, tgid, close, middle, time, sep, mark)
  .map(([l, t, p, g, tg, c, m, ti, s, mk]) => `${l}${t}-${p}${g}(${tg}${c}${m} ${ti}${s}${MARKER}${mk}`);
// Well-formed rows with varied tasks, so the fast path is exercised, not only its refusals.
const good = fc.tuple(lead, task, fc.constantFrom('1000', '7'), fc.constantFrom(' ', '  '), fc.constantFrom('1000', ' 1000', '-----'), time, mark)
  .map(([l, t, p, g, tg, ti, mk]) => `${l}${t}-${p}${g}(${tg}) [000] ...1   ${ti}: ${MARKER}${mk}`);
const damaged = fc.tuple(fc.oneof(row, good), fc.nat(), fc.string({ maxLength: 3 }), fc.boolean()).map(([r, at, ins, cut]) => {
  const i = at % (r.length + 1);
  return cut ? r.slice(0, i) + r.slice(i + 1) : r.slice(0, i) + ins + r.slice(i);
});

// Old rows (no tgid column) and rows with line separators, to reach every regex path.
const oldRow = fc.tuple(lead, task, pid, time, sep, mark).map(([l, t, p, ti, s, mk]) => `${l}${t}-${p} [000] ...1 ${ti}${s}${MARKER}${mk}`);
const separated = fc.tuple(fc.oneof(row, good, oldRow), fc.nat(), fc.constantFrom('\u2028', '\u2029', '\r', '\n', '\t')).map(([r, at, c]) => {
  const i = at % (r.length + 1);
  return r.slice(0, i) + c + r.slice(i);
});

describe('row regexes', () => {
  it('match exactly what the reference regexes match, with the same groups', () => {
    let matched = 0;
    let separatedMatched = 0;
    fc.assert(fc.property(fc.oneof(row, good, damaged, oldRow, separated), (line) => {
      const n = groups(REF_NEW.exec(line));
      if (n) matched++;
      if (n && /[\u2028\u2029\t]/.test(line)) separatedMatched++;
      const want = n ? { task: n[1], pid: n[2], tgidColumn: n[3], time: Number(n[4]), mark: n[5] } : undefined;
      const got = regexNewRow(line);
      assert.deepEqual(got && { task: got.task, pid: got.pid, tgidColumn: got.tgidColumn, time: got.time, mark: got.mark }, want, JSON.stringify(line));
      const o = groups(REF_OLD.exec(line));
      const gotOld = regexOldRow(line);
      assert.deepEqual(gotOld && { task: gotOld.task, pid: gotOld.pid, time: gotOld.time, mark: gotOld.mark },
        o ? { task: o[1], pid: o[2], time: Number(o[3]), mark: o[4] } : undefined, JSON.stringify(line));
    }), { numRuns: 20_000 });
    assert.ok(matched > 2_000 && separatedMatched > 50, `${matched} rows matched, ${separatedMatched} with separators or tabs`);
  });
});

describe('readNewRow', () => {
  it('reads what the reference regex reads, or leaves the row to it', () => {
    let fast = 0;
    fc.assert(fc.property(fc.oneof(row, good, damaged), (line) => {
      const at = line.indexOf(MARKER);
      const got = at >= 0 ? readNewRow(line, at) : undefined;
      if (got) {
        fast++;
        assert.deepEqual(got, regexNewRow(line), line);
      }
      // Whatever path it took, the public reader agrees with the regex on new-style rows.
      const want = regexNewRow(line);
      if (want) assert.deepEqual(parseRowLine(line), want, line);
    }), { numRuns: 20_000 });
    // The fast path must be the one taken for ordinary rows, or it buys nothing.
    assert.ok(fast > 1_500, `fast path taken ${fast} times`);
  });

  it('reads a line inside a chunk of other lines as it reads the line alone', () => {
    const lines = fc.array(fc.oneof(row, good, damaged, fc.string({ maxLength: 20 })), { minLength: 1, maxLength: 8 });
    fc.assert(fc.property(lines, (ls) => {
      const text = ls.join('\n');
      const reader = new ChunkRowReader();
      let start = 0;
      ls.forEach((l, i) => {
        const end = start + l.length;
        // Lines are split on line terminators before they reach the reader.
        if (!/[\n\r]/.test(l)) assert.deepEqual(reader.read(text, start, end, 1), parseRowLine(l), `line ${i}: ${l}`);
        start = end + 1;
      });
    }), { numRuns: 5_000 });
  });

  it('takes the fast path on the rows simulators and atrace write', () => {
    for (const line of [
      '  NeuralNetworks-1000  ( 1000) [000] ...1   100.000003: tracing_mark_write: B|1000|[NN_LA_PO]bench_run',
      '  HwBinder:2000_1-2001  ( 2000) [005] ...1   100.000018: tracing_mark_write: E',
      '          <...>-31245 (-----) [001] ...1 12345.678901: tracing_mark_write: E|31245',
    ]) {
      const r = readNewRow(line, line.indexOf(MARKER));
      assert.ok(r, line);
      assert.deepEqual(r, regexNewRow(line));
    }
    assert.deepEqual(readNewRow('  HwBinder:2000_1-2001  ( 2000) [005] ...1   100.000018: tracing_mark_write: E', 57)?.task, 'HwBinder:2000_1');
  });
});
