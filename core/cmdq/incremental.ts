import type { LineEdit } from '../common/lines';
import type { CmdqEntry, ParsedCmdq } from './model';
import { resplitArray, type ElementKind } from '../json/arrayEdit';
import { derive, newEntry } from './parser';

const ENTRIES: ElementKind<CmdqEntry> = {
  make(index, start, end, kind, value) {
    const e = newEntry(index, start, end, kind);
    if (kind === 'object') {
      e.obj = value as Record<string, unknown>;
      derive(e);
    }
    return e;
  },
  // A fresh plain entry of one shape, not a spread: an entry of a queue parsed whole is a LazyEntry
  // whose offsets are getters, and spreading a million of them copied their private fields into
  // objects of another shape (a keystroke at 1M entries cost 7 s of CPU instead of 1). Cached
  // ranges are dropped, not shifted; the schema verdicts stay (the entry's value did not change).
  move: (e, index, delta) => {
    const m = newEntry(index, e.start + delta, e.end + delta, e.kind);
    m.obj = e.obj;
    m.broken = e.broken;
    m.id = e.id;
    m.opcode = e.opcode;
    m.layerId = e.layerId;
    m.deps = e.deps;
    m.schemaValid = e.schemaValid;
    m.schemaFails = e.schemaFails;
    return m;
  },
};

/**
 * Re-parses only the entries an edit touched. Applies to the common case of typing inside the
 * `cmdq` array of a document that parsed cleanly: the lines the edit replaced are widened to the
 * neighbouring entries, that window is split again and its elements parsed; entries after it are
 * shifted, not re-parsed. Anything else (several edits at once, a syntax error before or after,
 * an edit touching `[`, `]` or the metadata after the array) returns undefined: parse it all.
 */
export function reparseEdit(old: ParsedCmdq, text: string, edit: LineEdit): ParsedCmdq | undefined {
  const entries = old.entries;
  const n = entries.length;
  if (old.syntax.length || old.cmdqKind !== 'array' || old.cmdqClose === undefined || !old.cmdqValue || n === 0) return undefined;
  const ls = old.lineStarts;
  if (edit.start < 0 || edit.end > ls.length || edit.start >= edit.end) return undefined;
  const open = old.cmdqValue.start;
  const close = old.cmdqClose;
  const a = ls[edit.start];
  const b = edit.end < ls.length ? ls[edit.end] : old.text.length;
  if (old.metadata && old.metadata.keyStart > close) return undefined;
  const delta = text.length - old.text.length;
  const out = resplitArray(entries, text, open, close, a, b, delta, true, ENTRIES);
  if (!out) return undefined;
  return {
    ...old,
    text,
    lineStarts: spliceLineStarts(ls, text, edit, delta),
    entries: out,
    cmdqClose: close + delta,
    cmdqValue: { start: open, end: old.cmdqValue.end + delta },
    rootSpan: { start: old.rootSpan.start, end: old.rootSpan.end + delta },
    syntax: [],
  };
}

function spliceLineStarts(ls: number[], text: string, edit: LineEdit, delta: number): number[] {
  const out = ls.slice(0, edit.start + 1);
  let i = ls[edit.start];
  for (let line = 1; line < edit.newCount; line++) {
    while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i++;
    out.push(++i);
  }
  for (let k = edit.end; k < ls.length; k++) out.push(ls[k] + delta);
  return out;
}
