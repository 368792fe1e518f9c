// The range-keeping scanner and the line parser on hostile input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldAt, findField, scanLine, valueRangeAt } from '../../../core/json/scanner';
import { rawValue, locate } from '../../../core/trace/locate';
import { parseTraceLine } from '../../../core/trace/parseLine';
import { TraceDocument } from '../../../core/trace/document';
import { defaultDiagnosticSettings } from '../../../core/common/settings';

/** Each field as `key=<key text>|<value text>|kind`, cut from the line by its ranges. */
function fieldsOf(s: string): string[] {
  const scan = scanLine(s);
  assert.equal(scan.error, undefined, scan.error?.message);
  return scan.fields.map((f) => `${f.key}=${s.slice(f.keyStart, f.keyEnd)}|${s.slice(f.valueStart, f.valueEnd)}|${f.kind}`);
}

describe('scanLine: ranges', () => {
  it('keeps the range of every top-level key and value, whatever the spacing', () => {
    const s = ' { "event_type" : "CMD_START" ,"t_cycle":12,\t"n":-1.5e+3, "o":{"a":[1,{"b":2}]},"arr":[ ],"t":true,"f":false,"z":null } ';
    assert.deepEqual(fieldsOf(s), [
      'event_type="event_type"|"CMD_START"|string',
      't_cycle="t_cycle"|12|number',
      'n="n"|-1.5e+3|number',
      'o="o"|{"a":[1,{"b":2}]}|object',
      'arr="arr"|[ ]|array',
      't="t"|true|boolean',
      'f="f"|false|boolean',
      'z="z"|null|null',
    ]);
    const scan = scanLine(s);
    assert.equal(scan.topKind, 'object');
    assert.equal(s.slice(scan.objStart, scan.objEnd), s.trim());
  });

  it('fieldAt finds the field under a character on its key or its value', () => {
    const s = '{"event_type":"CMD_START","cmd_id":42}';
    const scan = scanLine(s);
    assert.equal(fieldAt(scan, s.indexOf('cmd_id'))?.key, 'cmd_id');
    assert.equal(fieldAt(scan, s.indexOf('42') + 1)?.key, 'cmd_id');
    assert.equal(fieldAt(scan, s.indexOf('CMD_START'))?.key, 'event_type');
    assert.equal(fieldAt(scan, 0), undefined);
  });

  it('empty object, blank line, non-object values', () => {
    assert.deepEqual(scanLine('{}'), { topKind: 'object', objStart: 0, objEnd: 2, fields: [] });
    assert.deepEqual(scanLine('   '), { topKind: undefined, objStart: 3, objEnd: 0, fields: [] });
    assert.equal(scanLine('[1,2]').topKind, 'array');
    assert.equal(scanLine(' "x" ').topKind, 'string');
    assert.equal(scanLine('12').topKind, 'number');
  });
});

describe('scanLine: escapes', () => {
  it('decodes escaped keys and skips escaped quotes in values', () => {
    const s = String.raw`{"a\"b":"x\\\"y","cmd\u005fid":7,"p\/q":"\u00e9\n\t\b\f\r\/"}`;
    assert.deepEqual(scanLine(s).fields.map((f) => f.key), ['a"b', 'cmd_id', 'p/q']);
    assert.equal(rawValue(s, 'cmd_id'), '7');
    assert.equal(rawValue(s, 'a"b'), String.raw`"x\\\"y"`);
    // The parser agrees with JSON.parse about what the escaped key names.
    assert.equal(parseTraceLine(s).cmd, 7);
  });

  for (const [name, s, bad, msg] of [
    ['unknown escape', String.raw`{"a":"x\qy"}`, String.raw`\q`, /Invalid escape sequence '\\q'/],
    ['short \\u escape', String.raw`{"a":"\u12"}`, String.raw`\u12"}`, /expected four hex digits/],
    ['raw tab in a string', '{"a":"x\ty"}', '\t', /Control character U\+0009 must be escaped/],
    ['NUL in a string', '{"a":"x\u0000y"}', '\u0000', /Control character U\+0000/],
    ['unterminated string', '{"a":"xyz', '"xyz', /Unterminated string/],
  ] as const) {
    it(`${name}: error on the bad characters`, () => {
      const e = scanLine(s).error;
      assert.ok(e, 'no error');
      assert.equal(s.slice(e.start, e.end), bad);
      assert.match(e.message, msg);
    });
  }
});

