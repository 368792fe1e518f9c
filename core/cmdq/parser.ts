import type { CmdqEntry, EntryRanges, ParsedCmdq } from './model';
import {
  CLOSE_BRACKET, COMMA, ENTRY_DEPTH, EOF, Fail, kindOfChar, kindOfToken, OPEN_BRACE, OPEN_BRACKET, Parser,
} from '../json/jsoncParser';
import { parseRoot, withLazyLineStarts } from '../json/root';
import { skipContainer, splitArray } from '../json/split';

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

function onRootMember(p: Parser, out: ParsedCmdq, key: string, keyStart: number, keyEnd: number): void {
  const text = out.text;
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
