// The one byte-level reader of a flat JSON object on a line (under the NPU trace checker's scanner
// and the metrics' and timeline's field reader): what it reads must be what JSON.parse reads, and
// wherever it is not sure it must say no, so that the caller parses the line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BOOL, flatObjectReader, type FlatObjectReader, INT, NESTED, NULL, NUM, STR } from '../../../core/json/flatObject';

const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('utf8');
const bytes = (s: string) => Buffer.from(s);
const KEYS = ['event_type', 't_cycle', 'cmd_id', 'phase'];
const reader = () => flatObjectReader(KEYS, { tagKey: 'event_type', tags: ['CMD_START', 'CMD_END'], tagValues: [8, 16] });

/** Each field the reader gives: key id, kind, text of its range, number value. */
function fields(r: FlatObjectReader, b: Uint8Array) {
  return Array.from({ length: r.n }, (_, k) => ({ key: r.key[k], kind: r.kind[k], text: decode(b, r.start[k], r.end[k]), num: r.num[k], tag: r.tag[k] }));
}

describe('FlatObjectReader (core/json/flatObject)', () => {
  it('reads each field: key id, kind, value range, value, tag', () => {
    const r = reader();
    const line = ' {"event_type": "CMD_END", "t_cycle":-12, "x":[1,{"a":null}], "phase":"load", "cmd_id":1.5e2, "ok":true, "no":false, "z":null} ';
    const b = bytes(line);
    assert.equal(r.read(b, 0, b.length, decode), true);
    assert.deepEqual(fields(r, b).map(({ key, kind, text }) => [key, kind, text]), [
      [0, STR, '"CMD_END"'], [1, INT, '-12'], [-1, NESTED, '[1,{"a":null}]'], [3, STR, '"load"'], [2, NUM, '1.5e2'], [-1, BOOL, 'true'], [-1, BOOL, 'false'], [-1, NULL, 'null'],
    ]);
    assert.equal(r.tag[0], 16);
    assert.equal(r.tag[3], -1, 'only the tag key walks the tags');
    assert.equal(r.num[1], -12);
    assert.equal(r.neg[1], 1);
    assert.equal(r.num[4], 150);
    assert.deepEqual([r.num[5], r.num[6]], [1, 0]);
  });

  it('gives every number the value JSON.parse gives it', () => {
    const r = reader();
    fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n })), (x) => {
      const text = typeof x === 'bigint' ? String(x) : JSON.stringify(x);
      const b = bytes(`{"t_cycle":${text}}`);
      assert.equal(r.read(b, 0, b.length, decode), true, text);
      assert.equal(r.num[0], JSON.parse(text) as number, text);
      assert.equal(r.big[0], /^-?\d{16,}/.test(text) ? 1 : 0, text);
    }));
    for (const text of ['0.1', '123456789012.345', '9007199254740993', '1E400', '-0', '0.30000000000000004', '9.7454291593808051', '8.2631093364157859', '12345678901234567890']) {
      const b = bytes(`{"t_cycle":${text}}`);
      assert.equal(r.read(b, 0, b.length, decode), true, text);
      assert.equal(r.num[0], JSON.parse(text) as number, text);
    }
  });

  it('keeps the last of duplicate keys, as JSON.parse does', () => {
    const r = reader();
    const b = bytes('{"cmd_id":1,"t_cycle":2,"cmd_id":3}');
    assert.equal(r.read(b, 0, b.length, decode), true);
    assert.equal(r.num[r.fieldOf(2)], 3);
    assert.equal(r.fieldOf(3), -1);
  });

  it('reads keys right when a line does not repeat the order of the one before (its guesses)', () => {
    const r = reader();
    for (const line of ['{"event_type":"CMD_START","t_cycle":1,"cmd_id":2}', '{"event_type":"CMD_START","cmd_id":5,"t_cycle":6}', '{"event_type":"CMD_START","t_cycl":7,"cmd_idx":8}',
      '{"event_type":"CMD_START","t_cycle_x":9}']) {
      const b = bytes(line);
      assert.equal(r.read(b, 0, b.length, decode), true, line);
      const want = JSON.parse(line) as Record<string, number>;
      for (const [k, name] of KEYS.entries()) {
        const f = r.fieldOf(k);
        if (typeof want[name] === 'number') assert.equal(r.num[f], want[name], `${line} ${name}`);
        else if (name !== 'event_type') assert.equal(f, -1, `${line} ${name}`);
      }
    }
  });

  it('reads keys of every length against its guesses of them, lines read in turn from one buffer and from many', () => {
    // Keys are compared with the guess four bytes at a time: names of each length modulo 4, names
    // that are another's prefix or differ in a last byte, and lines that end inside a word.
    const names = ['a', 'ab', 'abc', 'abcd', 'abcde', 'abcdef', 'abcdefg', 'abcdefgh', 'abcdefgX', 'abcdefghi', 'b', 'bc', 'abcdefghijklm'];
    const r = flatObjectReader(names);
    const key = fc.constantFrom(...names, 'abcdefghij', 'abcX', 'abcdefghijkl', 'abcdefghijklmn', 'abcdefghijklM');
    const line = fc.array(fc.tuple(key, fc.integer({ min: 0, max: 99 })), { minLength: 1, maxLength: 6 })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.boolean(), (lines, oneBuffer) => {
      const all = bytes(lines.join('\n'));
      let at = 0;
      for (const text of lines) {
        const b = oneBuffer ? all : bytes(text);
        const s = oneBuffer ? at : 0;
        at += text.length + 1;
        assert.equal(r.read(b, s, s + text.length, decode), true, text);
        const want = JSON.parse(text) as Record<string, number>;
        for (const [k, name] of names.entries()) {
          const f = r.fieldOf(k);
          if (name in want) assert.equal(r.num[f], want[name], `${text} ${name}`);
          else assert.equal(f, -1, `${text} ${name}`);
        }
      }
    }));
    for (const text of ['{"abcdefgh":1}', '{"abcdefgh":', '{"abcdefgh"', '{"abcdefg":1}']) {
      const b = bytes(text);
      assert.equal(r.read(b, 0, b.length, decode), text.endsWith('}'), text);
    }
  });

  it('reads a line between others in a buffer, up to the byte it is told', () => {
    const r = reader();
    const b = bytes('xx{"t_cycle":42}\n{"t_cycle":7}');
    assert.equal(r.read(b, 2, 16, decode), true);
    assert.equal(r.num[0], 42);
    assert.equal(r.read(b, 2, 15, decode), false, 'cut before its brace');
  });

  it('says no where it is not sure: escapes, non-ASCII, control bytes, bad JSON, too many fields', () => {
    const r = reader();
    const no = ['{"a\\u0062":1}', '{"a":"\\n"}', '{"a":"é"}', '{"é":1}', '{"a":"\t"}', '{"a":01}', '{"a":1.}', '{"a":-}', '{"a":1e}', '{"a":tru}', '{"a":nul}',
      '{"a":[1,]}', '{"a":{"b"}}', '{"a":1,}', '{"a":1} x', '{"a":1', '{}', '[1]', '', '   ', `{"a":${'1'.repeat(41)}}`, `{${Array.from({ length: 65 }, (_, k) => `"k${k}":1`).join(',')}}`,
      '{"a":1}}', '{"a" 1}', "{'a':1}"];
    for (const text of no) {
      const b = bytes(text);
      assert.equal(r.read(b, 0, b.length, decode), false, text);
    }
    const b = bytes(`{${Array.from({ length: 64 }, (_, k) => `"k${k}":1`).join(',')}}`);
    assert.equal(r.read(b, 0, b.length, decode), true, '64 fields are held');
  });

  it('reads what JSON.parse reads of any flat object it accepts', () => {
    const r = reader();
    const key = fc.constantFrom(...KEYS, 'other', 'x y');
    const val = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }),
      fc.constantFrom('CMD_START', 'CMD_END', 'CMD_ENDX'), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.boolean(), { maxKeys: 2 }));
    fc.assert(fc.property(fc.array(fc.tuple(key, val), { maxLength: 10 }), fc.constantFrom('', ' ', '\t'), (pairs, ws) => {
      const line = `{${pairs.map(([k, v]) => `${ws}${JSON.stringify(k)}${ws}:${ws}${JSON.stringify(v)}`).join(',')}}`;
      const b = bytes(line);
      if (!r.read(b, 0, b.length, decode)) {
        assert.ok(pairs.length === 0 || /\\|[^\x20-\x7e]/.test(line), `refused a plain line: ${line}`);
        return;
      }
      const want = JSON.parse(line) as Record<string, unknown>;
      for (const [k, name] of KEYS.entries()) {
        const f = r.fieldOf(k);
        if (!(name in want)) {
          assert.equal(f, -1, line);
          continue;
        }
        const v = want[name];
        const text = decode(b, r.start[f], r.end[f]);
        assert.deepEqual(JSON.parse(text), v, line);
        if (typeof v === 'number') assert.equal(r.num[f], v, line);
        if (typeof v === 'boolean') assert.equal(r.num[f], v ? 1 : 0, line);
        if (name === 'event_type' && typeof v === 'string') assert.equal(r.tag[f], v === 'CMD_START' ? 8 : v === 'CMD_END' ? 16 : -1, line);
      }
    }));
  });
});
