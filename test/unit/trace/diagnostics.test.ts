// One fixture per diagnostic code: exact codes, lines, token ranges, severities and messages.
import { FILE_CODES } from '../../../core/common/fileCodes';
import { TRACE_CODES } from '../../../core/trace/codes';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Severity } from '../../../core/common/diagnostic';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { splitLines } from '../../../core/common/lines';
import { TraceDocument } from '../../../core/trace/document';
import { readdirSync } from 'node:fs';
import { byPosition, fixture, FIXTURES, tokenRange } from './helpers';

interface Expected {
  line: number;
  /** The exact text the range must cover, found on the line after `after`. */
  token: string;
  after?: string;
  code: string;
  severity: Severity;
  /** Every pattern must match: what is wrong, and what was expected. */
  message: RegExp[];
  related?: { line: number; token: string; after?: string; message: RegExp };
}

const CASES: Record<string, Expected[]> = {
  'invalid-json.trace.jsonl': [
    // The missing comma: the range is the quote where ',' or '}' was expected.
    { line: 1, token: '"', after: '"cmd_id":42 ', code: 'trace.invalid-json', severity: 'error', message: [/^Invalid JSON/, /expected ',' or '}'/] },
  ],
  'not-object.trace.jsonl': [
    { line: 1, token: '["CMD_START",150,42]', code: 'trace.not-object', severity: 'error', message: [/one JSON object/, /an array/] },
  ],
  'unknown-event-type.trace.jsonl': [
    { line: 1, token: '"CMD_STRAT"', code: 'trace.unknown-event-type', severity: 'error', message: [/Unknown event_type "CMD_STRAT"/, /did you mean "CMD_START"\?/] },
  ],
  'missing-field.trace.jsonl': [
    { line: 0, token: '"DMA_START"', code: 'trace.missing-field', severity: 'error', message: [/DMA_START is missing required field "channel"/, /an integer/] },
  ],
  'wrong-type.trace.jsonl': [
    { line: 0, token: '"64KB"', code: 'trace.wrong-type', severity: 'error', message: [/"size_bytes" must be an integer/, /got the string "64KB"/] },
  ],
  'invalid-value.trace.jsonl': [
    { line: 1, token: '"FAIL"', code: 'trace.invalid-value', severity: 'error', message: [/"status" must be one of OK, ERROR, TIMEOUT, ABORTED/, /got the string "FAIL"/] },
  ],
  'unmatched-start.trace.jsonl': [
    { line: 0, token: '1001', after: '"job_id":', code: 'trace.unmatched-start', severity: 'error', message: [/TE_START for job_id 1001/, /no TE_END after it/] },
  ],
  'unmatched-end.trace.jsonl': [
    { line: 2, token: '501', after: '"tx_id":', code: 'trace.unmatched-end', severity: 'error', message: [/DMA_END for tx_id 501/, /no open DMA_START before it/] },
  ],
  'end-before-start.trace.jsonl': [
    { line: 1, token: '280', after: '"t_cycle":', code: 'trace.end-before-start', severity: 'error', message: [/VE_END at cycle 280 is before its VE_START at cycle 300/, /line 1/],
      related: { line: 0, token: '300', after: '"t_cycle":', message: /VE_START/ } },
    // An END earlier than its START necessarily steps back in time too.
    { line: 1, token: '280', after: '"t_cycle":', code: 'trace.time-backwards', severity: 'warning', message: [/t_cycle 280 is lower than 300 on line 1/, /time order/] },
  ],
  'latency-mismatch.trace.jsonl': [
    { line: 1, token: '50', after: '"latency_cycles":', code: 'trace.latency-mismatch', severity: 'warning', message: [/latency_cycles is 50/, /260 − 200 = 60/],
      related: { line: 0, token: '200', after: '"t_cycle":', message: /JOB_ISSUE/ } },
  ],
  'time-backwards.trace.jsonl': [
    { line: 2, token: '230', after: '"t_cycle":', code: 'trace.time-backwards', severity: 'warning', message: [/t_cycle 230 is lower than 236 on line 2/, /time order/],
      related: { line: 1, token: '236', after: '"t_cycle":', message: /previous event/ } },
  ],
  'unknown-cmd.trace.jsonl': [
    { line: 1, token: '7', after: '"cmd_id":', code: 'trace.unknown-cmd', severity: 'error', message: [/cmd_id 7 is never enqueued/, /no CMD_ENQUEUE/] },
  ],
  'duplicate-id.trace.jsonl': [
    { line: 2, token: '42', after: '"cmd_id":', code: 'trace.duplicate-id', severity: 'error', message: [/cmd_id 42 is enqueued again/, /first enqueued on line 1/],
      related: { line: 0, token: '42', after: '"cmd_id":', message: /first CMD_ENQUEUE/ } },
  ],
  'meta-not-first.trace.jsonl': [
    { line: 1, token: '"TRACE_META"', code: 'trace.meta-not-first', severity: 'error', message: [/TRACE_META must be the first line/, /line 2/] },
  ],
  'reported-error.trace.jsonl': [
    { line: 0, token: '"unaligned DMA source address"', code: 'trace.reported-error', severity: 'error', message: [/\[DMA ADDR_ALIGN\]/, /unaligned DMA source address/] },
  ],
  'reported-warning.trace.jsonl': [
    { line: 0, token: '"TE utilization below 50% in last 1000 cycles"', code: 'trace.reported-warning', severity: 'warning', message: [/\[TE LOW_UTIL\]/, /TE utilization below 50%/] },
  ],
};

