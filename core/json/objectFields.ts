import { BOOL, INT, NESTED, NULL, NUM, STR } from './flatObject';

/**
 * A tokenizer of one JSON object in decoded text (an event of a large JSON document read as it
 * streams): it reads the object's top-level fields in place, keeping for the keys of interest the
 * value's kind, character range and, for a number, its value; every other value, nested objects
 * and arrays included, is checked as JSON and passed over by bracket matching, its range kept. No
 * object, string or array is made, which is what lets a reader of hundreds of MB go at a few
 * hundred MB/s where `JSON.parse` of each element builds what it then throws away.
 *
 * It is sure or says no, as `flatObjectReader` (the byte reader of one-line objects) is: text that
 * is not JSON `JSON.parse` accepts, a key of interest given twice, a top-level key with an escape,
 * nesting deeper than 64, or an object not ended before `limit` give -1, and the caller parses the
 * element the full way (whose errors it reports as before). White space may hold line breaks.
 */

/** Flags of a field's value. */
export const ESCAPED = 1, NEGATIVE = 2, EXPONENT = 4;

export interface ObjectFields {
  /** Top-level fields of the last object read, all keys counted. */
  fields: number;
  /** By key id (its index in `names`): the value's kind (STR, INT, NUM, BOOL, NULL, NESTED; 0: absent)... */
  readonly kind: Uint8Array;
  /** ...its range: a string's with its quotes... */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** ...a number's value as JSON.parse gives it, a boolean's 1 or 0... */
  readonly num: Float64Array;
  /** ...and its flags (ESCAPED, NEGATIVE, EXPONENT). */
  readonly flags: Uint8Array;
  /**
   * Reads the object whose `{` is at `i` of `text`, not past `limit`; returns the index just past
   * its `}`, or -1 when the tokenizer is not sure of it. `text` must go on past `limit` with a
   * character no JSON token holds or ends at (`#`): runs of blanks and digits are read up to it
   * without a bound check, and a read past the end of a string makes V8 drop the optimized code.
   */
  read(text: string, i: number, limit: number): number;
}

const MAX_DEPTH = 64;
/** Up to 15 digits a mantissa is exact, and one division by an exact power of ten rounds as JSON.parse does. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * After a string's escape whose backslash is at `i`: the index past it, or -1 when it is not one
 * JSON has.
 */
function escapeEnd(t: string, i: number, limit: number): number {
  const c = t.charCodeAt(i + 1);
  if (c === 117) {
    if (i + 6 > limit) return -1;
    for (let k = i + 2; k < i + 6; k++) if (!isHex(t.charCodeAt(k))) return -1;
    return i + 6;
  }
  return c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116 ? i + 2 : -1;
}

/** Whether the last string read by `stringEnd` held an escape. */
let escaped = false;

/**
 * The text whose strings are being read, and in it the next backslash, line feed and carriage
 * return at or after the last string read (-1 when none): a string's end is found with `indexOf`
 * (a memchr), and is plain when none of them lies before it. Line ends are looked for this way
 * because every pretty-printed file has them between its strings (with CR counted among the
 * other control characters, every string of a CRLF file was read character by character). A
 * text with other control characters (tab...) has its strings read character by character.
 */
let scanned = '';
let nextBackslash = -1;
let nextLf = -1;
let nextCr = -1;
let otherControls = false;
/**
 * Where the last string read began. The next backslash and line ends found from there hold for
 * any string after it, not for one before: a string read again (an event's `args` read for one
 * field after the event) or a text equal to the last one (`!==` compares characters: the same
 * file checked twice in one process) read from its start again, looks for them again.
 */
let lastString = 0;
// Linear: one class. The control characters other than LF and CR are what it looks for.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f]/;

/** Strings of a new text: where its backslashes and line ends are is found as its strings are read. */
function newText(t: string): void {
  scanned = t;
  nextBackslash = nextLf = nextCr = 0;
  otherControls = CONTROL.test(t);
}

/** The index of the quote that ends the string whose content starts at `i`, or -1 (not JSON, or `limit` first). */
function stringEnd(t: string, i: number, limit: number): number {
  escaped = false;
  if (t !== scanned) newText(t);
  else if (i < lastString) nextBackslash = nextLf = nextCr = 0;
  lastString = i;
  if (!otherControls) {
    const j = t.indexOf('"', i);
    if (j < 0 || j >= limit) return -1;
    if (nextBackslash >= 0 && nextBackslash < i) nextBackslash = t.indexOf('\\', i);
    if (nextLf >= 0 && nextLf < i) nextLf = t.indexOf('\n', i);
    if (nextCr >= 0 && nextCr < i) nextCr = t.indexOf('\r', i);
    if ((nextBackslash < 0 || nextBackslash > j) && (nextLf < 0 || nextLf > j) && (nextCr < 0 || nextCr > j)) return j;
  }
  return stringEndByChar(t, i, limit);
}

