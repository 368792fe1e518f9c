import { createScanner, type JSONScanner } from 'jsonc-parser';
import type { ObjectRanges, SyntaxProblem } from './spans';

// jsonc-parser's SyntaxKind/ScanError are `const enum`s in its typings, which esbuild cannot inline
// across packages; the numbers are part of its stable API.
// Typed as number so comparisons do not narrow `tok` across calls that change it.
export const OPEN_BRACE: number = 1, CLOSE_BRACE: number = 2, OPEN_BRACKET: number = 3, CLOSE_BRACKET: number = 4, COMMA: number = 5, COLON: number = 6;
export const NULL: number = 7, TRUE: number = 8, FALSE: number = 9, STRING: number = 10, NUMBER: number = 11, LINE_COMMENT: number = 12, BLOCK_COMMENT: number = 13, UNKNOWN: number = 16, EOF: number = 17;
export const NONE: number = 0;

const SCAN_ERRORS: Record<number, string> = {
  1: 'Unterminated block comment: expected "*/"',
  2: 'Unterminated string: expected a closing \'"\'',
  3: 'Incomplete number',
  4: 'Invalid \\u escape: expected four hex digits',
  5: 'Invalid escape sequence in string',
  6: 'Control character must be escaped inside a string',
};

/**
 * A real CMDQ nests four levels deep; anything far deeper is pathological input. Recursion is bounded
 * here so that 10 000-deep nesting becomes a diagnostic instead of a stack overflow.
 */
export const MAX_DEPTH = 128;

export class Fail {
  constructor(readonly start: number, readonly end: number, readonly message: string) {}
}

/** The depth at which the elements of `cmdq` start: inside the root object and the array. */
export const ENTRY_DEPTH = 2;

/**
 * A recursive-descent parser over jsonc-parser's scanner that keeps the ranges of keys and values,
 * accepts JSONC (comments, trailing commas) and bounds its recursion.
 */
export class Parser {
  private readonly s: JSONScanner;
  tok = NONE;
  tokStart = 0;
  tokEnd = 0;
  /** End of the last consumed token: where a just-parsed value ends. */
  prevEnd = 0;
  /** Containers opened and not yet closed before the current token. */
  depth = 0;
  readonly syntax: SyntaxProblem[] = [];

  /** `what` names the document in messages ("a CMDQ", "an InferScope trace"): this parser reads several formats. */
  constructor(private readonly text: string, private readonly what: string) {
    this.s = createScanner(text, true);
  }

  /** Continues scanning at `pos` at the given depth (after a part handled elsewhere). */
  jumpTo(pos: number, depth: number): void {
    this.tok = NONE;
    this.tokEnd = pos;
    this.depth = depth;
    this.s.setPosition(pos);
    this.next();
  }

  /** Advances to the next significant token; throws on a token the scanner flagged. */
  next(): void {
    const old = this.tok;
    if (old === OPEN_BRACE || old === OPEN_BRACKET) this.depth++;
    else if (old === CLOSE_BRACE || old === CLOSE_BRACKET) this.depth--;
    this.prevEnd = this.tokEnd;
    for (;;) {
      const k = this.s.scan();
      const start = this.s.getTokenOffset();
      const end = start + this.s.getTokenLength();
      const err = this.s.getTokenError();
      if ((k === LINE_COMMENT || k === BLOCK_COMMENT) && err === 0) continue; // JSONC comments are tolerated.
      this.tok = k === LINE_COMMENT || k === BLOCK_COMMENT ? EOF : k;
      this.tokStart = start;
      this.tokEnd = end;
      if (err !== 0) throw new Fail(start, Math.max(end, start + 1), SCAN_ERRORS[err] ?? 'Invalid token');
      if (k === UNKNOWN) {
        const word = this.text.slice(start, Math.min(end, start + 20));
        throw new Fail(start, Math.max(end, start + 1), /^-?(NaN|Infinity)/.test(word)
          ? `${word} is not valid JSON: numbers must be finite` : `Unexpected '${word}': expected a JSON value`);
      }
      return;
    }
  }

  fail(expected: string): Fail {
    const what = this.tok === EOF ? 'end of file' : `'${this.text.slice(this.tokStart, Math.min(this.tokEnd, this.tokStart + 20))}'`;
    return new Fail(this.tokStart, Math.max(this.tokEnd, this.tokStart + 1), `Expected ${expected} but found ${what}`);
  }

  tokenValue(): string {
    return this.s.getTokenValue();
  }

  /** Parses any value into plain JSON (number text through Number, like JSON.parse). */
  value(depth: number): unknown {
    switch (this.tok) {
      case STRING: {
        const v = this.s.getTokenValue();
        this.next();
        return v;
      }
      case NUMBER: {
        const v = Number(this.s.getTokenValue());
        this.next();
        return v;
      }
      case TRUE: this.next(); return true;
      case FALSE: this.next(); return false;
      case NULL: this.next(); return null;
      case OPEN_BRACE: return this.object(depth, undefined);
      case OPEN_BRACKET: return this.array(depth, undefined);
      default:
        throw this.fail('a JSON value');
    }
  }

  private deep(depth: number): void {
    if (depth >= MAX_DEPTH) throw new Fail(this.tokStart, this.tokEnd, `Nesting deeper than ${MAX_DEPTH} levels is not supported in ${this.what}`);
  }

  /** Parses an array; `ranges` receives the start/end of each element. */
  array(depth: number, ranges: number[] | undefined): unknown[] {
    this.deep(depth);
    this.next();
    const arr: unknown[] = [];
    while (this.tok !== CLOSE_BRACKET) {
      const start = this.tokStart;
      arr.push(this.value(depth + 1));
      ranges?.push(start, this.prevEnd);
      if (!this.separator(CLOSE_BRACKET, "',' or ']'")) break;
    }
    this.next();
    return arr;
  }

