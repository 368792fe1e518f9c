import { Fail, Parser } from '../json/jsoncParser';
import type { InferscopeDocument } from './document';
import type { Element } from './model';
import { locate } from './parser';
import { validRange } from './scopeChecks';

export interface Span {
  start: number;
  end: number;
}

/** At most this many references are listed: one scope may be named by a million others. */
export const MAX_REFERENCES = 2000;

/** What the cursor is on inside a scope: its id, its parent_id, a child_ids element, an event_range index. */
export type ScopeToken =
  | { kind: 'id' | 'parent' | 'child'; scope: Element; id: string; start: number; end: number }
  | { kind: 'range'; scope: Element; index: number; start: number; end: number };

/** Element ranges of the array whose `[` is at `start` (start, end per element). */
export function arrayElements(text: string, start: number): number[] {
  const ranges: number[] = [];
  const p = new Parser(text, 'an InferScope trace');
  try {
    p.jumpTo(start, 3);
    p.array(3, ranges);
  } catch (f) {
    if (!(f instanceof Fail)) throw f;
  }
  return ranges;
}

function within(offset: number, a: number, b: number): boolean {
  return offset >= a && offset <= b;
}

export function scopeTokenAt(doc: InferscopeDocument, offset: number): ScopeToken | undefined {
  const hit = doc.elementAt(offset);
  if (!hit || hit.what !== 'scope' || !hit.e.obj) return undefined;
  const s = hit.e;
  const o = s.obj!;
  const text = doc.parsed.text;
  for (const [key, kind] of [['id', 'id'], ['parent_id', 'parent']] as const) {
    const at = locate(text, s.start, [key]);
    const v = o[key];
    if (at && typeof v === 'string' && within(offset, at.valueStart, at.valueEnd)) return { kind, scope: s, id: v, start: at.valueStart, end: at.valueEnd };
  }
  for (const key of ['child_ids', 'event_range'] as const) {
    const at = locate(text, s.start, [key]);
    const v = o[key];
    if (!at || !Array.isArray(v) || !within(offset, at.valueStart, at.valueEnd)) continue;
    const r = arrayElements(text, at.valueStart);
    for (let k = 0; 2 * k + 1 < r.length; k++) {
      if (!within(offset, r[2 * k], r[2 * k + 1])) continue;
      const x = v[k];
      if (key === 'child_ids' && typeof x === 'string') return { kind: 'child', scope: s, id: x, start: r[2 * k], end: r[2 * k + 1] };
      if (key === 'event_range' && Number.isInteger(x)) return { kind: 'range', scope: s, index: x as number, start: r[2 * k], end: r[2 * k + 1] };
    }
  }
  return undefined;
}

/** The `id` value of a scope, else its opening brace. */
export function scopeAnchor(doc: InferscopeDocument, s: Element): Span {
  const at = locate(doc.parsed.text, s.start, ['id']);
  return at ? { start: at.valueStart, end: at.valueEnd } : { start: s.start, end: s.start + 1 };
}

/** From parent_id / child_ids to the scope named; from an event_range index to that event. */
export function definitionAt(doc: InferscopeDocument, offset: number): Span | undefined {
  const t = scopeTokenAt(doc, offset);
  if (!t) return undefined;
  if (t.kind === 'range') {
    const e = doc.parsed.events[t.index];
    return e ? { start: e.start, end: e.end } : undefined;
  }
  const i = doc.scopeIds.get(t.id);
  return i === undefined ? undefined : scopeAnchor(doc, doc.parsed.scopes[i]);
}

/** Every parent_id and child_ids element naming the scope `id`, in document order, capped. */
export function referencesTo(doc: InferscopeDocument, id: string): Span[] {
  const out: Span[] = [];
  const text = doc.parsed.text;
  for (const s of doc.parsed.scopes) {
    if (out.length >= MAX_REFERENCES) break;
    const o = s.obj;
    if (!o) continue;
    const c = o.child_ids;
    if (Array.isArray(c) && c.includes(id)) {
      const at = locate(text, s.start, ['child_ids']);
      const r = at ? arrayElements(text, at.valueStart) : [];
      c.forEach((x, k) => {
        if (x === id && 2 * k + 1 < r.length) out.push({ start: r[2 * k], end: r[2 * k + 1] });
      });
    }
    if (o.parent_id === id) {
      const at = locate(text, s.start, ['parent_id']);
      if (at) out.push({ start: at.valueStart, end: at.valueEnd });
    }
  }
  return out.slice(0, MAX_REFERENCES);
}

export function referencesAt(doc: InferscopeDocument, offset: number, includeDeclaration: boolean): Span[] {
  const t = scopeTokenAt(doc, offset);
  if (!t || t.kind === 'range') return [];
  const refs = referencesTo(doc, t.id);
  const i = doc.scopeIds.get(t.id);
  return includeDeclaration && i !== undefined ? [scopeAnchor(doc, doc.parsed.scopes[i]), ...refs] : refs;
}

/** The innermost scope whose valid event_range holds event `index` (the smallest range), or -1. */
export function innermostScope(doc: InferscopeDocument, index: number): number {
  let best = -1;
  let size = Infinity;
  const n = doc.parsed.events.length;
  for (const s of doc.parsed.scopes) {
    const r = validRange(s, n);
    if (r && r[0] <= index && index <= r[1] && r[1] - r[0] < size) {
      best = s.index;
      size = r[1] - r[0];
    }
  }
  return best;
}
