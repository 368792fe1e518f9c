import type { CmdqEntry, EntryRanges, ParsedCmdq } from './model';
import {
  CLOSE_BRACKET, COMMA, ENTRY_DEPTH, EOF, Fail, kindOfChar, kindOfToken, OPEN_BRACE, OPEN_BRACKET, Parser,
} from '../json/jsoncParser';
import { parseRoot, withLazyLineStarts } from '../json/root';
import { skipContainer, splitArray, type ArraySpans } from '../json/split';

/** The document as the parser's messages name it. */
const CMDQ = 'a CMDQ';

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
    e.obj = p.object(ENTRY_DEPTH, e.ranges, 'deps_before');
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
function fastCmdqArray(text: string, spans: { starts: number[]; ends: number[]; close: number }, out: ParsedCmdq): void {
  const { starts, ends } = spans;
  const entries: CmdqEntry[] = new Array(starts.length);
  // Element by element, so one bad entry costs only itself: the whole array in one JSON.parse was
  // tried first (wholeArray) and refused.
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i];
    const e = newEntry(i, s, ends[i], kindOfChar(text.charCodeAt(s)));
    entries[i] = e;
    let v: unknown;
    try {
      v = JSON.parse(text.slice(s, ends[i]));
    } catch {
      const p = new Parser(text, CMDQ);
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

/** The JSON kind of a parsed value, as kindOfChar names it from the value's first character. */
function kindOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'object' ? 'object' : t === 'string' ? 'string' : t === 'boolean' ? 'boolean' : 'number';
}

/**
 * The element spans of a `cmdq` array that JSON.parse accepted whole, found by the bracket matcher
 * the first time any entry's position is asked for. A clean check asks for none (positions are for
 * problems, hovers and navigation), and the matcher was a quarter of the CLI's time on a 29 MB queue
 * (issue #31).
 */
class LazySpans {
  private spans: ArraySpans | undefined;

  constructor(private readonly text: string, private readonly open: number, private readonly n: number) {}

  get(): ArraySpans {
    if (!this.spans) {
      const s = splitArray(this.text, this.open);
      // The text is strict JSON (JSON.parse took it): the matcher, which also knows comments, cannot disagree.
      if (!s || s.starts.length !== this.n) throw new Error('cmdq: the bracket matcher disagrees with JSON.parse');
      this.spans = s;
    }
    return this.spans;
  }
}

/** An entry of a queue JSON.parse took whole: its offsets come from LazySpans when first read. */
class LazyEntry implements CmdqEntry {
  obj: Record<string, unknown> | undefined = undefined;
  broken = false;
  id: number | undefined = undefined;
  opcode: string | undefined = undefined;
  layerId: string | null | undefined = undefined;
  deps: readonly unknown[] | undefined = undefined;
  ranges: EntryRanges | undefined = undefined;
  schemaValid?: boolean = undefined;
  schemaFails?: boolean = undefined;
  private s = -1;
  private e = -1;

  constructor(public index: number, public kind: string, private readonly spans: LazySpans) {}

  get start(): number {
    return this.s >= 0 ? this.s : (this.s = this.spans.get().starts[this.index]);
  }

  set start(v: number) {
    this.s = v;
  }

  get end(): number {
    return this.e >= 0 ? this.e : (this.e = this.spans.get().ends[this.index]);
  }

  set end(v: number) {
    this.e = v;
  }
}

/**
 * The `cmdq` array opening at `open` parsed by one JSON.parse without first finding its elements:
 * it is tried up to the last `]` of the document, which closes the array when nothing after it
 * holds one (the array is the root's last member, or the members after it have no arrays). A slice
 * from `[` that JSON.parse accepts ends exactly at the matching `]`, so success proves the guess.
 * When the guess was too long, V8 names where the array ended ("after JSON at position N") and that
 * is tried once; otherwise (comments, trailing commas, errors) undefined: the caller splits.
 */
