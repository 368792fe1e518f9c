// The one ajv-error translator: both formats word the same problem the same way, numbers are
// quoted as written in the file, and quoted file text is cut and cannot carry control characters.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { CmdqDocument } from '../../../core/cmdq/document';
import { defaultDiagnosticSettings } from '../../../core/common/settings';
import { describeValue, quoteString, schemaProblem } from '../../../core/common/schemaMessages';
import { TraceDocument } from '../../../core/trace/document';

const GOLDEN = readFileSync(resolve(__dirname, '../../fixtures/cmdq/golden.cmdq.json'), 'utf8');

/** Messages of one trace line, and of the golden CMDQ with one edit, by code. */
function traceMessages(line: string): string[] {
  return TraceDocument.parse(line).diagnostics(defaultDiagnosticSettings).map((d) => `${d.code} ${d.message}`);
}
function cmdqMessages(from: string, to: string): string[] {
  assert.ok(GOLDEN.includes(from), from);
  return CmdqDocument.parse(GOLDEN.replace(from, to)).allDiagnostics().map((d) => `${d.code} ${d.message}`);
}

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const DIGITS_400 = '1' + '0'.repeat(399);
const INT64_MIN = '-9223372036854775808';

describe('one wording for traces and CMDQ', () => {
  it('a value below its minimum', () => {
    assert.deepEqual(traceMessages('{"event_type":"IRQ_EMIT","t_cycle":-1}'), ['trace.invalid-value "t_cycle" must be >= 0, got number -1']);
    assert.deepEqual(cmdqMessages('"spm_bank": 1,', '"spm_bank": -1,'), ['cmdq.invalid-value "spm_bank" must be >= 0, got number -1']);
  });

  it('a value of the wrong type', () => {
    assert.deepEqual(traceMessages('{"event_type":"CMD_START","t_cycle":1,"cmd_id":"42"}'), ['trace.wrong-type "cmd_id" must be an integer, got the string "42"']);
    assert.deepEqual(cmdqMessages('"m": 64', '"m": "64"'), ['cmdq.wrong-type "m" must be an integer, got the string "64"']);
  });

  it('a number too large for a double, in both formats (only CMDQ handled it)', () => {
    assert.deepEqual(traceMessages(`{"event_type":"IRQ_EMIT","t_cycle":1e400}`), ['trace.wrong-type "t_cycle" must be an integer, got number 1e400, too large to represent']);
    assert.deepEqual(cmdqMessages('"m": 64', '"m": 1e400'), ['cmdq.wrong-type "m" must be an integer, got number 1e400, too large to represent']);
  });
});

describe('numbers quoted as written', () => {
  it('a 400-digit integer: its digits, cut at MAX_QUOTED, never Infinity', () => {
    const want = `got number ${DIGITS_400.slice(0, 200)}…, too large to represent`;
    const [t] = traceMessages(`{"event_type":"IRQ_EMIT","t_cycle":${DIGITS_400}}`);
    assert.ok(t.endsWith(want), t);
    const [c] = cmdqMessages('"m": 64', `"m": ${DIGITS_400}`);
    assert.ok(c.endsWith(want), c);
  });

  it('int64 min keeps its digits (JSON.parse makes it -9223372036854776000)', () => {
    assert.deepEqual(traceMessages(`{"event_type":"IRQ_EMIT","t_cycle":${INT64_MIN}}`), [`trace.invalid-value "t_cycle" must be >= 0, got number ${INT64_MIN}`]);
    assert.deepEqual(cmdqMessages('"spm_offset": 0,', `"spm_offset": ${INT64_MIN},`), [`cmdq.invalid-value "spm_offset" must be >= 0, got number ${INT64_MIN}`]);
  });

  it('a CMDQ metadata field too', () => {
    assert.deepEqual(cmdqMessages('"version": "1.0"', `"version": ${INT64_MIN}`), [`cmdq.wrong-type "metadata.version" must be a string, got number ${INT64_MIN}`]);
  });

  it('an exponent and a fraction are quoted as written', () => {
    assert.deepEqual(cmdqMessages('"qbits": 8,', '"qbits": 3e0,'), ['cmdq.invalid-value "qbits" must be one of 1, 2, 4, 8, 16, 32; got number 3e0']);
    assert.deepEqual(cmdqMessages('"qbits": 8,', '"qbits": 3.50,'), ['cmdq.invalid-value "qbits" must be one of 1, 2, 4, 8, 16, 32; got number 3.50', 'cmdq.wrong-type "qbits" must be an integer, got number 3.50']);
  });

  it('a source that is not the value is not quoted', () => {
    assert.equal(describeValue(5, '6'), 'number 5');
    assert.equal(describeValue(Infinity), 'a number too large to represent');
    assert.equal(describeValue(-9223372036854775808, INT64_MIN), `number ${INT64_MIN}`);
  });
});