function stringEndByChar(t: string, i: number, limit: number): number {
  while (i < limit) {
    const c = t.charCodeAt(i);
    if (c === 34) return i;
    if (c === 92) {
      escaped = true;
      i = escapeEnd(t, i, limit);
      if (i < 0) return -1;
    } else if (c < 32) return -1;
    else i++;
  }
  return -1;
}

/** The index past a JSON number starting at `i`, or -1. */
function numberEnd(t: string, i: number): number {
  if (t.charCodeAt(i) === 45) i++;
  const c = t.charCodeAt(i);
  if (c === 48) i++;
  else if (c > 48 && c <= 57) while (isDigit(t.charCodeAt(i))) i++;
  else return -1;
  if (t.charCodeAt(i) === 46) {
    i++;
    if (!isDigit(t.charCodeAt(i))) return -1;
    while (isDigit(t.charCodeAt(i))) i++;
  }
  const e = t.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const s = t.charCodeAt(i);
    if (s === 43 || s === 45) i++;
    if (!isDigit(t.charCodeAt(i))) return -1;
    while (isDigit(t.charCodeAt(i))) i++;
  }
  return i;
}

/** The index past `true`, `false` or `null` at `i`, or -1. */
function literalEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 116) return t.startsWith('true', i) ? i + 4 : -1;
  if (c === 102) return t.startsWith('false', i) ? i + 5 : -1;
  if (c === 110) return t.startsWith('null', i) ? i + 4 : -1;
  return -1;
}

/** Per open bracket of a nested value: 1 for an object, 2 for an array. */
const stack = new Uint8Array(MAX_DEPTH);

