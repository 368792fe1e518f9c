import type { InferscopeDocument } from './document';

/**
 * The first lines of the events with these ids (the line the timeline draws each from), in the
 * order given; an id no event has any more (the trace was edited) is skipped.
 */
export function eventLines(doc: InferscopeDocument, ids: readonly string[]): number[] {
  const wanted = new Set(ids);
  const at = new Map<string, number>();
  for (const e of doc.parsed.events) {
    const id = e.obj?.id;
    if (typeof id === 'string' && wanted.has(id) && !at.has(id)) at.set(id, doc.positionAt(e.start).line);
  }
  const out: number[] = [];
  for (const id of ids) {
    const l = at.get(id);
    if (l !== undefined) out.push(l);
  }
  return out;
}
