import type { LineEdit } from '../common/lines';
import { kindOfChar } from '../json/jsoncParser';
import { computeLineStarts } from '../json/positions';
import { scanWindow, windowFormsArray } from '../json/split';
import type { Element, ParsedInferscope, TopField } from './model';

/**
 * Re-parses only the events an edit touched, as `core/cmdq/incremental.ts` does for CMDQ entries:
 * for typing inside the `events` array of a trace that parsed cleanly, the lines the edit replaced
 * are widened to the neighbouring events, that window is split again and its elements parsed;
 * events, scopes and top-level fields after it are shifted, not re-parsed. Anything else (several
 * edits, a syntax error anywhere, an edit touching `[`, `]` or outside the array, a comment) returns
 * undefined: parse it all.
 */
export function reparseEdit(old: ParsedInferscope, text: string, edit: LineEdit): ParsedInferscope | undefined {
  const f = old.fields.get('events');
  const events = old.events;
  const n = events.length;
  if (old.syntax.length || old.rootKind !== 'object' || f?.kind !== 'array' || n === 0) return undefined;
  const open = f.valueStart;
  const close = f.valueEnd - 1;
  // A repeated "events" key: the array read is the last one, and it must be the one at this key.
  if (old.text.charCodeAt(close) !== 93 || events[0].start <= open || events[n - 1].end > close) return undefined;
  const ls = old.lineStarts;
  if (edit.start < 0 || edit.end > ls.length || edit.start >= edit.end) return undefined;
  const a = ls[edit.start];
  const b = edit.end < ls.length ? ls[edit.end] : old.text.length;
  if (a <= open || b > close) return undefined;
  const delta = text.length - old.text.length;

  // Events overlapping [a, b): i0 is the first ending after a, i1 the last starting before b.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].end <= a) lo = mid + 1;
    else hi = mid;
  }
  const i0 = lo;
  let i1 = i0 - 1;
  while (i1 + 1 < n && events[i1 + 1].start < b) i1++;
  const left = i0 > 0 ? events[i0 - 1].end : open + 1;
  const right = i1 + 1 < n ? events[i1 + 1].start : close;
  if (left > a || right < b) return undefined;

  const items = scanWindow(text, left, right + delta);
  if (!items) return undefined;
  // The window's commas and elements, with the events (or brackets) around it, must form an array;
  // a trailing comma before `]` is an error the full parse reports.
  if (!windowFormsArray(items, i0 > 0, i1 + 1 < n, false)) return undefined;
  const fresh: Element[] = [];
  for (const it of items) {
    if (it.end < 0) continue;
    let v: unknown;
    try {
      v = JSON.parse(text.slice(it.start, it.end));
    } catch {
      return undefined; // comments or a real error: the full parse reports it where it is
    }
    const kind = kindOfChar(text.charCodeAt(it.start));
    fresh.push({ index: i0 + fresh.length, start: it.start, end: it.end, kind, obj: kind === 'object' ? (v as Record<string, unknown>) : undefined, broken: false });
  }
  const out: Element[] = events.slice(0, i0);
  for (const e of fresh) out.push(e);
  const shift = out.length - (i1 + 1);
  // Copies: the previous version's model keeps its own offsets.
  const moved = (e: Element, index: number): Element => (delta === 0 && index === e.index ? e : { ...e, index, start: e.start + delta, end: e.end + delta });
  for (let k = i1 + 1; k < n; k++) out.push(moved(events[k], k + shift));
  const at = (x: number) => (x >= close ? x + delta : x);
  const fields = new Map<string, TopField>();
  for (const [k, v] of old.fields) {
    fields.set(k, v.keyStart < close ? (v === f ? { ...v, valueEnd: v.valueEnd + delta } : v) : { ...v, keyStart: at(v.keyStart), keyEnd: at(v.keyEnd), valueStart: at(v.valueStart), valueEnd: at(v.valueEnd) });
  }
  const scopes = old.scopes.length && old.scopes[0].start > close ? old.scopes.map((s) => moved(s, s.index)) : old.scopes;
  const parsed: ParsedInferscope = {
    ...old,
    text,
    fields,
    events: out,
    scopes,
    scopesKey: old.scopesKey && { start: at(old.scopesKey.start), end: at(old.scopesKey.end) },
    rootSpan: { start: old.rootSpan.start, end: at(old.rootSpan.end) },
    syntax: [],
  };
  let starts: number[] | undefined;
  Object.defineProperty(parsed, 'lineStarts', { get: () => (starts ??= computeLineStarts(text)), enumerable: true });
  return parsed;
}