function check(name: string, text: string, expected: Expected[]): void {
  const lines = splitLines(text);
  const got = byPosition(TraceDocument.parse(text).diagnostics(defaultDiagnosticSettings));
  const want = expected.map((e) => ({ e, at: tokenRange(lines[e.line], e.token, e.after) }))
    .sort((x, y) => x.e.line - y.e.line || x.at[0] - y.at[0] || x.e.code.localeCompare(y.e.code));
  assert.deepEqual(got.map((d) => `${d.range.start.line}:${d.code}`), want.map(({ e }) => `${e.line}:${e.code}`), `${name}: codes and lines`);
  want.forEach(({ e, at: [a, b] }, i) => {
    const d = got[i];
    assert.deepEqual(d.range, { start: { line: e.line, character: a }, end: { line: e.line, character: b } }, `${name}: range of ${e.code}`);
    assert.equal(lines[e.line].slice(d.range.start.character, d.range.end.character), e.token);
    assert.equal(d.severity, e.severity, `${name}: severity of ${e.code}`);
    for (const m of e.message) assert.match(d.message, m, `${name}: message of ${e.code}`);
    if (e.related) {
      assert.equal(d.related?.length, 1, `${name}: related info of ${e.code}`);
      const [ra, rb] = tokenRange(lines[e.related.line], e.related.token, e.related.after);
      assert.deepEqual(d.related![0].range, { start: { line: e.related.line, character: ra }, end: { line: e.related.line, character: rb } });
      assert.match(d.related![0].message, e.related.message);
    }
  });
}

describe('trace diagnostics: one fixture per code', () => {
  it('every code of the trace code list has a fixture named after it and an entry here', () => {
    // The line limits are applied where lines are read (server view, CLI readers), before the line
    // parser: test/unit/server/lineLimit.test.ts, test/cli/check.test.ts and test/hostile/stream.test.ts.
    const readerCodes = new Set(['trace.line-too-long', 'trace.too-deep']);
    const documented = [...new Set([...TRACE_CODES, ...FILE_CODES.filter((c) => c.code === 'too-many-problems')].map((c) => c.code))]
      .filter((c) => !readerCodes.has(c));
    assert.ok(documented.length >= 17, `found ${documented.length} codes in the list`);
    const files = new Set(readdirSync(FIXTURES));
    for (const code of documented) {
      const name = `${code.replace(/^trace\./, '')}.trace.jsonl`;
      assert.ok(files.has(name), `no fixture ${name} for ${code}`);
      if (code !== 'too-many-problems') assert.ok(CASES[name]?.some((e) => e.code === code), `no expectation for ${code} in CASES`);
    }
  });

  for (const [name, expected] of Object.entries(CASES)) {
    it(`${name} → ${[...new Set(expected.map((e) => e.code))].join(', ')}`, () => check(name, fixture(name), expected));
  }

  it('valid-all-events.trace.jsonl has every event type and no problem besides its own ERROR/WARN events', () => {
    const text = fixture('valid-all-events.trace.jsonl');
    const doc = TraceDocument.parse(text);
    const types = new Set(doc.lines.map((l) => l.type).filter(Boolean));
    assert.deepEqual([...types].sort(), ['CMD_END', 'CMD_ENQUEUE', 'CMD_START', 'DMA_END', 'DMA_START', 'DRAM_TX_END', 'DRAM_TX_START', 'ERROR', 'IRQ_EMIT',
      'JOB_DONE', 'JOB_ISSUE', 'NOC_TX_END', 'NOC_TX_START', 'SRAM_ACCESS', 'SRAM_CONFLICT', 'TE_END', 'TE_START', 'TOKEN_COMPLETE', 'TRACE_META', 'VE_END', 'VE_START', 'WARN']);
    // Every LLM metadata field of spec §5 appears somewhere.
    for (const k of ['layer_id', 'block_id', 'phase', 'head_id', 'token_idx', 'seq_len', 'model_name', 'precision']) {
      assert.ok(doc.lines.some((l) => l.obj && k in l.obj), `no event carries ${k}`);
    }
    const quiet = doc.diagnostics({ ...defaultDiagnosticSettings, severity: { 'trace.reported-error': 'off', 'trace.reported-warning': 'off' } });
    assert.deepEqual(quiet, []);
    // The ERROR and WARN events themselves are reported by design, on their own lines.
    assert.deepEqual(doc.diagnostics(defaultDiagnosticSettings).map((d) => `${d.range.start.line}:${d.code}`), ['22:trace.reported-warning', '26:trace.reported-error']);
  });

  it('too-many-problems.trace.jsonl: 1000 shown, the rest summarised on line 1', () => {
    const ds = TraceDocument.parse(fixture('too-many-problems.trace.jsonl')).diagnostics(defaultDiagnosticSettings);
    assert.equal(ds.length, 1001);
    assert.deepEqual(ds[0], {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'information',
      code: 'too-many-problems',
      message: '5 further problems not shown (limit 1000, setting npuTrace.diagnostics.maxProblems)',
    });
    assert.ok(ds.slice(1).every((d) => d.code === 'trace.unmatched-end'));
    assert.deepEqual(ds.slice(1).map((d) => d.range.start.line), Array.from({ length: 1000 }, (_, i) => i), 'the first 1000 problems in line order');
  });
});