describe('scanLine: hostile input', () => {
  const N = 10_000;
  it(`${N}-deep nesting: scanned without recursion, valid and broken`, () => {
    const deep = '[{"a":'.repeat(N) + '1' + '}]'.repeat(N);
    const s = `{"event_type":"IRQ_EMIT","t_cycle":1,"x":${deep}}`;
    assert.deepEqual(fieldsOf(s).map((f) => f.slice(0, 20)), ['event_type="event_ty', 't_cycle="t_cycle"|1|', 'x="x"|[{"a":[{"a":[{']);
    assert.equal(findField(scanLine(s), 'x')?.valueEnd, s.length - 1);
    const l = parseTraceLine(s);
    assert.equal(l.type, 'IRQ_EMIT');
    assert.equal(l.local, undefined);

    const broken = `{"event_type":"IRQ_EMIT","x":${'['.repeat(N)}`;
    const e = scanLine(broken).error!;
    assert.match(e.message, /end of line/);
    assert.equal(e.start, broken.length);
    const d = parseTraceLine(broken).local![0];
    assert.equal(d.code, 'trace.invalid-json');
    assert.ok(d.end <= broken.length);

    // Deep nesting where a number is expected: a type error, not a crash.
    const wrong = parseTraceLine(`{"event_type":"CMD_START","t_cycle":1,"cmd_id":${'['.repeat(N)}${']'.repeat(N)}}`);
    assert.deepEqual(wrong.local?.map((x) => x.code), ['trace.wrong-type']);
  });

  for (const w of ['NaN', 'Infinity', '-Infinity']) {
    it(`${w} is rejected on its token`, () => {
      const s = `{"event_type":"IRQ_EMIT","t_cycle":${w},"x":1}`;
      const e = scanLine(s).error!;
      assert.equal(s.slice(e.start, e.end), w);
      assert.match(e.message, new RegExp(`${w} is not valid JSON`));
      const [d] = parseTraceLine(s).local!;
      assert.equal(d.code, 'trace.invalid-json');
      assert.equal(s.slice(d.start, d.end), w);
    });
  }

  for (const [s, bad] of [['{"a":01}', '01'], ['{"a":1.}', '1.'], ['{"a":-}', '-'], ['{"a":0x1F}', '0x1F'], ['{"a":tru}', 'tru'], ['{"a":.5}', '.']] as const) {
    it(`bad number or word ${bad}`, () => {
      const e = scanLine(s).error!;
      assert.ok(e, 'no error');
      assert.equal(s.slice(e.start, e.end), bad);
      assert.equal(parseTraceLine(s).local?.[0].code, 'trace.invalid-json');
    });
  }

  it('numbers beyond 2^53 stay exact through rawValue and as ids', () => {
    const s = '{"event_type":"DMA_START","t_cycle":1,"tx_id":18446744073709551615,"channel":0,"src_addr":18446744073709551615,"dst_addr":9007199254740993}';
    assert.equal(rawValue(s, 'src_addr'), '18446744073709551615');
    assert.equal(rawValue(s, 'dst_addr'), '9007199254740993');
    const l = parseTraceLine(s);
    assert.equal(l.tx, '18446744073709551615');
    assert.equal(l.local, undefined);
    // 2^53 + 1 and 2^53 are the same double but different ids.
    assert.equal(parseTraceLine('{"event_type":"CMD_START","t_cycle":1,"cmd_id":9007199254740993}').cmd, '9007199254740993');
    assert.equal(parseTraceLine('{"event_type":"CMD_START","t_cycle":1,"cmd_id":9007199254740992}').cmd, '9007199254740992');
    assert.equal(parseTraceLine('{"event_type":"CMD_START","t_cycle":1,"cmd_id":9007199254740991}').cmd, 9007199254740991);
    const doc = TraceDocument.parse([
      '{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":9007199254740993,"cmd_type":"X"}',
      '{"event_type":"CMD_START","t_cycle":2,"cmd_id":9007199254740992}',
      '{"event_type":"CMD_END","t_cycle":3,"cmd_id":9007199254740992}',
    ].join('\n'));
    assert.deepEqual(doc.diagnostics(defaultDiagnosticSettings).map((d) => `${d.range.start.line}:${d.code}:${d.message}`), [
      '1:trace.unknown-cmd:cmd_id 9007199254740992 is never enqueued: no CMD_ENQUEUE in this trace has it',
      '2:trace.unknown-cmd:cmd_id 9007199254740992 is never enqueued: no CMD_ENQUEUE in this trace has it',
    ]);
  });

  it('duplicate keys: the last one wins, as in JSON.parse', () => {
    const s = '{"event_type":"CMD_END","t_cycle":1,"cmd_id":"x","cmd_id":5,"status":"OK","status":"FAIL"}';
    const f = findField(scanLine(s), 'status')!;
    assert.equal(s.slice(f.valueStart, f.valueEnd), '"FAIL"');
    const l = parseTraceLine(s);
    assert.equal(l.cmd, 5);
    // The string cmd_id is overridden, so only the last status is wrong, and located on it.
    assert.deepEqual(l.local?.map((d) => `${d.code}@${s.slice(d.start, d.end)}`), ['trace.invalid-value@"FAIL"']);
    assert.equal(parseTraceLine('{"event_type":"CMD_END","t_cycle":1,"cmd_id":5,"status":"FAIL","status":"OK"}').local, undefined);
  });

  it('a BOM before the first event is skipped and counted as one character', () => {
    const s = '\uFEFF{"event_type":"CMD_END","t_cycle":1,"cmd_id":5,"status":"FAIL"}';
    const l = parseTraceLine(s);
    assert.equal(l.type, 'CMD_END');
    assert.equal(s.slice(l.local![0].start, l.local![0].end), '"FAIL"');
    assert.deepEqual(locate(s, 'cmd_id'), [s.indexOf('5'), s.indexOf('5') + 1]);
  });

  it('a BOM after spaces is an error located on the BOM, like JSON.parse sees it', () => {
    const s = ' \uFEFF{"event_type":"IRQ_EMIT","t_cycle":1}';
    const [d] = parseTraceLine(s).local!;
    assert.equal(d.code, 'trace.invalid-json');
    assert.deepEqual([d.start, d.end], [1, 2]);
    assert.match(d.message, /Unexpected invisible character U\+FEFF: expected a JSON value/);
  });

  it('invisible characters are named by code point', () => {
    for (const [s, msg] of [['{"a":\u00a01}', /invisible character U\+00A0/], ['{"a":1,\u200b"b":2}', /invisible character U\+200B/], ['{"a":"x\u001f"}', /Control character U\+001F/]] as const) {
      const [d] = parseTraceLine(s).local!;
      assert.match(d.message, msg);
      assert.equal(d.end - d.start, 1);
    }
  });

  it('a 10 MB single line: valid, and broken at its very end', () => {
    const pad = 'x'.repeat(10 * 1024 * 1024);
    const ok = `{"event_type":"IRQ_EMIT","t_cycle":1,"pad":"${pad}","irq_line":"3"}`;
    const l = parseTraceLine(ok);
    assert.deepEqual(l.local?.map((d) => `${d.code}@${ok.slice(d.start, d.end)}`), ['trace.wrong-type@"3"']);
    const bad = ok.slice(0, -1);
    const [d] = parseTraceLine(bad).local!;
    assert.equal(d.code, 'trace.invalid-json');
    assert.equal(d.start, bad.length - 1, 'points at the end of the line, where "}" is missing');
    assert.ok(d.end <= bad.length);
  });

  it('a 1 MB token is clipped when a message quotes it', () => {
    const big = 'Z'.repeat(1 << 20);
    for (const [s, code] of [[`{"event_type":"${big}"}`, 'trace.unknown-event-type'], [`{"event_type":"IRQ_EMIT","t_cycle":1,"x":${big}}`, 'trace.invalid-json'],
      [`{"${big}":`, 'trace.invalid-json'], [`{"a":-1${big}}`, 'trace.invalid-json'], [`{"event_type":"ERROR","t_cycle":1,"component":"${big}","code":"C","msg":"${big}"}`, 'trace.reported-error']]) {
      const [d] = parseTraceLine(s).local!;
      assert.equal(d.code, code);
      assert.ok(d.message.length < 700, `${code}: message of ${d.message.length} characters`);
      assert.match(d.message, /ZZZ…/);
    }
  });

  it('binary bytes and invalid UTF-8 (decoded as U+FFFD) give invalid-json, never a throw', () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x00, 0x01, 0xc3, 0x28, 0x7d]);
    const text = new TextDecoder('utf-8').decode(bytes);
    assert.ok(text.includes('\uFFFD'));
    const [d] = parseTraceLine(text).local!;
    assert.equal(d.code, 'trace.invalid-json');
    assert.equal(text.slice(d.start, d.end), '\uFFFD');
    // U+FFFD inside a string is just a character.
    assert.equal(parseTraceLine(`{"event_type":"IRQ_EMIT","t_cycle":1,"s":"${text.slice(5)}"}`).local?.[0].message, 'Invalid JSON: Control character U+0000 must be escaped inside a string');
    assert.equal(parseTraceLine('{"event_type":"IRQ_EMIT","t_cycle":1,"s":"\uFFFD\uFFFD"}').local, undefined);
  });
});

describe('valueRangeAt: nested locations', () => {
  const s = '{"o":{"a":[10, 20 ,{"b":"deep"}],"a":[1,2,"last"]},"arr":[ "x" , "y" ]}';
  const o = findField(scanLine(s), 'o')!;
  const arr = findField(scanLine(s), 'arr')!;
  for (const [path, want] of [[['a', '2'], '"last"'], [['a'], '[1,2,"last"]'], [[], '{"a":[10, 20 ,{"b":"deep"}],"a":[1,2,"last"]}']] as const) {
    it(`o/${path.join('/')} → ${want}`, () => {
      const r = valueRangeAt(s, o.valueStart, path);
      assert.ok(r);
      assert.equal(s.slice(r[0], r[1]), want);
    });
  }
  it('array elements with spaces, missing paths', () => {
    const r = valueRangeAt(s, arr.valueStart, ['1'])!;
    assert.equal(s.slice(r[0], r[1]), '"y"');
    assert.equal(valueRangeAt(s, arr.valueStart, ['2']), undefined);
    assert.equal(valueRangeAt(s, o.valueStart, ['zz']), undefined);
    assert.equal(valueRangeAt(s, o.valueStart, ['a', '0', 'b']), undefined);
  });
});
