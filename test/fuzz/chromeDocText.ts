/**
 * Chrome trace documents written from generated events, for the fuzz tests that read one text
 * several ways (the check in pieces, the timeline in place): the layouts real writers use, the
 * line ends, and the two ways a text goes wrong (a character dropped or doubled, a cut .gz).
 */
import fc from 'fast-check';

/** An event as fields (key, raw JSON value), or an element's raw text. */
export type Element = { fs: [string, string][] } | { raw: string };

export const eol = fc.constantFrom('\n', '\n', '\r\n', '\r');

/**
 * The document: `how` is `pretty` (Kineto's), `compact` (an event a line), `oneLine` or `wrapped`
 * (events sharing lines and spanning them); `form` the object form, a bare `array` or an `open`
 * array with no `]` (as Chrome accepts).
 */
export function writeDoc(els: Element[], how: string, nl: string, form: string): string {
  const ev = (e: Element) => {
    if ('raw' in e) return e.raw;
    if (how === 'pretty') return `{\n    ${e.fs.map(([k, v]) => `"${k}": ${v}`).join(',\n    ')}\n  }`;
    if (how === 'wrapped') return `{${e.fs.map(([k, v], j) => `${j === 1 ? '\n ' : ''}"${k}": ${v}`).join(', ')}}`;
    return `{${e.fs.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`;
  };
  const sep = how === 'oneLine' || how === 'wrapped' ? ', ' : ',\n  ';
  const body = els.map(ev).join(sep);
  const text = form === 'array' ? `[\n  ${body}\n]\n` : form === 'open' ? `[\n  ${body},\n` : `{\n  "schemaVersion": 1,\n  "traceEvents": [\n  ${body}\n  ],\n  "traceName": "t"\n}\n`;
  return how === 'oneLine' ? text.replace(/\n\s*/g, ' ') : text.replace(/\n/g, nl);
}

/** `text` with its character at `at` (mod its length) dropped or doubled, or a `}` or `"` put before it. */
export function mutate(text: string, at: number, op: 'drop' | 'double' | 'brace' | 'quote'): string {
  const k = at % text.length;
  return op === 'drop' ? text.slice(0, k) + text.slice(k + 1) : op === 'double' ? text.slice(0, k) + text[k] + text.slice(k) : text.slice(0, k) + (op === 'brace' ? '}' : '"') + text.slice(k);
}

/**
 * Where a text cut at its end (a truncated .gz) may be cut into pieces: within its last line break,
 * all of a CRLF (the last piece holds it: pieces are 1 MB, lines far shorter); -1 when it has none.
 */
export function lastBreak(text: string): number {
  let last = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  if (last > 0 && text.slice(last - 1, last + 1) === '\r\n') last--;
  return last;
}

/** Random events (valid, and with every field the in-place reading declines) and layouts. */
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
export const element: fc.Arbitrary<Element> = fc.oneof(
  { weight: 20, arbitrary: event.map((fs) => ({ fs })) },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[]', '7', '"x"', 'null', '{"ph": "X", "ts": 1', '}', '{"ph": "X",, "ts": 1}').map((raw) => ({ raw })) },
);
export const layout = fc.constantFrom('pretty', 'compact', 'oneLine');

/** Hands `text` to `feed` cut at `cuts` (offsets, any order, repeats and ends ignored). */
export function feedCut(text: string, cuts: readonly number[], feed: (piece: string) => void): void {
  let at = 0;
  for (const k of [...new Set(cuts)].filter((k) => k > 0 && k < text.length).sort((a, b) => a - b)) {
    feed(text.slice(at, k));
    at = k;
  }
  feed(text.slice(at));
}