/** Variants that a fixture per code does not cover, written inline. */
const INLINE: Record<string, { text: string; expected: Expected[] }> = {
  'job_id issued twice': {
    text: '{"event_type":"JOB_ISSUE","t_cycle":1,"job_id":7,"cmd_id":1}\n{"event_type":"JOB_ISSUE","t_cycle":2,"job_id":7,"cmd_id":1}\n{"event_type":"JOB_DONE","t_cycle":3,"job_id":7}',
    expected: [{ line: 1, token: '7', after: '"job_id":', code: 'trace.duplicate-id', severity: 'error', message: [/job_id 7 is issued again/, /line 1/] }],
  },
  'tx_id started again while open': {
    text: '{"event_type":"DMA_START","t_cycle":1,"tx_id":5,"channel":0}\n{"event_type":"DMA_START","t_cycle":2,"tx_id":5,"channel":0}\n{"event_type":"DMA_END","t_cycle":3,"tx_id":5}',
    expected: [{ line: 1, token: '5', after: '"tx_id":', code: 'trace.duplicate-id', severity: 'error', message: [/DMA_START for tx_id 5/, /started on line 1 is still open/] }],
  },
  'tx_id reused after its END is fine, and across DMA/DRAM/NoC legs': {
    text: ['{"event_type":"DMA_START","t_cycle":1,"tx_id":5,"channel":0}', '{"event_type":"DRAM_TX_START","t_cycle":2,"tx_id":5,"channel":0}',
      '{"event_type":"DRAM_TX_END","t_cycle":3,"tx_id":5}', '{"event_type":"DMA_END","t_cycle":4,"tx_id":5}',
      '{"event_type":"DMA_START","t_cycle":5,"tx_id":5,"channel":0}', '{"event_type":"DMA_END","t_cycle":6,"tx_id":5}'].join('\n'),
    expected: [],
  },
  'unknown-cmd is silent when the trace records no enqueues at all': {
    text: '{"event_type":"CMD_START","t_cycle":1,"cmd_id":9}\n{"event_type":"CMD_END","t_cycle":2,"cmd_id":9}',
    expected: [],
  },
  'a cmd_id enqueued later in the file is known': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":1,"cmd_id":9}\n{"event_type":"CMD_ENQUEUE","t_cycle":2,"cmd_id":9,"cmd_type":"X"}',
    expected: [],
  },
  'missing event_type lands on the opening brace': {
    text: '  {"t_cycle":1,"cmd_id":9}',
    expected: [{ line: 0, token: '{', code: 'trace.missing-field', severity: 'error', message: [/Missing required field "event_type"/, /every line needs one/] }],
  },
  'event_type that is not a string': {
    text: '{"event_type":42,"t_cycle":1}',
    expected: [{ line: 0, token: '42', code: 'trace.wrong-type', severity: 'error', message: [/"event_type" must be a string/, /got number 42/] }],
  },
  'enum inside an array lands on the element': {
    text: '{"event_type":"SRAM_CONFLICT","t_cycle":1,"bank_id":0,"num_requests":2,"stalled_clients":["VE","CPU"]}',
    expected: [{ line: 0, token: '"CPU"', code: 'trace.invalid-value', severity: 'error', message: [/"stalled_clients.1" must be one of TE, VE, DMA/, /got the string "CPU"/] }],
  },
  'a negative cycle is an invalid value': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":-5}',
    expected: [{ line: 0, token: '-5', code: 'trace.invalid-value', severity: 'error', message: [/"t_cycle" must be >= 0/, /got number -5/] }],
  },
  'every schema problem on a line is reported, each on its value': {
    text: '{"event_type":"SRAM_ACCESS","t_cycle":1,"bank_id":"one","access_type":"PEEK","by":"CPU"}',
    expected: [
      { line: 0, token: '"one"', code: 'trace.wrong-type', severity: 'error', message: [/"bank_id" must be an integer/] },
      { line: 0, token: '"PEEK"', code: 'trace.invalid-value', severity: 'error', message: [/"access_type" must be one of READ, WRITE/] },
      { line: 0, token: '"CPU"', code: 'trace.invalid-value', severity: 'error', message: [/"by" must be one of TE, VE, DMA/] },
    ],
  },
  'enum typo gets a suggestion': {
    text: '{"event_type":"DMA_START","t_cycle":1,"tx_id":1,"channel":0,"direction":"DRAM_TO_SRM"}\n{"event_type":"DMA_END","t_cycle":2,"tx_id":1}',
    expected: [{ line: 0, token: '"DRAM_TO_SRM"', code: 'trace.invalid-value', severity: 'error', message: [/must be one of DRAM_TO_SRAM/, /Did you mean "DRAM_TO_SRAM"\?/] }],
  },
  'a 400-digit integer is quoted with its digits, not as Infinity, and takes no part in time order': {
    text: `{"event_type":"IRQ_EMIT","t_cycle":${'9'.repeat(400)}}\n{"event_type":"IRQ_EMIT","t_cycle":5}`,
    expected: [{ line: 0, token: '9'.repeat(400), code: 'trace.wrong-type', severity: 'error',
      message: [new RegExp(`^"t_cycle" must be an integer, got number ${'9'.repeat(200)}…, too large to represent$`)] }],
  },
  'int64 min is quoted with its digits, not rounded': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":-9223372036854775808}',
    expected: [{ line: 0, token: '-9223372036854775808', code: 'trace.invalid-value', severity: 'error', message: [/^"t_cycle" must be >= 0, got number -9223372036854775808$/] }],
  },
  'a simulator message shows its control characters, not their effect': {
    text: '{"event_type":"ERROR","t_cycle":1,"component":"DMA\\u001b[2J","code":"X","msg":"done\\u001b]8;;https://evil.example\\u0007\\u2028"}',
    expected: [{ line: 0, token: '"done\\u001b]8;;https://evil.example\\u0007\\u2028"', code: 'trace.reported-error', severity: 'error',
      message: [/^Simulator error \[DMA\\x1b\[2J X\]: done\\x1b\]8;;https:\/\/evil\.example\\x07\\u2028$/] }],
  },
  'NaN is invalid JSON, located on the token': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":NaN}',
    expected: [{ line: 0, token: 'NaN', code: 'trace.invalid-json', severity: 'error', message: [/NaN is not valid JSON/, /write null or a string/] }],
  },
  'trailing comma': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":1,}',
    expected: [{ line: 0, token: '}', code: 'trace.invalid-json', severity: 'error', message: [/expected a property name in double quotes/] }],
  },
  'text after the object': {
    text: '{"event_type":"IRQ_EMIT","t_cycle":1} {"event_type":"IRQ_EMIT","t_cycle":2}',
    expected: [{ line: 0, token: '{"event_type":"IRQ_EMIT","t_cycle":2}', after: '} ', code: 'trace.invalid-json', severity: 'error', message: [/one JSON object per line/] }],
  },
  'a scalar line is not an object': {
    text: '"CMD_START"',
    expected: [{ line: 0, token: '"CMD_START"', code: 'trace.not-object', severity: 'error', message: [/a string/] }],
  },
  'blank lines are fine': {
    text: '\n   \n{"event_type":"IRQ_EMIT","t_cycle":1}\n\n',
    expected: [],
  },
};

describe('trace diagnostics: inline variants', () => {
  for (const [name, c] of Object.entries(INLINE)) it(name, () => check(name, c.text, c.expected));

  it('a line cut short points at the end of the line, inside the line', () => {
    const text = '{"event_type":"IRQ_EMIT","t_cycle":';
    const [d] = TraceDocument.parse(text).diagnostics(defaultDiagnosticSettings);
    assert.equal(d.code, 'trace.invalid-json');
    assert.match(d.message, /end of line/);
    assert.ok(d.range.end.character <= text.length, `range ends at ${d.range.end.character}, beyond the line (length ${text.length})`);
    assert.ok(d.range.start.character >= text.length - 1);
  });
});
