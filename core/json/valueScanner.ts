/**
 * Finds where one JSON value ends in text fed in pieces (lines, or chunks of any size), holding
 * only a few flags between pieces: the one scanner under the streaming readers of large JSON files
 * (Chrome trace events, InferScope events and scopes). A character scan with no regular
 * expressions; strings are skipped with `indexOf`, so the cost is linear and low per character.
 * It does not validate: what it cuts out is handed to JSON.parse, which says what is wrong.
 */

const enum C { Quote = 0x22, Comma = 0x2c, Backslash = 0x5c, OpenBrace = 0x7b, CloseBrace = 0x7d, OpenBracket = 0x5b, CloseBracket = 0x5d }

/** Whether `c` is JSON white space. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Index of the quote that ends the string whose content goes on at `i`, or -1 when `s` ends first.
 * `escaped`: the piece before ended in an odd run of backslashes, so the first character here is
 * escaped (and is no quote's escape itself).
 */
export function stringEnd(s: string, i: number, escaped = false): number {
  if (escaped) return i < s.length ? quoteAfter(s, i + 1) : -1;
  return quoteAfter(s, i);
}

/** `stringEnd` of a string whose content begins at `i` of `s`: its one loop, the hot one of the scan. */
function quoteAfter(s: string, i: number): number {
  const from = i;
  for (;;) {
    const j = s.indexOf('"', i);
    if (j < 0) return -1;
    let k = j - 1;
    while (k >= from && s.charCodeAt(k) === C.Backslash) k--;
    if ((j - 1 - k) % 2 === 0) return j;
    i = j + 1;
  }
}

/** Whether a string cut at the end of `s` (its content from `from`) ends in an escaping backslash. */
function endsEscaped(s: string, from: number, escaped: boolean): boolean {
  let k = s.length - 1;
  let bs = 0;
  while (k >= from && s.charCodeAt(k) === C.Backslash) {
    k--;
    bs++;
  }
  if (k < from && escaped) bs++;
  return bs % 2 === 1;
}

/**
 * How a value that is not an object or an array ends. `token`: where its token ends (a string at
 * its closing quote, a number or literal at a delimiter or white space), as a JSON reader reads it.
 * `delimiter`: at the next ',', ']' or '}' outside strings, taking in whatever stands before it, as
 * the Chrome trace viewer's tolerant reading of `traceEvents` does (the cut text then fails to
 * parse and is reported as one broken event, not as several).
 */
export type BareEnd = 'token' | 'delimiter';

export class ValueScanner {
  private depth = 0;
  private inString = false;
  /** Inside a string, the piece before ended in an escaping backslash. */
  private escaped = false;
  /** A bare value read to its token's end (see `BareEnd`). */
  private bareToken = false;
  constructor(private readonly bareEnd: BareEnd) {}

  /** Starts a value whose first character is `c` (not yet scanned). */
  begin(c: number): void {
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.bareToken = this.bareEnd === 'token' && c !== C.OpenBrace && c !== C.OpenBracket && c !== C.Quote;
  }

  /**
   * Scans `s` from `i`. Returns where the value ends: the index just past its last character, or,
   * for a value that ends at a delimiter, the delimiter's index (the delimiter is not the value's).
   * -1: `s` ended inside the value; feed the next piece from its start.
   */
  scan(s: string, i: number): number {
    const n = s.length;
    if (this.bareToken) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c === C.Comma || c === C.CloseBrace || c === C.CloseBracket || isBlank(c)) return i;
      }
      return -1;
    }
    if (this.inString) {
      const j = stringEnd(s, i, this.escaped);
      if (j < 0) {
        this.escaped = endsEscaped(s, i, this.escaped);
        return -1;
      }
      this.inString = false;
      this.escaped = false;
      i = j + 1;
      if (this.depth === 0 && this.bareEnd === 'token') return i;
    }
    // The depth in a local and the end rule in a constant: the loop reads no field per character.
    let depth = this.depth;
    const tokenEnd = this.bareEnd === 'token';
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === C.Quote) {
        const j = quoteAfter(s, i + 1);
        if (j < 0) {
          this.depth = depth;
          this.inString = true;
          this.escaped = endsEscaped(s, i + 1, false);
          return -1;
        }
        i = j + 1;
        if (depth === 0 && tokenEnd) return i;
        continue;
      }
      if (c === C.OpenBrace || c === C.OpenBracket) depth++;
      else if (c === C.CloseBrace || c === C.CloseBracket) {
        // The end of the array (or object) around a bare value: the value ends before it.
        if (depth === 0) return i;
        if (--depth === 0) {
          this.depth = 0;
          return i + 1;
        }
      } else if (c === C.Comma && depth === 0) return i;
      i++;
    }
    this.depth = depth;
    return -1;
  }

  /**
   * The pieces are lines and one ended here: the line break it stands for is inside the value
   * (an escape before it escapes the break, not the next line's first character).
   */
  lineBreak(): void {
    this.escaped = false;
  }
}
