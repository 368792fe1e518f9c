import type { CmdqDocument } from './document';
import { depRange, entryAnchor, field, rangesOf } from './fields';
import { depId } from './model';

/** What the cursor is on: an entry's `id` value, or the k-th element of its `deps_before`. */
export type CmdqToken =
  | { kind: 'id'; entry: number; start: number; end: number; target: number }
  | { kind: 'dep'; entry: number; k: number; id: number; start: number; end: number; target: number };

export function tokenAt(doc: CmdqDocument, offset: number): CmdqToken | undefined {
  const i = doc.entryAt(offset);
  if (i === undefined) return undefined;
  const p = doc.parsed;
  const e = p.entries[i];
  if (e.kind !== 'object' || e.broken) return undefined;
  const idf = field(p, e, 'id');
  if (idf && offset >= idf.valueStart && offset <= idf.valueEnd) {
    return { kind: 'id', entry: i, start: idf.valueStart, end: idf.valueEnd, target: i };
  }
  const deps = e.deps;
  const ranges = rangesOf(p, e).deps;
  if (!deps || !ranges) return undefined;
  // Elements are in order: binary search, since deps_before may hold a million numbers.
  let lo = 0;
  let hi = deps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offset < ranges[2 * mid]) hi = mid - 1;
    else if (offset > ranges[2 * mid + 1]) lo = mid + 1;
    else {
      const id = depId(deps[mid]);
      if (id < 0) return undefined;
      return { kind: 'dep', entry: i, k: mid, id, start: ranges[2 * mid], end: ranges[2 * mid + 1], target: doc.graph.indexOf(id) };
    }
  }
  return undefined;
}

export interface Span {
  start: number;
  end: number;
}

/** The `id` value of the entry a `deps_before` number names. */
export function definitionAt(doc: CmdqDocument, offset: number): Span | undefined {
  const t = tokenAt(doc, offset);
  if (!t || t.target < 0) return undefined;
  const [start, end] = entryAnchor(doc.parsed, doc.parsed.entries[t.target]);
  return { start, end };
}

/** Every `deps_before` element naming the entry `target`, in document order. */
export function referencesTo(doc: CmdqDocument, target: number): Span[] {
  const p = doc.parsed;
  const id = p.entries[target].id;
  if (id === undefined || doc.graph.indexOf(id) !== target) return [];
  const out: Span[] = [];
  for (const d of doc.graph.dependents(target)) {
    const e = p.entries[d];
    const deps = e.deps!;
    for (let k = 0; k < deps.length; k++) {
      if (depId(deps[k]) !== id) continue;
      const [start, end] = depRange(p, e, k);
      out.push({ start, end });
    }
  }
  return out;
}

/** References of what the cursor is on; with the declaration (the target's id) first when asked. */
export function referencesAt(doc: CmdqDocument, offset: number, includeDeclaration: boolean): Span[] {
  const t = tokenAt(doc, offset);
  if (!t || t.target < 0) return [];
  const refs = referencesTo(doc, t.target);
  if (!includeDeclaration) return refs;
  const [start, end] = entryAnchor(doc.parsed, doc.parsed.entries[t.target]);
  return [{ start, end }, ...refs];
}