function wholeArray(text: string, open: number): { values: unknown[]; close: number } | undefined {
  let close = text.lastIndexOf(']');
  for (let attempt = 0; attempt < 2 && close > open; attempt++) {
    try {
      const v: unknown = JSON.parse(text.slice(open, close + 1));
      return Array.isArray(v) ? { values: v, close } : undefined;
    } catch (e) {
      const at = /after JSON at position (\d+)/.exec(e instanceof Error ? e.message : '');
      if (!at) return undefined;
      let c = open + Number(at[1]) - 1;
      while (c > open && text.charCodeAt(c) !== CLOSE_BRACKET_CHAR) c--;
      if (c >= close) return undefined;
      close = c;
    }
  }
  return undefined;
}

const CLOSE_BRACKET_CHAR = 93;

/** The entries of a `cmdq` array JSON.parse took whole (`wholeArray`), with lazily found offsets. */
function lazyCmdqArray(text: string, open: number, values: unknown[], out: ParsedCmdq): void {
  const spans = new LazySpans(text, open, values.length);
  const entries: CmdqEntry[] = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const e = new LazyEntry(i, kindOfValue(v), spans);
    if (e.kind === 'object') {
      e.obj = v as Record<string, unknown>;
      derive(e);
    }
    entries[i] = e;
  }
  out.entries = entries;
}

function onRootMember(p: Parser, out: ParsedCmdq, key: string, keyStart: number, keyEnd: number): void {
  const text = out.text;
  const valueStart = p.tokStart;
  if (key === 'cmdq') {
    out.cmdqKey = { start: keyStart, end: keyEnd };
    out.cmdqKind = kindOfToken(p.tok);
    out.cmdqValue = { start: valueStart, end: valueStart };
    out.entries = [];
    out.cmdqClose = undefined;
    const whole = p.tok === OPEN_BRACKET ? wholeArray(text, p.tokStart) : undefined;
    if (whole) {
      lazyCmdqArray(text, p.tokStart, whole.values, out);
      out.cmdqClose = whole.close;
      p.jumpTo(whole.close + 1, 1);
    } else if (p.tok === OPEN_BRACKET) {
      const spans = splitArray(text, p.tokStart);
      if (spans) {
        fastCmdqArray(text, spans, out);
        out.cmdqClose = spans.close;
        p.jumpTo(spans.close + 1, 1);
      } else scanCmdqArray(p, text, out);
    } else p.value(1);
    out.cmdqValue.end = p.prevEnd;
  } else if (key === 'metadata' && p.tok === OPEN_BRACE) {
    out.metadataRanges = { keys: [], pos: [], deps: undefined };
    const obj = p.object(1, out.metadataRanges);
    out.metadata = { key, keyStart, keyEnd, valueStart, valueEnd: p.prevEnd, value: obj };
  } else {
    const value = p.value(1);
    if (key === 'metadata') out.metadata = { key, keyStart, keyEnd, valueStart, valueEnd: p.prevEnd, value };
  }
}

/**
 * Parses a CMDQ document in one pass over jsonc-parser's scanner, keeping the range of every key,
 * value and `deps_before` element. No JSON tree is built (parseTree costs ~2 s on a 100k-entry
 * file). The `cmdq` array is split into elements by a bracket matcher and each element parsed on
 * its own, so a syntax error inside one entry is reported and the rest of the queue still checked.
 */
export function parseCmdq(text: string): ParsedCmdq {
  const out: ParsedCmdq = withLazyLineStarts({
    text, lineStarts: [0], rootKind: undefined, rootSpan: { start: 0, end: 0 },
    cmdqKey: undefined, cmdqValue: undefined, cmdqKind: undefined, cmdqClose: undefined,
    metadata: undefined, metadataRanges: undefined, entries: [], syntax: [],
  });
  parseRoot(out, CMDQ, (p, key, keyStart, keyEnd) => onRootMember(p, out, key, keyStart, keyEnd));
  return out;
}

/** Scans the ranges of the entry starting at `start` (used for entries parsed by JSON.parse). */
export function scanEntryRanges(text: string, start: number): EntryRanges {
  const ranges: EntryRanges = { keys: [], pos: [], deps: undefined };
  const p = new Parser(text, CMDQ);
  try {
    p.jumpTo(start, ENTRY_DEPTH);
    if (p.tok === OPEN_BRACE) p.object(ENTRY_DEPTH, ranges, 'deps_before');
  } catch {
    // Only entries that parsed are asked for; keep what was found if the text changed under us.
  }
  return ranges;
}
