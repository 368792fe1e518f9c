import type { LineEdit } from '../common/lines';
import { resplitArray, type ElementKind } from '../json/arrayEdit';
import { withLazyLineStarts } from '../json/root';
import type { Element, ParsedInferscope, TopField } from './model';

const ELEMENTS: ElementKind<Element> = {
  make: (index, start, end, kind, value) => ({ index, start, end, kind, obj: kind === 'object' ? (value as Record<string, unknown>) : undefined, broken: false }),
  move: (e, index, delta) => ({ ...e, index, start: e.start + delta, end: e.end + delta }),
};

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
  const delta = text.length - old.text.length;
  // A trailing comma before `]` is an error the full parse reports.
  const out = resplitArray(events, text, open, close, a, b, delta, false, ELEMENTS);
  if (!out) return undefined;
  const at = (x: number) => (x >= close ? x + delta : x);
  const fields = new Map<string, TopField>();
  for (const [k, v] of old.fields) {
    fields.set(k, v.keyStart < close ? (v === f ? { ...v, valueEnd: v.valueEnd + delta } : v) : { ...v, keyStart: at(v.keyStart), keyEnd: at(v.keyEnd), valueStart: at(v.valueStart), valueEnd: at(v.valueEnd) });
  }
  const scopes = old.scopes.length && old.scopes[0].start > close ? old.scopes.map((s) => (delta === 0 ? s : ELEMENTS.move(s, s.index, delta))) : old.scopes;
  return withLazyLineStarts<ParsedInferscope>({
    ...old,
    text,
    fields,
    events: out,
    scopes,
    scopesKey: old.scopesKey && { start: at(old.scopesKey.start), end: at(old.scopesKey.end) },
    rootSpan: { start: old.rootSpan.start, end: at(old.rootSpan.end) },
    syntax: [],
  });
}
