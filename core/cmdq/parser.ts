import { createScanner, type JSONScanner } from 'jsonc-parser';
import type { CmdqEntry, EntryRanges, ParsedCmdq, SyntaxProblem } from './model';
import { computeLineStarts } from './positions';
import { skipContainer, splitArray } from './split';

// jsonc-parser's SyntaxKind/ScanError are `const enum`s in its typings, which esbuild cannot inline
// across packages; the numbers are part of its stable API.
// Typed as number so comparisons do not narrow `tok` across calls that change it.
const OPEN_BRACE: number = 1, CLOSE_BRACE: number = 2, OPEN_BRACKET: number = 3, CLOSE_BRACKET: number = 4, COMMA: number = 5, COLON: number = 6;
const NULL: number = 7, TRUE: number = 8, FALSE: number = 9, STRING: number = 10, NUMBER: number = 11, LINE_COMMENT: number = 12, BLOCK_COMMENT: number = 13, UNKNOWN: number = 16, EOF: number = 17;
const NONE: number = 0;

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

class Fail {
  constructor(readonly start: number, readonly end: number, readonly message: string) {}
}

/** The depth at which the elements of `cmdq` start: inside the root object and the array. */
const ENTRY_DEPTH = 2;

/** A recursive-descent parser over jsonc-parser's scanner that keeps the ranges of keys and values. */
class Parser {
  private readonly s: JSONScanner;
  tok = NONE;
  tokStart = 0;
  tokEnd = 0;
  /** End of the last consumed token: where a just-parsed value ends. */
  prevEnd = 0;
  /** Containers opened and not yet closed before the current token. */
  depth = 0;
  readonly syntax: SyntaxProblem[] = [];

