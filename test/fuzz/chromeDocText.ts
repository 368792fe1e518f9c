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
