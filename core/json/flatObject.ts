import { ascii, byteTrie } from './byteTrie';
import { skipNested } from './skipNested';

/**
 * The one byte-level reader of a flat JSON object on one line (an NPU trace event): the trace
 * checker's scanner (trace/fastBytes.ts) and the metrics' and timeline's field reader
 * (trace/metrics/byteFields.ts) read a line through it and keep what each needs of its fields.
 * It reads straight from UTF-8 bytes, allocating nothing, and is sure or says no: escapes,
 * non-ASCII or control bytes, anything not valid JSON, more fields than it holds — the caller then
 * parses the line with JSON.parse. Numbers get the value JSON.parse gives them.
 */

// Kinds of JSON value, as bits, so that a set of allowed kinds is one mask (the checker's rules).
export const STR = 1, INT = 2, NUM = 4, BOOL = 8, NULL = 16;
/** An object or array, checked as JSON and skipped (`skipNested`). */
export const NESTED = 32;

export type Decode = (b: Uint8Array, s: number, e: number) => string;

export interface FlatObjectOptions {
  /** The key whose string value is looked up in `tags` while it is read (an event type). */
  tagKey?: string;
  tags?: readonly string[];
  /** The value of each tag (default: its index); at most a few hundred. */
  tagValues?: readonly number[];
  /** Fields held; a line with more is not read (default 64, at most 127). */
  maxFields?: number;
}

/** Integer digits read: 20-digit ids (64-bit) and then some; a longer number is left to JSON.parse. */
const MAX_DIGITS = 40;
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** 1 for a byte a plain string holds as it is: printable ASCII but the quote and the backslash. */
const PLAIN = new Uint8Array(256);
for (let c = 32; c <= 126; c++) if (c !== 34 && c !== 92) PLAIN[c] = 1;

/**
 * One line's fields, in arrays reused from line to line (index 0 to `n - 1`, in the order of the
 * line): the key's id (its index in `names`, -1 for another key), the value's kind, its byte range,
 * and for a number its value, for a boolean 1 or 0.
 */
export interface FlatObjectReader {
  /** Fields of the last line read. */
  n: number;
  readonly key: Int32Array;
  readonly kind: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** A number's value as JSON.parse gives it; a boolean's 1 or 0. */
  readonly num: Float64Array;
  /** 1 for a number written with '-'. */
  readonly neg: Uint8Array;
  /** 1 for an integer of more than 15 digits (an id may need its exact digits). */
  readonly big: Uint8Array;
  /** For a string value of the tag key: its tag's value, -1 for another string (left as it was for other kinds). */
  readonly tag: Int32Array;
  /**
   * Reads the object on bytes `[s, e)` of `b` (blanks around it allowed); false when it is not one
   * this reader is sure of. As the line readers give it, the byte at `e` ends the line (a line
   * break, or past the buffer), so no scan that stops at non-blanks runs into the next line.
   */
  read(b: Uint8Array, s: number, e: number, decode: Decode): boolean;
  /** The field of key `id` that JSON.parse would keep (the last of duplicates), or -1. */
  fieldOf(id: number): number;
}

/**
 * A reader of the objects whose keys of interest are `names`. Its tables are constants of the
 * closure `read` is (not properties of an object): a reader made once per process, as a format's
 * is, gets them compiled in as V8 compiles a module's constants, which the byte loops need to keep
 * the pace of the per-format scanners they replaced (a reader object's properties cost 5–15 %).
 */