describe('quoted file text is bounded and inert', () => {
  it('a string value: cut, controls visible', () => {
    const m = traceMessages(JSON.stringify({ event_type: 'CMD_END', t_cycle: 1, cmd_id: 1, status: '\u001b[2J\u0085\u2028' + 'x'.repeat(1000) }))
      .find((x) => x.startsWith('trace.invalid-value'))!;
    assert.ok(!CONTROL.test(m), m);
    assert.ok(m.includes('got the string "\\u001b[2J\\x85\\u2028xxx'), m);
    assert.ok(m.length < 200, `${m.length} characters`);
  });

  it('an unknown opcode of 1 MB with line breaks (it was quoted whole)', () => {
    const m = cmdqMessages('"opcode": "END"', `"opcode": "${'\\n'.repeat(10)}${'A'.repeat(1 << 20)}"`).find((x) => x.startsWith('cmdq.unknown-opcode'))!;
    assert.ok(m.startsWith('cmdq.unknown-opcode Unknown opcode "\\n\\n'), m.slice(0, 100));
    assert.ok(!CONTROL.test(m) && m.length < 400, `${m.length} characters`);
  });

  it('an unknown event type with a terminal escape', () => {
    const [m] = traceMessages(JSON.stringify({ event_type: 'X\u001b]0;pwned\u0007\u009b', t_cycle: 1 }));
    assert.equal(m, 'trace.unknown-event-type Unknown event_type "X\\u001b]0;pwned\\u0007\\x9b"');
  });

  it('a key from the file in the path of a message', () => {
    const key = `qbits_\u0085${'k'.repeat(100_000)}`;
    const [m] = cmdqMessages('"qbits_ofm": 8', `${JSON.stringify(key)}: 3`);
    assert.ok(m.startsWith('cmdq.invalid-value "qbits_\\x85kkk'), m.slice(0, 80));
    assert.ok(!CONTROL.test(m) && m.length < 300, `${m.length} characters`);
  });

  it('quoteString', () => {
    assert.equal(quoteString('a"b\\c\n'), '"a\\"b\\\\c\\n"');
    assert.equal(quoteString('x'.repeat(100)), `"${'x'.repeat(40)}…"`);
  });
});

describe('schemaProblem', () => {
  const subject = { label: 'L', obj: { a: 1 }, fieldType: () => 'integer' };
  const err = (keyword: string, instancePath = '', params: Record<string, unknown> = {}, message?: string): ErrorObject =>
    ({ keyword, instancePath, schemaPath: '', params, message });

  it('leaves out the wrappers whose failing keyword is reported on its own, and const', () => {
    for (const k of ['if', 'allOf', 'const']) assert.equal(schemaProblem(err(k, '/a'), subject), undefined, k);
  });

  it('a missing field names its type', () => {
    assert.deepEqual(schemaProblem(err('required', '', { missingProperty: 'b' }), subject), { kind: 'missing-field', message: 'L is missing required field "b" (an integer)' });
  });

  it('an enum near miss gets a suggestion', () => {
    const p = schemaProblem(err('enum', '/s', { allowedValues: ['READ', 'WRITE'] }), { ...subject, obj: { s: 'REED' } });
    assert.equal(p?.message, '"s" must be one of READ, WRITE; got the string "REED". Did you mean "READ"?');
  });

  it('asks for the token only for a number', () => {
    let asked = 0;
    const token = () => { asked++; return '7'; };
    schemaProblem(err('type', '/a', { type: 'string' }), { ...subject, token });
    schemaProblem(err('type', '/b', { type: 'integer' }), { ...subject, obj: { b: 'x'.repeat(1000) }, token });
    assert.equal(asked, 1);
  });
});