  /** After an element: consumes a comma (a trailing one is tolerated, as in JSONC). False at the closer. */
  private separator(close: number, expected: string): boolean {
    if (this.tok === COMMA) {
      this.next();
      return this.tok !== close;
    }
    if (this.tok === close) return false;
    throw this.fail(expected);
  }

  /**
   * Walks the members of the object whose '{' is the current token, for a caller that reads some
   * values its own way (the CMDQ and InferScope roots): `onMember` gets each key and its range with
   * the value's first token current, and must consume the value. Ends past the '}' (a trailing
   * comma tolerated, as in JSONC) and returns where the '}' ends.
   */
  members(onMember: (key: string, keyStart: number, keyEnd: number) => void): number {
    this.next();
    while (this.tok !== CLOSE_BRACE) {
      if (this.tok !== STRING) throw this.fail("a property name in double quotes or '}'");
      const key = this.s.getTokenValue();
      const keyStart = this.tokStart;
      const keyEnd = this.tokEnd;
      this.next();
      if (this.tok !== COLON) throw this.fail("':' after the property name");
      this.next();
      onMember(key, keyStart, keyEnd);
      if (!this.separator(CLOSE_BRACE, "',' or '}'")) break;
    }
    const end = this.tokEnd;
    this.next();
    return end;
  }

  /**
   * Parses an object; `ranges` receives its keys' ranges and, when `elementsOf` names a key, the
   * ranges of that key's array elements (CMDQ keeps `deps_before`'s to point at one dependency).
   */
  object(depth: number, ranges: ObjectRanges | undefined, elementsOf?: string): Record<string, unknown> {
    this.deep(depth);
    const obj: Record<string, unknown> = {};
    this.next();
    while (this.tok !== CLOSE_BRACE) {
      if (this.tok !== STRING) throw this.fail(this.tok === COMMA ? 'a property name' : "a property name in double quotes or '}'");
      const key = this.s.getTokenValue();
      const keyStart = this.tokStart;
      const keyEnd = this.tokEnd;
      this.next();
      if (this.tok !== COLON) throw this.fail("':' after the property name");
      this.next();
      const valueStart = this.tokStart;
      let value: unknown;
      if (ranges && elementsOf !== undefined && key === elementsOf) {
        // The last such key wins, as with JSON.parse.
        if (this.tok === OPEN_BRACKET) {
          ranges.deps = [];
          value = this.array(depth + 1, ranges.deps);
        } else {
          ranges.deps = undefined;
          value = this.value(depth + 1);
        }
      } else value = this.value(depth + 1);
      // defineProperty: a "__proto__" key must become data, not the object's prototype.
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
      if (ranges) {
        ranges.keys.push(key);
        ranges.pos.push(keyStart, keyEnd, valueStart, this.prevEnd);
      }
      if (!this.separator(CLOSE_BRACE, "',' or '}'")) break;
    }
    this.next();
    return obj;
  }

  record(f: Fail): void {
    this.syntax.push({ start: f.start, end: f.end, message: f.message });
  }

  /** Column of the current token when only blanks precede it on its line, else -1. */
  firstOnLine(): number {
    const ls = this.text.lastIndexOf('\n', this.tokStart - 1) + 1;
    for (let i = ls; i < this.tokStart; i++) {
      const c = this.text.charCodeAt(i);
      if (c !== 32 && c !== 9) return -1;
    }
    return this.tokStart - ls;
  }

  /**
   * Skips past a broken entry. With `column` (entries start lines at that column, as generated files
   * have them) the layout is trusted over bracket counting, which an unbalanced brace ruins: it stops
   * at the next '{' starting a line at that column (true: a new entry) or at a ']' starting a line
   * further left (false: the end of the array). Without a layout it stops at the next ',' or ']' at
   * entry depth (false).
   */
  resync(after: number, column: number | undefined): boolean {
    for (;;) {
      if (this.tok === EOF) return false;
      if (column === undefined) {
        if (this.depth < ENTRY_DEPTH) return false;
        if (this.depth === ENTRY_DEPTH && (this.tok === COMMA || this.tok === CLOSE_BRACKET)) return false;
      } else if (this.tokStart > after && (this.tok === OPEN_BRACE || this.tok === CLOSE_BRACKET)) {
        const col = this.firstOnLine();
        if (this.tok === OPEN_BRACE && col === column) {
          this.depth = ENTRY_DEPTH;
          return true;
        }
        if (this.tok === CLOSE_BRACKET && col >= 0 && col < column) {
          this.depth = ENTRY_DEPTH;
          return false;
        }
      }
      try {
        this.next();
      } catch {
        // Further token errors inside a broken entry add nothing; keep skipping.
      }
    }
  }
}

/** JSON kind of the value that starts with the character code `c` (a value already known to be one). */
export function kindOfChar(c: number): string {
  if (c === 123) return 'object';
  if (c === 91) return 'array';
  if (c === 34) return 'string';
  if (c === 116 || c === 102) return 'boolean';
  if (c === 110) return 'null';
  return 'number';
}

export function kindOfToken(tok: number): string {
  switch (tok) {
    case OPEN_BRACE: return 'object';
    case OPEN_BRACKET: return 'array';
    case STRING: return 'string';
    case NUMBER: return 'number';
    case TRUE: case FALSE: return 'boolean';
    case NULL: return 'null';
    default: return 'invalid';
  }
}
