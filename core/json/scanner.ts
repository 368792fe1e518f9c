import { clip } from '../common/clip';

/**
 * A JSON scanner for one line that keeps the character range of every top-level key and value.
 * It is iterative (10 000-deep nesting cannot overflow the stack) and keeps numbers as their
 * source text, so 64-bit addresses stay exact.
 */

export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface ScannedField {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  kind: ValueKind;
}

export interface ScanError {
  start: number;
  end: number;
  message: string;
}

export interface LineScan {
  /** Kind of the top-level value, undefined when the line is blank or broken before a value. */
  topKind: ValueKind | undefined;
  objStart: number;
  objEnd: number;
  fields: ScannedField[];
  error?: ScanError;
}

class Fail extends Error {
  constructor(readonly start: number, readonly end: number, message: string) {
    super(message);
  }
}

const WS = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipWs(s: string, i: number): number {
  while (i < s.length && WS(s.charCodeAt(i))) i++;
  return i;
}

function describe(s: string, i: number): string {
  if (i >= s.length) return 'end of line';
  const c = s[i];
  const code = c.charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 32) return `control character ${hex}`;
  // Invisible in a message, and a usual copy-paste accident: name them by code point.
  if ((code >= 0x7f && code <= 0xa0) || code === 0xfeff || (code >= 0x2000 && code <= 0x200f) || code === 0x2028 || code === 0x2029 || code === 0x3000) {
    return `invisible character ${hex}`;
  }
  return `'${c}'`;
}

function scanString(s: string, i: number): number {
  // s[i] === '"'
  let j = i + 1;
  for (;;) {
    if (j >= s.length) throw new Fail(i, s.length, 'Unterminated string: expected a closing \'"\'');
    const c = s.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 32) throw new Fail(j, j + 1, `Control character U+${c.toString(16).toUpperCase().padStart(4, '0')} must be escaped inside a string`);
    if (c === 92) {
      const e = s.charCodeAt(j + 1);
      if (e === 117) {
        if (!/^[0-9a-fA-F]{4}$/.test(s.slice(j + 2, j + 6))) throw new Fail(j, Math.min(j + 6, s.length), 'Invalid \\u escape: expected four hex digits');
        j += 6;
        continue;
      }
      if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        j += 2;
        continue;
      }
      throw new Fail(j, Math.min(j + 2, s.length), `Invalid escape sequence '\\${s[j + 1] ?? ''}'`);
    }
    j++;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*|-Infinity/y;

function scanAtom(s: string, i: number): [number, ValueKind] {
  const c = s.charCodeAt(i);
  if (c === 34) return [scanString(s, i), 'string'];
  if (c === 45 || (c >= 48 && c <= 57)) {
    NUMBER.lastIndex = i;
    if (NUMBER.test(s) && !WORD_CHAR(s.charCodeAt(NUMBER.lastIndex))) return [NUMBER.lastIndex, 'number'];
  }
  WORD.lastIndex = i;
  if (WORD.test(s)) {
    const w = s.slice(i, WORD.lastIndex);
    if (w === 'true' || w === 'false') return [WORD.lastIndex, 'boolean'];
    if (w === 'null') return [WORD.lastIndex, 'null'];
    if (w === 'NaN' || w === 'Infinity' || w === '-Infinity') {
      throw new Fail(i, WORD.lastIndex, `${w} is not valid JSON: write null or a string instead`);
    }
    throw new Fail(i, WORD.lastIndex, `Unexpected word '${clip(w)}': expected a JSON value (string, number, true, false, null, object or array)`);
  }
  if (c === 45 || (c >= 48 && c <= 57)) {
    let j = i + 1;
    while (j < s.length && /[0-9A-Za-z.+-]/.test(s[j])) j++;
    throw new Fail(i, j, `Invalid number '${clip(s.slice(i, j))}'`);
  }
  throw new Fail(i, Math.min(i + 1, s.length), `Unexpected ${describe(s, i)}: expected a JSON value`);
}

function WORD_CHAR(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;
}

/** Skips any JSON value starting at `i` (after whitespace); returns its end and kind. */
export function scanValue(s: string, i: number): [number, ValueKind] {
  const c0 = s.charCodeAt(i);
  if (c0 !== 123 && c0 !== 91) return scanAtom(s, i);
  const kind: ValueKind = c0 === 123 ? 'object' : 'array';
  // An explicit stack of open containers (true = object) instead of recursion.
  const stack: boolean[] = [];
  let j = i;
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      j = skipWs(s, j);
      const c = s.charCodeAt(j);
      if (c === 123 || c === 91) {
        const isObj = c === 123;
        stack.push(isObj);
        j = skipWs(s, j + 1);
        if (s.charCodeAt(j) === (isObj ? 125 : 93)) {
          stack.pop();
          j++;
          expectValue = false;
        } else if (isObj) {
          j = expectKey(s, j);
        }
        continue;
      }
      if (j >= s.length) throw new Fail(j, j, 'Unexpected end of line: expected a value');
      j = scanAtom(s, j)[0];
      expectValue = false;
      continue;
    }
    if (stack.length === 0) return [j, kind];
    j = skipWs(s, j);
    const c = s.charCodeAt(j);
    const isObj = stack[stack.length - 1];
    if (c === 44) {
      j = skipWs(s, j + 1);
      if (isObj) j = expectKey(s, j);
      expectValue = true;
    } else if (c === (isObj ? 125 : 93)) {
      stack.pop();
      j++;
    } else {
      throw new Fail(j, Math.min(j + 1, s.length), `Unexpected ${describe(s, j)}: expected ',' or '${isObj ? '}' : ']'}'`);
    }
  }
}