  constructor(private readonly text: string) {
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
      case OPEN_BRACE: return this.object(depth, undefined, false);
      case OPEN_BRACKET: return this.array(depth, undefined);
      default:
        throw this.fail('a JSON value');
    }
  }

  private deep(depth: number): void {
    if (depth >= MAX_DEPTH) throw new Fail(this.tokStart, this.tokEnd, `Nesting deeper than ${MAX_DEPTH} levels is not supported in a CMDQ`);
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

  /** Parses an object; `ranges` receives its keys' ranges and, for an entry, its deps' ranges. */
  object(depth: number, ranges: EntryRanges | undefined, isEntry: boolean): Record<string, unknown> {
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
      if (ranges && isEntry && key === 'deps_before') {
        // The last deps_before wins, as with JSON.parse.
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

function kindOfToken(tok: number): string {
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

export function kindOfChar(c: number): string {
  if (c === 123) return 'object';
  if (c === 91) return 'array';
  if (c === 34) return 'string';
  if (c === 116 || c === 102) return 'boolean';
  if (c === 110) return 'null';
  return 'number';
}

export function newEntry(index: number, start: number, end: number, kind: string): CmdqEntry {
  return { index, start, end, kind, obj: undefined, broken: false, id: undefined, opcode: undefined, layerId: undefined, deps: undefined, ranges: undefined };
}

/** Fills the fields derived from the entry's parsed value. */
export function derive(e: CmdqEntry): void {
  const o = e.obj;
  if (!o) return;
  const id = o.id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) e.id = id;
  const op = o.opcode;
  if (typeof op === 'string') e.opcode = op;
  const layer = o.layer_id;
  if (typeof layer === 'string' || layer === null) e.layerId = layer;
  const deps = o.deps_before;
  if (Array.isArray(deps)) e.deps = deps;
}

/** Parses the entry at the parser's current token with ranges (the scanner path). */
function scanEntry(p: Parser, index: number): CmdqEntry {
  const e = newEntry(index, p.tokStart, p.tokStart, kindOfToken(p.tok));
  if (p.tok !== OPEN_BRACE) {
    p.value(ENTRY_DEPTH);
  } else {
    e.ranges = { keys: [], pos: [], deps: undefined };
    e.obj = p.object(ENTRY_DEPTH, e.ranges, true);
    derive(e);
  }
  e.end = p.prevEnd;
  return e;
}

/** The slow path: every entry through the scanner, resynchronising after a broken one. */
function scanCmdqArray(p: Parser, text: string, out: ParsedCmdq): void {
  p.next();
  let last = -1;
  // The layout of the first entry: generated queues start each entry on its own line, same column.
  const col = p.tok === OPEN_BRACE ? p.firstOnLine() : -1;
  const column = col >= 0 ? col : undefined;
  while (p.tok !== CLOSE_BRACKET && p.tok !== EOF) {
    const start = p.tokStart;
    // Every round must consume input; recovery that cannot make progress ends the array here.
    if (start === last) throw p.fail("',' or ']'");
    last = start;
    let entry: CmdqEntry | undefined;
    let atNextEntry = false;
    // Well-formed entries still go through JSON.parse, so one typo does not slow the whole queue down.
    const end = p.tok === OPEN_BRACE ? skipContainer(text, start) : -1;
    if (end > 0) {
      try {
        const obj = JSON.parse(text.slice(start, end)) as Record<string, unknown>;
        entry = newEntry(out.entries.length, start, end, 'object');
        entry.obj = obj;
        derive(entry);
        p.jumpTo(end, ENTRY_DEPTH);
      } catch {
        entry = undefined;
      }
    }
    if (!entry) {
      try {
        entry = scanEntry(p, out.entries.length);
      } catch (f) {
        if (!(f instanceof Fail)) throw f;
        p.record(f);
        atNextEntry = p.resync(start, column);
        entry = newEntry(out.entries.length, start, Math.max(start + 1, p.prevEnd), 'invalid');
        entry.broken = true;
      }
    }
    out.entries.push(entry);
    if (atNextEntry) continue;
    if (p.tok === COMMA) {
      p.next();
    } else if (p.tok === OPEN_BRACE && p.depth === ENTRY_DEPTH) {
      // A forgotten comma between two entries: report it and read on as if it were there.
      p.record(p.fail("',' between entries"));
    } else if (p.tok !== CLOSE_BRACKET && p.tok !== EOF) {
      // Text after an entry (a stray '}' closed it early): skip to the next entry in the same column.
      p.record(p.fail("',' or ']'"));
      if (column === undefined || !p.resync(start, column)) {
        if (p.tok !== CLOSE_BRACKET) break;
      }
    }
  }
  if (p.tok === EOF) throw p.fail("']' closing the cmdq array");
  out.cmdqClose = p.tokStart;
  p.next();
}

/**
 * The fast path, for an array whose elements are delimited cleanly: each element is parsed with the
 * engine's JSON.parse (several times faster than any scanner in JS) and its ranges are left to be
 * scanned on demand. An element JSON.parse rejects (comments, a trailing comma, a real error) goes
 * through the scanner, which accepts JSONC and reports errors with their positions.
 */
function fastCmdqArray(text: string, spans: { open: number; starts: number[]; ends: number[]; close: number }, out: ParsedCmdq): void {
  const { starts, ends } = spans;
  const entries: CmdqEntry[] = new Array(starts.length);
  // One JSON.parse for the whole array when it is plain JSON (the usual case): one native call
  // instead of 100k. Otherwise element by element, so one bad entry costs only itself.
  let all: unknown[] | undefined;
  try {
    const v: unknown = JSON.parse(text.slice(spans.open, spans.close + 1));
    if (Array.isArray(v) && v.length === starts.length) all = v;
  } catch {
    all = undefined;
  }
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i];
    const e = newEntry(i, s, ends[i], kindOfChar(text.charCodeAt(s)));
    entries[i] = e;
    let v: unknown;
    try {
      v = all ? all[i] : JSON.parse(text.slice(s, ends[i]));
    } catch {
      const p = new Parser(text);
      p.jumpTo(s, ENTRY_DEPTH);
      try {
        const scanned = scanEntry(p, i);
        scanned.end = ends[i];
        entries[i] = scanned;
      } catch (f) {
        if (!(f instanceof Fail)) throw f;
        out.syntax.push({ start: f.start, end: f.end, message: f.message });
        e.broken = true;
        e.kind = 'invalid';
      }
      continue;
    }
    if (e.kind === 'object') {
      e.obj = v as Record<string, unknown>;
      derive(e);
    }
  }
  out.entries = entries;
}

function parseRoot(p: Parser, text: string, out: ParsedCmdq): void {
  p.next();
  if (p.tok === EOF) return;
  out.rootKind = kindOfToken(p.tok);
  out.rootSpan = { start: p.tokStart, end: p.tokEnd };
  if (p.tok !== OPEN_BRACE) {
    p.value(0);
    out.rootSpan.end = p.prevEnd;
  } else {
    p.next();
    while (p.tok !== CLOSE_BRACE) {
      if (p.tok !== STRING) throw p.fail("a property name in double quotes or '}'");
      const key = p.tokenValue();
      const keyStart = p.tokStart;
      const keyEnd = p.tokEnd;
      p.next();
      if (p.tok !== COLON) throw p.fail("':' after the property name");
      p.next();
      const valueStart = p.tokStart;
      if (key === 'cmdq') {
        out.cmdqKey = { start: keyStart, end: keyEnd };
        out.cmdqKind = kindOfToken(p.tok);
        out.cmdqValue = { start: valueStart, end: valueStart };
        out.entries = [];
        out.cmdqClose = undefined;
        if (p.tok === OPEN_BRACKET) {
          const spans = splitArray(text, p.tokStart);
          if (spans) {
            fastCmdqArray(text, { ...spans, open: p.tokStart }, out);
            out.cmdqClose = spans.close;
            p.jumpTo(spans.close + 1, 1);
          } else scanCmdqArray(p, text, out);
        } else p.value(1);
        out.cmdqValue.end = p.prevEnd;
      } else if (key === 'metadata' && p.tok === OPEN_BRACE) {
        out.metadataRanges = { keys: [], pos: [], deps: undefined };
        const obj = p.object(1, out.metadataRanges, false);
        out.metadata = { key, keyStart, keyEnd, valueStart, valueEnd: p.prevEnd, value: obj };
      } else {
        const value = p.value(1);
        if (key === 'metadata') out.metadata = { key, keyStart, keyEnd, valueStart, valueEnd: p.prevEnd, value };
      }
      if (p.tok === COMMA) {
        p.next();
        if (p.tok === CLOSE_BRACE) break;
      } else if (p.tok !== CLOSE_BRACE) throw p.fail("',' or '}'");
    }
    out.rootSpan.end = p.tokEnd;
    p.next();
  }
  if (p.tok !== EOF) throw p.fail('end of file after the top-level value');
}

/**
 * Parses a CMDQ document in one pass over jsonc-parser's scanner, keeping the range of every key,
 * value and `deps_before` element. No JSON tree is built (parseTree costs ~2 s on a 100k-entry
 * file). The `cmdq` array is split into elements by a bracket matcher and each element parsed on
 * its own, so a syntax error inside one entry is reported and the rest of the queue still checked.
 */
export function parseCmdq(text: string): ParsedCmdq {
  const p = new Parser(text);
  const out: ParsedCmdq = {
    text, lineStarts: [0], rootKind: undefined, rootSpan: { start: 0, end: 0 },
    cmdqKey: undefined, cmdqValue: undefined, cmdqKind: undefined, cmdqClose: undefined,
    metadata: undefined, metadataRanges: undefined, entries: [], syntax: [],
  };
  try {
    parseRoot(p, text, out);
  } catch (f) {
    if (!(f instanceof Fail)) throw f;
    p.record(f);
  }
  out.syntax.push(...p.syntax);
  out.syntax.sort((a, b) => a.start - b.start);
  out.lineStarts = computeLineStarts(text);
  return out;
}

/** Scans the ranges of the entry starting at `start` (used for entries parsed by JSON.parse). */
export function scanEntryRanges(text: string, start: number): EntryRanges {
  const ranges: EntryRanges = { keys: [], pos: [], deps: undefined };
  const p = new Parser(text);
  try {
    p.jumpTo(start, ENTRY_DEPTH);
    if (p.tok === OPEN_BRACE) p.object(ENTRY_DEPTH, ranges, true);
  } catch {
    // Only entries that parsed are asked for; keep what was found if the text changed under us.
  }
  return ranges;
}
