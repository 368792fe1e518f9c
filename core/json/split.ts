/**
 * Finds the elements of a JSON array without parsing them: a bracket matcher that only knows
 * strings and comments. It is the one pass over the whole `cmdq` text, so it is kept to indexOf
 * and charCodeAt. It gives up (undefined) on anything irregular between elements or an unclosed
 * bracket; the caller then parses with the scanner, which reports the error where it is.
 */

const QUOTE = 34, BACKSLASH = 92, SLASH = 47, STAR = 42, COMMA = 44;
const OPEN_BRACE = 123, CLOSE_BRACE = 125, OPEN_BRACKET = 91, CLOSE_BRACKET = 93;

export interface ArraySpans {
  starts: number[];
  ends: number[];
  /** Offset of the closing `]`. */
  close: number;
}

function skipTrivia(t: string, i: number): number {
  const n = t.length;
  while (i < n) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else if (c === SLASH) {
      const d = t.charCodeAt(i + 1);
      if (d === SLASH) {
        const nl = t.indexOf('\n', i);
        const cr = t.indexOf('\r', i);
        const e = nl < 0 ? cr : cr < 0 ? nl : Math.min(nl, cr);
        i = e < 0 ? n : e;
      } else if (d === STAR) {
        const e = t.indexOf('*/', i + 2);
        if (e < 0) return -1;
        i = e + 2;
      } else return i;
    } else return i;
  }
  return i;
}

/**
 * Index after the closing quote of the string opening at `i`, or -1. A loop, not indexOf: keys
 * and values are a few characters, and a call per string cost more than reading them.
 */
function skipString(t: string, i: number): number {
  const n = t.length;
  for (let j = i + 1; j < n; j++) {
    const c = t.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    // A raw line break inside a string is left for JSON.parse and the scanner to report.
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/** The characters the bracket matcher acts on; all others (most of a file) it steps over. */
const SPECIAL = new Uint8Array(128);
for (const c of [QUOTE, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, SLASH]) SPECIAL[c] = 1;

/** Index after the container opening at `i`, or -1 when it is not closed or a closer does not match. */
export function skipContainer(t: string, i: number): number {
  const n = t.length;
  // Expected closers; a mismatch (a stray ']' in an object) is irregular, not a place to stop.
  const stack: number[] = [];
  while (i < n) {
    const c = t.charCodeAt(i);
    if (c >= 128 || SPECIAL[c] === 0) {
      i++;
      continue;
    }
    if (c === QUOTE) {
      i = skipString(t, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE) stack.push(CLOSE_BRACE);
    else if (c === OPEN_BRACKET) stack.push(CLOSE_BRACKET);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    } else if (c === SLASH) {
      const j = skipTrivia(t, i);
      if (j < 0) return -1;
      if (j > i) {
        i = j;
        continue;
      }
    }
    i++;
  }
  return -1;
}

function skipAtom(t: string, i: number): number {
  const n = t.length;
  const s = i;
  while (i < n) {
    const c = t.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === 32 || c === 10 || c === 13 || c === 9 || c === SLASH || c === QUOTE) break;
    i++;
  }
  return i > s ? i : -1;
}

/** The elements of the array whose `[` is at `open`, or undefined when anything is irregular. */
export function splitArray(t: string, open: number): ArraySpans | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = skipTrivia(t, open + 1);
  if (i < 0) return undefined;
  if (t.charCodeAt(i) === CLOSE_BRACKET) return { starts, ends, close: i };
  for (;;) {
    const c = t.charCodeAt(i);
    const s = i;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) i = skipContainer(t, i);
    else if (c === QUOTE) i = skipString(t, i);
    else if (c === CLOSE_BRACE || c === COMMA || i >= t.length) return undefined;
    else i = skipAtom(t, i);
    if (i < 0) return undefined;
    starts.push(s);
    ends.push(i);
    i = skipTrivia(t, i);
    if (i < 0) return undefined;
    const d = t.charCodeAt(i);
    if (d === COMMA) {
      i = skipTrivia(t, i + 1);
      if (i < 0) return undefined;
      if (t.charCodeAt(i) === CLOSE_BRACKET) return { starts, ends, close: i };
      continue;
    }
    if (d === CLOSE_BRACKET) return { starts, ends, close: i };
    return undefined;
  }
}

/** Elements (`start`/`end`) and commas (`start` only, end -1) found in `[from, to)`, or undefined. */
export function scanWindow(t: string, from: number, to: number): { start: number; end: number }[] | undefined {
  const out: { start: number; end: number }[] = [];
  let i = from;
  for (;;) {
    i = skipTrivia(t, i);
    if (i < 0 || i > to) return undefined;
    if (i === to) return out;
    const c = t.charCodeAt(i);
    if (c === COMMA) {
      out.push({ start: i, end: -1 });
      i++;
      continue;
    }
    const s = i;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) i = skipContainer(t, i);
    else if (c === QUOTE) i = skipString(t, i);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) return undefined;
    else i = skipAtom(t, i);
    if (i < 0 || i > to) return undefined;
    out.push({ start: s, end: i });
  }
}

/**
 * Whether a window's commas and elements (from `scanWindow`), between an element or `[` before it
 * (`elementBefore`) and an element or `]` after it (`elementAfter`), still form a JSON array's
 * sequence; `trailingComma` says whether `,` may stand before `]` (JSONC allows it, JSON does not).
 */
export function windowFormsArray(items: readonly { end: number }[], elementBefore: boolean, elementAfter: boolean, trailingComma: boolean): boolean {
  const seq = [elementBefore ? 'el' : '[', ...items.map((x) => (x.end < 0 ? ',' : 'el')), elementAfter ? 'el' : ']'];
  for (let k = 1; k < seq.length; k++) {
    const p = seq[k - 1];
    const c = seq[k];
    const ok = p === '[' ? c === 'el' || c === ']' : p === 'el' ? c === ',' || c === ']' : c === 'el' || c === ']';
    if (!ok) return false;
  }
  return trailingComma || !(seq[seq.length - 1] === ']' && seq[seq.length - 2] === ',');
}
