import type { LineEdit } from '../common/lines';
import type { CmdqEntry, ParsedCmdq } from './model';
import { kindOfChar } from '../json/jsoncParser';
import { derive, newEntry } from './parser';
import { scanWindow, windowFormsArray } from '../json/split';

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
  if (a <= open || b > close) return undefined;
  if (old.metadata && old.metadata.keyStart > close) return undefined;
  const delta = text.length - old.text.length;

  // Entries overlapping [a, b): i0 is the first ending after a, i1 the last starting before b.
  let i0 = 0;
  while (i0 < n && entries[i0].end <= a) i0++;
  let i1 = n - 1;
  while (i1 >= 0 && entries[i1].start >= b) i1--;
  const left = i0 > 0 ? entries[i0 - 1].end : open + 1;
  const right = i1 + 1 < n ? entries[i1 + 1].start : close;
  if (left > a || right < b) return undefined;

  const items = scanWindow(text, left, right + delta);
  if (!items) return undefined;
  // The window's commas and elements, with the entries (or brackets) around it, must form an array.
  if (!windowFormsArray(items, i0 > 0, i1 + 1 < n, true)) return undefined;
  const fresh: CmdqEntry[] = [];
  for (const it of items) {
    if (it.end < 0) continue;
    const e = newEntry(i0 + fresh.length, it.start, it.end, kindOfChar(text.charCodeAt(it.start)));
    let v: unknown;
    try {
      v = JSON.parse(text.slice(it.start, it.end));
    } catch {
      return undefined; // comments or a real error: the full parse reports it where it is
    }
    if (e.kind === 'object') {
      e.obj = v as Record<string, unknown>;
      derive(e);
    }
    fresh.push(e);
  }
  const out: CmdqEntry[] = entries.slice(0, i0);
  for (const e of fresh) out.push(e);
  const shift = out.length - (i1 + 1);
  for (let k = i1 + 1; k < n; k++) {
    const e = entries[k];
    // A copy: the previous version's model keeps its own offsets. Cached ranges are dropped, not shifted.
    out.push(delta === 0 && shift === 0 ? e : { ...e, index: k + shift, start: e.start + delta, end: e.end + delta, ranges: undefined });
  }
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