function expectKey(s: string, j: number): number {
  if (s.charCodeAt(j) !== 34) throw new Fail(j, Math.min(j + 1, s.length), `Unexpected ${describe(s, j)}: expected a property name in double quotes`);
  j = skipWs(s, scanString(s, j));
  if (s.charCodeAt(j) !== 58) throw new Fail(j, Math.min(j + 1, s.length), `Unexpected ${describe(s, j)}: expected ':'`);
  return skipWs(s, j + 1);
}

function decodeKey(s: string, start: number, end: number): string {
  const raw = s.slice(start + 1, end - 1);
  if (raw.indexOf('\\') < 0) return raw;
  try {
    return JSON.parse(s.slice(start, end)) as string;
  } catch {
    return raw;
  }
}

/** Scans one line. Never throws: syntax errors come back in `error` with their position. */
export function scanLine(s: string): LineScan {
  const out: LineScan = { topKind: undefined, objStart: 0, objEnd: 0, fields: [] };
  // A BOM only at the very start, as the line parser strips it before JSON.parse: accepting one
  // after spaces too made the two disagree and left a valid-looking line with no error position.
  let i = skipWs(s, s.charCodeAt(0) === 0xfeff ? 1 : 0);
  out.objStart = i;
  try {
    if (i >= s.length) return out;
    if (s.charCodeAt(i) !== 123) {
      const [end, kind] = scanValue(s, i);
      out.topKind = kind;
      out.objEnd = end;
      const rest = skipWs(s, end);
      if (rest < s.length) throw new Fail(rest, s.length, `Unexpected text after the JSON value: ${describe(s, rest)}`);
      return out;
    }
    out.topKind = 'object';
    i = skipWs(s, i + 1);
    if (s.charCodeAt(i) === 125) {
      i++;
    } else {
      for (;;) {
        if (s.charCodeAt(i) !== 34) throw new Fail(i, Math.min(i + 1, s.length), `Unexpected ${describe(s, i)}: expected a property name in double quotes`);
        const keyStart = i;
        const keyEnd = scanString(s, i);
        i = skipWs(s, keyEnd);
        if (s.charCodeAt(i) !== 58) throw new Fail(i, Math.min(i + 1, s.length), `Unexpected ${describe(s, i)}: expected ':' after the property name`);
        i = skipWs(s, i + 1);
        if (i >= s.length) throw new Fail(i, i, `Unexpected end of line: expected a value for ${clip(s.slice(keyStart, keyEnd))}`);
        const valueStart = i;
        const [valueEnd, kind] = scanValue(s, i);
        out.fields.push({ key: decodeKey(s, keyStart, keyEnd), keyStart, keyEnd, valueStart, valueEnd, kind });
        i = skipWs(s, valueEnd);
        const c = s.charCodeAt(i);
        if (c === 44) {
          i = skipWs(s, i + 1);
          continue;
        }
        if (c === 125) {
          i++;
          break;
        }
        throw new Fail(i, Math.min(i + 1, s.length), `Unexpected ${describe(s, i)}: expected ',' or '}'`);
      }
    }
    out.objEnd = i;
    const rest = skipWs(s, i);
    if (rest < s.length) throw new Fail(rest, s.length, `Unexpected text after the closing '}': one JSON object per line`);
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    out.error = { start: e.start, end: Math.max(e.end, e.start), message: e.message };
  }
  return out;
}

/** The field at character `ch` (on its key or value), if any. */
export function fieldAt(scan: LineScan, ch: number): ScannedField | undefined {
  return scan.fields.find((f) => (ch >= f.keyStart && ch <= f.keyEnd) || (ch >= f.valueStart && ch <= f.valueEnd));
}

/** The last field named `key` (JSON.parse keeps the last of duplicate keys, so do we). */
export function findField(scan: LineScan, key: string): ScannedField | undefined {
  for (let i = scan.fields.length - 1; i >= 0; i--) if (scan.fields[i].key === key) return scan.fields[i];
  return undefined;
}

/**
 * Range of the value reached by `path` (object keys, array indices) from the value that starts
 * at `start`, so a schema error inside an array or object lands on the offending element.
 * Undefined when the path does not exist.
 */
export function valueRangeAt(s: string, start: number, path: readonly string[]): [number, number] | undefined {
  try {
    let pos = skipWs(s, start);
    for (const seg of path) {
      const c = s.charCodeAt(pos);
      if (c !== 91 && c !== 123) return undefined;
      const isObj = c === 123;
      let j = skipWs(s, pos + 1);
      let found = -1;
      for (let k = 0; s.charCodeAt(j) !== (isObj ? 125 : 93); k++) {
        let hit = !isObj && String(k) === seg;
        if (isObj) {
          const keyEnd = scanString(s, j);
          hit = decodeKey(s, j, keyEnd) === seg;
          j = expectKey(s, j);
        }
        // Duplicate keys: the last one wins, as in JSON.parse.
        if (hit) found = j;
        j = skipWs(s, scanValue(s, j)[0]);
        if (s.charCodeAt(j) === 44) j = skipWs(s, j + 1);
        else if (s.charCodeAt(j) !== (isObj ? 125 : 93)) return undefined;
      }
      if (found < 0) return undefined;
      pos = found;
    }
    return [pos, scanValue(s, pos)[0]];
  } catch (e) {
    if (e instanceof Fail) return undefined;
    throw e;
  }
}