export function flatObjectReader(names: readonly string[], opts: FlatObjectOptions = {}): FlatObjectReader {
  const max = opts.maxFields ?? 64;
  const key = new Int32Array(max);
  const kind = new Uint8Array(max);
  const start = new Int32Array(max);
  const end = new Int32Array(max);
  const num = new Float64Array(max);
  const neg = new Uint8Array(max);
  const big = new Uint8Array(max);
  const tag = new Int32Array(max);
  if (max > 127) throw new Error('a flat-object reader holds at most 127 fields');
  const { cls, width, next, accept } = byteTrie(names);
  const tagKey = opts.tagKey === undefined ? -1 : names.indexOf(opts.tagKey);
  const { cls: tCls, width: tWidth, next: tNext, accept: tAccept } = byteTrie(opts.tags ?? [], opts.tagValues);
  /** Every key's bytes in one array (key `id` at `keyAt[id]..keyAt[id + 1]`). */
  const bytes = names.map(ascii);
  const keyAt = new Int32Array(names.length + 1);
  for (let k = 0; k < names.length; k++) keyAt[k + 1] = keyAt[k] + bytes[k].length;
  const keyAll = new Uint8Array(keyAt[names.length]);
  bytes.forEach((x, k) => keyAll.set(x, keyAt[k]));
  /**
   * Each key with its closing quote as little-endian 32-bit words (key `id` at `wordAt[id]..wordAt[id + 1]`);
   * the last word's bytes past the quote are zero, and `lastMask[id]` clears them in the word read.
   */
  const wordAt = new Int32Array(names.length + 1);
  for (let k = 0; k < names.length; k++) wordAt[k + 1] = wordAt[k] + Math.ceil((bytes[k].length + 1) / 4);
  const keyWords = new Int32Array(wordAt[names.length]);
  const lastMask = new Int32Array(names.length);
  bytes.forEach((x, k) => {
    const quoted = new Uint8Array(4 * (wordAt[k + 1] - wordAt[k]));
    quoted.set(x);
    quoted[x.length] = 34;
    const words = new DataView(quoted.buffer);
    for (let w = 0; w < quoted.length / 4; w++) keyWords[wordAt[k] + w] = words.getInt32(4 * w, true);
    const used = (x.length + 1) % 4 || 4;
    lastMask[k] = used === 4 ? -1 : (1 << (8 * used)) - 1;
  });
  /** A view of the bytes last read, for the word compares (made again only when the array changes). */
  let viewOf: Uint8Array | undefined;
  let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(4));
  /**
   * The key last found at each field position, a row per tag (known once the tag key is read; row
   * 0 before): lines repeat their keys in the same order for each event type, so comparing the bytes
   * with the guess (independent loads) mostly replaces the trie walk (a chain of dependent loads per
   * byte, a quarter of the scanner's time).
   */
  const values = opts.tagValues ?? (opts.tags ?? []).map((_, k) => k);
  const guessAt = new Int32Array((2 + Math.max(-1, ...values)) * max).fill(-1);

  /**
   * By key id, the field last read with that key, stamped with the read it comes from: `read << 7 |
   * field`. A stamp of an older read means the line has no such key, so nothing is cleared between
   * lines (clearing cost the scanner 5 %).
   */
  const fieldOfKey = new Int32Array(names.length).fill(-1);
  let stamp = 0;
  const reader: FlatObjectReader = { n: 0, key, kind, start, end, num, neg, big, tag, read, fieldOf };

  function fieldOf(id: number): number {
    const v = fieldOfKey[id];
    return v >> 7 === stamp ? v & 127 : -1;
  }

  function read(b: Uint8Array, s: number, e: number, decode: Decode): boolean {
    reader.n = 0;
    if (++stamp === 1 << 23) {
      fieldOfKey.fill(-1);
      stamp = 1;
    }
    const now = stamp << 7;
    if (b !== viewOf) {
      viewOf = b;
      view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    }
    let i = s;
    while (i < e && (b[i] === 32 || b[i] === 9)) i++;
    // `i < e` first: the empty line a chunk ends with would read past the array, which V8 compiles apart.
    if (i >= e || b[i] !== 123) return false;
    i++;
    let n = 0;
    let row = 0;
    for (;;) {
      if (b[i] !== 34) {
        while (b[i] === 32 || b[i] === 9) i++;
        if (b[i] !== 34) return false;
      }
      if (n === max) return false;
      i++;
      let id = guessAt[row + n];
      if (id >= 0) {
        // A key name is plain printable ASCII: equal bytes need no other check. The name and its
        // closing quote are compared four bytes at a time (13–15 % less of the reader's time on
        // the 1M-event trace than a byte loop), byte by byte only where the line ends within a word.
        const len = keyAt[id + 1] - keyAt[id];
        const w0 = wordAt[id];
        const last = wordAt[id + 1] - 1;
        if (i + 4 * (last - w0 + 1) <= e) {
          let w = w0;
          for (let at = i; w < last && view.getInt32(at, true) === keyWords[w]; at += 4) w++;
          if (w === last && (view.getInt32(i + 4 * (last - w0), true) & lastMask[id]) === keyWords[last]) i += len;
          else id = -1;
        } else {
          const at = keyAt[id];
          let k = 0;
          if (i + len < e && b[i + len] === 34) while (k < len && b[i + k] === keyAll[at + k]) k++;
          if (k === len) i += len;
          else id = -1;
        }
      }
      if (id < 0) {
        let st = 1;
        while (i < e) {
          const c = b[i];
          if (c === 34) break;
          if (c === 92 || c - 32 > 94 || c < 32) return false;
          if (st !== 0) st = next[st * width + cls[c]];
          i++;
        }
        if (i >= e) return false;
        id = accept[st] - 1;
        if (id >= 0) guessAt[row + n] = id;
      }
      key[n] = id;
      // The last of duplicate keys is the one JSON.parse keeps.
      if (id >= 0) fieldOfKey[id] = now | n;
      i++;
      // Blanks are looked for only where the next byte is not the one compact JSON has there.
      if (b[i] !== 58) {
        while (b[i] === 32 || b[i] === 9) i++;
        if (b[i] !== 58) return false;
      }
      let c = b[++i];
      if (c === 32 || c === 9) {
        while (b[i] === 32 || b[i] === 9) i++;
        c = b[i];
      }
      start[n] = i;
      if (c === 34) {
        i++;
        let t = -1;
        if (id === tagKey) {
          // Only the tag key's value walks the tag trie.
          let ts = 1;
          while (i < e) {
            const d = b[i];
            if (d === 34) break;
            if (d === 92 || d < 32 || d > 126) return false;
            if (ts !== 0) ts = tNext[ts * tWidth + tCls[d]];
            i++;
          }
          t = tAccept[ts] - 1;
          if (t >= 0) row = (t + 1) * max;
        } else while (i < e && PLAIN[b[i]] !== 0) i++;
        if (i >= e || b[i] !== 34) return false;
        i++;
        kind[n] = STR;
        tag[n] = t;
      } else if (c === 45 || isDigit(c)) {
        const minus = c === 45;
        if (minus) i++;
        const ds = i;
        let m = 0;
        let d = b[i];
        if (d === 48) d = b[++i];
        else {
          while (d >= 48 && d <= 57) {
            m = m * 10 + (d - 48);
            d = b[++i];
          }
        }
        const ints = i - ds;
        if (ints === 0 || ints > MAX_DIGITS) return false;
        let frac = 0;
        let exact = true;
        let k = INT;
        if (d === 46) {
          d = b[++i];
          if (!isDigit(d)) return false;
          const fs = i;
          while (d >= 48 && d <= 57) {
            m = m * 10 + (d - 48);
            d = b[++i];
          }
          frac = i - fs;
          k = NUM;
        }
        if (b[i] === 101 || b[i] === 69) {
          i++;
          if (b[i] === 43 || b[i] === 45) i++;
          if (!isDigit(b[i])) return false;
          while (isDigit(b[i])) i++;
          k = NUM;
          exact = false;
        }
        // Up to 15 digits the mantissa is exact, and one division by an exact power of ten rounds
        // correctly, as JSON.parse does; anything else is read by Number() from its text.
        const v = exact && ints + frac <= 15 ? (frac ? m / POW10[frac] : m) : Number(decode(b, ds, i));
        kind[n] = k;
        num[n] = minus ? -v : v;
        neg[n] = minus ? 1 : 0;
        big[n] = ints > 15 ? 1 : 0;
      } else if (c === 116 && b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101) {
        kind[n] = BOOL;
        num[n] = 1;
        i += 4;
      } else if (c === 102 && b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101) {
        kind[n] = BOOL;
        num[n] = 0;
        i += 5;
      } else if (c === 110 && b[i + 1] === 117 && b[i + 2] === 108 && b[i + 3] === 108) {
        kind[n] = NULL;
        i += 4;
      } else if (c === 123 || c === 91) {
        const to = skipNested(b, i, e);
        if (to < 0) return false;
        kind[n] = NESTED;
        i = to;
      } else return false;
      end[n] = i;
      n++;
      let sep = b[i];
      if (sep === 32 || sep === 9) {
        while (b[i] === 32 || b[i] === 9) i++;
        sep = b[i];
      }
      i++;
      if (sep === 44) continue;
      if (sep === 125) break;
      return false;
    }
    while (i < e && (b[i] === 32 || b[i] === 9)) i++;
    if (i !== e) return false;
    reader.n = n;
    return true;
  }

  return reader;
}
