// The in-place object tokenizer (core/json/objectFields.ts) against JSON.parse, and the line cursor
// (core/json/lineCursor.ts) against counting line ends by hand: whatever the tokenizer is sure of
// is JSON that JSON.parse accepts, with the same values for the keys read; what JSON.parse rejects
// it never accepts; the cursor gives the lines the line readers give, pieces cut anywhere.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BOOL, INT, NESTED, NULL, NUM, STR } from '../../../core/json/flatObject';
import { LineCursor } from '../../../core/json/lineCursor';
import { ESCAPED, objectFieldsReader } from '../../../core/json/objectFields';

const NAMES = ['ph', 'ts', 'dur', 'cat', 'id', 'args'];
const reader = objectFieldsReader(NAMES);

/** Reads `text` (an object at 0) as a padded piece, as the Chrome stream gives it. */
const read = (text: string) => reader.read(`${text}#`, 0, text.length);

function kindOf(v: unknown): number {
  if (typeof v === 'string') return STR;
  if (typeof v === 'number') return Number.isInteger(v) ? INT | NUM : NUM;
  if (typeof v === 'boolean') return BOOL;
  if (v === null) return NULL;
  return NESTED;
}

/** The tokenizer's view of `text` agrees with JSON.parse's. */
function agrees(text: string): void {
  const end = read(text);
  if (end < 0) return;
  // What follows the object is not its own (the splitter reads it).
  let parsed: unknown;
  assert.doesNotThrow(() => (parsed = JSON.parse(text.slice(0, end))), `accepted what JSON.parse rejects: ${text.slice(0, end)}`);
  assert.equal(text[end - 1], '}');
  const o = parsed as Record<string, unknown>;
  assert.equal(reader.fields, Object.keys(o).length === 0 ? 0 : reader.fields);
  NAMES.forEach((name, id) => {
    const k = reader.kind[id];
    if (!(name in o)) return assert.equal(k, 0, name);
    const v = o[name];
    assert.ok((kindOf(v) & k) !== 0 || (typeof v === 'number' && (k === INT || k === NUM)), `${name}: kind ${k} for ${JSON.stringify(v)}`);
    const src = text.slice(reader.start[id], reader.end[id]);
    assert.deepEqual(JSON.parse(src), v, name);
    if (typeof v === 'number') assert.ok(Object.is(reader.num[id], v), `${name}: ${reader.num[id]} for ${src}`);
    if (typeof v === 'string' && (reader.flags[id] & ESCAPED) === 0) assert.equal(src.slice(1, -1), v);
  });
}

const key = fc.oneof(fc.constantFrom(...NAMES, 'name', 'pid', 'p\\u0068'), fc.string({ maxLength: 4 }));
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0.1, 1e21, -0, 123456789012345680, 3118406.217));
const ws = fc.constantFrom('', ' ', '\n    ', '\r\n', '\t');

describe('objectFieldsReader', () => {
  it('agrees with JSON.parse on objects of any values, layouts and duplicate keys', () => {
    fc.assert(fc.property(fc.array(fc.tuple(key, value, ws), { maxLength: 8 }), ws, (fields, w) => {
      const text = `{${w}${fields.map(([k, v, s]) => `${JSON.stringify(k).replace('p\\\\u0068', 'p\\u0068')}${s}:${s}${JSON.stringify(v)}`).join(`,${w}`)}${w}}`;
      agrees(text);
    }), { numRuns: 2000 });
  });

  it('never accepts what JSON.parse rejects: any character dropped, doubled or replaced', () => {
    const base = '{"ph": "X", "cat": "kernel", "name": "a\\"b", "ts": 3118406.217, "dur": 12, "args": {"grid": [1, 2], "x": null, "s": "\\u00e9", "t": true}}';
    fc.assert(fc.property(fc.nat(), fc.constantFrom('drop', 'double', 'replace'), fc.constantFrom('"', '\\', '\n', '\r', '\t', '\u0001', '}', ']', ',', ':', '1', '-', '.', 'e', ' ', 'x'), (at, op, c) => {
      const k = at % base.length;
      agrees(op === 'drop' ? base.slice(0, k) + base.slice(k + 1) : op === 'double' ? base.slice(0, k) + base[k] + base.slice(k) : base.slice(0, k) + c + base.slice(k + 1));
    }), { numRuns: 2000 });
  });

  it('says no to a key read twice, an escaped key, an object cut by the limit and deep nesting', () => {
    assert.equal(read('{"ts": 1, "ts": 2}'), -1);
    assert.equal(read('{"p\\u0068": "X"}'), -1);
    assert.equal(reader.read('{"ts": 1}#', 0, 5), -1);
    assert.equal(read(`{"args": ${'['.repeat(70)}${']'.repeat(70)}}`), -1);
    assert.equal(read('{"ph": "X", "ts": 1.5, "dur": -0}'), 33);
    assert.equal(reader.num[1], 1.5);
    assert.ok(Object.is(reader.num[2], -0));
  });

  it('a text read again from its start, or one equal to the last (the same file twice), finds its escapes again', () => {
    // Two events: an escaped id, then a plain one. A read of the whole leaves the search for the
    // next backslash past the first; a second read of equal text (another string) starts before it.
    const text = '{"id": "\\u0031", "cat": "c"} {"id": "1", "cat": "c"}';
    const id = NAMES.indexOf('id');
    const once = () => {
      const t = `${text}#`.slice(0);
      const first = reader.read(t, 0, text.length);
      const escaped = reader.flags[id] & ESCAPED;
      assert.ok(reader.read(t, first + 1, text.length) > 0);
      return escaped;
    };
    assert.equal(once(), ESCAPED);
    assert.equal(once(), ESCAPED, 'the second read of equal text');
    // An object's nested value read again after the object (a field of args read for itself).
    const args = '{"args": {"x": "say \\"hi\\"", "n": 1}, "ts": 2}#';
    assert.ok(reader.read(args, 0, args.length - 1) > 0);
    const nested = objectFieldsReader(['x', 'n']);
    const s = args.indexOf('{', 1);
    assert.equal(nested.read(args, s, args.length - 1), args.indexOf('}') + 1);
    assert.equal(nested.flags[0] & ESCAPED, ESCAPED);
    assert.equal(JSON.parse(args.slice(nested.start[0], nested.end[0])), 'say "hi"');
  });
});

describe('LineCursor', () => {
  it('gives the line and character the line readers give, pieces cut anywhere', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('a', 'b', '\n', '\r', '\r\n', '  '), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts, asks) => {
      const text = parts.join('');
      const c = new LineCursor();
      const bounds = [...new Set(cuts.map((k) => k % (text.length + 1)))].sort((a, b) => a - b);
      const offsets = [...new Set(asks.map((k) => k % (text.length + 1)))].sort((a, b) => a - b);
      let from = 0;
      const pieces = [...bounds, text.length].map((to) => {
        const p = { from, text: text.slice(from, to) };
        from = to;
        return p;
      });
      let a = 0;
      for (const p of pieces) {
        c.piece(p.text);
        for (; a < offsets.length && offsets[a] <= p.from + p.text.length && (offsets[a] < p.from + p.text.length || p === pieces.at(-1)); a++) {
          const at = offsets[a];
          // By hand: the lines before `at`, as /\r\n|\r|\n/ splits them.
          const before = text.slice(0, at).split(/\r\n|\r|\n/);
          // A CR just before `at` whose LF comes after: its line ends at the CR either way.
          assert.deepEqual(c.position(at), { line: before.length - 1, character: before.at(-1)!.length }, JSON.stringify({ text, at }));
        }
      }
    }), { numRuns: 1000 });
  });
});