/** The index past the object or array that opens at `i`, checked as JSON, or -1. */
export function nestedEnd(t: string, i: number, limit: number): number {
  let depth = 0;
  for (;;) {
    // At a value.
    let c = t.charCodeAt(i);
    while (isWs(c)) c = t.charCodeAt(++i);
    if (i >= limit) return -1;
    if (c === 123 || c === 91) {
      if (depth === MAX_DEPTH) return -1;
      stack[depth++] = c === 123 ? 1 : 2;
      i++;
      let d = t.charCodeAt(i);
      while (isWs(d)) d = t.charCodeAt(++i);
      if (d === (c === 123 ? 125 : 93)) {
        i++;
        depth--;
      } else {
        if (c === 123) {
          i = keyEnd(t, i, limit);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c === 34) {
      i = stringEnd(t, i + 1, limit);
      if (i < 0) return -1;
      i++;
    } else {
      i = c === 45 || isDigit(c) ? numberEnd(t, i) : literalEnd(t, i);
      if (i < 0 || i > limit) return -1;
    }
    // After a value: a comma and the next one, or closing brackets.
    for (;;) {
      if (depth === 0) return i;
      let d = t.charCodeAt(i);
      while (isWs(d)) d = t.charCodeAt(++i);
      if (i >= limit) return -1;
      const top = stack[depth - 1];
      if (d === 44) {
        i++;
        if (top === 1) {
          i = keyEnd(t, i, limit);
          if (i < 0) return -1;
        }
        break;
      }
      if (d !== (top === 1 ? 125 : 93)) return -1;
      i++;
      depth--;
    }
  }
}

/** After `"key":` and the blanks around it, from `i` (blanks before the key allowed), or -1. */
function keyEnd(t: string, i: number, limit: number): number {
  let c = t.charCodeAt(i);
  while (isWs(c)) c = t.charCodeAt(++i);
  if (c !== 34) return -1;
  i = stringEnd(t, i + 1, limit);
  if (i < 0) return -1;
  c = t.charCodeAt(++i);
  while (isWs(c)) c = t.charCodeAt(++i);
  return c === 58 && i < limit ? i + 1 : -1;
}

/**
 * A tokenizer for objects whose keys of interest are `names` (plain ASCII without escapes: the
 * key `"ph"` is found as written, not as `"\u0070h"`, which makes the tokenizer say no).
 */
export function objectFieldsReader(names: readonly string[]): ObjectFields {
  const n = names.length;
  const kind = new Uint8Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  const num = new Float64Array(n);
  const flags = new Uint8Array(n);
  /** Keys by a hash of their characters and their length, in a table with no two in a slot (checked here). */
  const SLOTS = 256;
  const slot = new Int16Array(SLOTS).fill(-1);
  const hash = (h: number, len: number) => (h ^ (len * 97)) & (SLOTS - 1);
  names.forEach((name, id) => {
    let h = 0;
    for (let k = 0; k < name.length; k++) h = (h * 31 + name.charCodeAt(k)) | 0;
    const s = hash(h, name.length);
    if (slot[s] >= 0) throw new Error(`objectFieldsReader: keys ${names[slot[s]]} and ${name} share a slot`);
    slot[s] = id;
  });
  /** By key id, the read that last gave it (a key given twice in one object makes the tokenizer say no). */
  const seen = new Int32Array(n);
  let stamp = 0;
  const reader: ObjectFields = { fields: 0, kind, start, end, num, flags, read };

  function read(t: string, i: number, limit: number): number {
    if (++stamp === 0x7fffffff) {
      seen.fill(0);
      stamp = 1;
    }
    for (let k = 0; k < n; k++) kind[k] = 0;
    let fields = 0;
    if (t.charCodeAt(i++) !== 123) return -1;
    let c = t.charCodeAt(i);
    while (isWs(c)) c = t.charCodeAt(++i);
    if (i >= limit) return -1;
    if (c === 125) {
      reader.fields = 0;
      return i + 1;
    }
    for (;;) {
      // A key: its hash as it is read; an escape in it makes the tokenizer say no.
      if (c !== 34) return -1;
      const ks = ++i;
      let h = 0;
      for (;;) {
        if (i >= limit) return -1;
        c = t.charCodeAt(i);
        if (c === 34) break;
        if (c === 92 || c < 32) return -1;
        h = (h * 31 + c) | 0;
        i++;
      }
      const len = i - ks;
      let id = slot[hash(h, len)];
      if (id >= 0 && (names[id].length !== len || !t.startsWith(names[id], ks))) id = -1;
      c = t.charCodeAt(++i);
      while (isWs(c)) c = t.charCodeAt(++i);
      if (c !== 58) return -1;
      c = t.charCodeAt(++i);
      while (isWs(c)) c = t.charCodeAt(++i);
      if (i >= limit) return -1;
      const vs = i;
      let k = 0;
      let f = 0;
      let v = 0;
      if (c === 34) {
        i = stringEnd(t, i + 1, limit);
        if (i < 0) return -1;
        i++;
        k = STR;
        if (escaped) f = ESCAPED;
      } else if (c === 123 || c === 91) {
        i = nestedEnd(t, i, limit);
        if (i < 0) return -1;
        k = NESTED;
      } else if (c === 45 || isDigit(c)) {
        i = numberEnd(t, i);
        if (i < 0 || i > limit) return -1;
        if (id >= 0) {
          // The value: exact from the digits up to 15 of them, else as Number() reads the text.
          const neg = c === 45;
          let m = 0, digits = 0, frac = 0, j = neg ? vs + 1 : vs;
          let d = t.charCodeAt(j);
          for (; isDigit(d); d = t.charCodeAt(++j)) {
            m = m * 10 + d - 48;
            digits++;
          }
          k = INT;
          if (d === 46) {
            k = NUM;
            for (d = t.charCodeAt(++j); isDigit(d); d = t.charCodeAt(++j)) {
              m = m * 10 + d - 48;
              frac++;
            }
          }
          if (j < i) {
            k = NUM;
            f |= EXPONENT;
          }
          v = j === i && digits + frac <= 15 ? (frac ? m / POW10[frac] : m) : Number(t.slice(neg ? vs + 1 : vs, i));
          if (neg) {
            v = -v;
            f |= NEGATIVE;
          }
        }
      } else {
        i = literalEnd(t, i);
        if (i < 0 || i > limit) return -1;
        k = c === 110 ? NULL : BOOL;
        v = c === 116 ? 1 : 0;
      }
      if (id >= 0) {
        if (seen[id] === stamp) return -1;
        seen[id] = stamp;
        kind[id] = k;
        start[id] = vs;
        end[id] = i;
        num[id] = v;
        flags[id] = f;
      }
      fields++;
      c = t.charCodeAt(i);
      while (isWs(c)) c = t.charCodeAt(++i);
      if (i >= limit) return -1;
      if (c === 125) {
        reader.fields = fields;
        return i + 1;
      }
      if (c !== 44) return -1;
      c = t.charCodeAt(++i);
      while (isWs(c)) c = t.charCodeAt(++i);
    }
  }

  return reader;
}
