import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { RelatedAt } from '../json/report';
import { quoteString } from '../common/schemaMessages';
import type { Element, ParsedInferscope } from './model';
import { keyAt, valueAt } from './eventChecks';
import type { Report } from '../json/report';
import type { TimeIndex } from './times';
import { KeyIndex } from '../common/keyIndex';
import { childListing } from './childListing';

/** At most this many scopes of one cycle are named in its related information. */
const MAX_CYCLE_RELATED = 20;

export function scopeName(s: Element): string {
  const id = s.obj?.id;
  return typeof id === 'string' ? `"${escapeControl(clip(id, 60))}"` : `#${s.index}`;
}

/** The scope index of every string id (the first scope with it). */
export function scopeIndex(scopes: readonly Element[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of scopes) {
    const id = s.obj?.id;
    if (typeof id === 'string' && !m.has(id)) m.set(id, s.index);
  }
  return m;
}

/** A scope's `event_range` when it is two integers in order inside the events array. */
export function validRange(s: Element, eventCount: number): [number, number] | undefined {
  const r = s.obj?.event_range;
  if (!Array.isArray(r) || r.length !== 2) return undefined;
  const [a, b] = r as unknown[];
  if (!Number.isInteger(a) || !Number.isInteger(b)) return undefined;
  const x = a as number;
  const y = b as number;
  return x >= 0 && x <= y && y < eventCount ? [x, y] : undefined;
}

function eventRanges(doc: ParsedInferscope, report: Report): void {
  const n = doc.events.length;
  for (const s of doc.scopes) {
    const r = s.obj?.event_range;
    if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x) && x >= 0)) continue;
    const [a, b] = r as number[];
    if (a > b) {
      const [k, l] = keyAt(doc, s, 'event_range');
      report(k, l, 'error', 'inferscope.event-range', `event_range [${a}, ${b}] of scope ${scopeName(s)} is reversed: the first index must not exceed the last (the range is inclusive)`);
    }
    for (let i = 0; i < 2; i++) {
      if (r[i] < n) continue;
      const [k, l] = valueAt(doc, s, ['event_range', i]);
      report(k, l, 'error', 'inferscope.event-range', `event_range index ${r[i]} of scope ${scopeName(s)} is past the events array (${n} events: last index ${n - 1})`);
    }
  }
}

function describeParent(v: unknown): string {
  return typeof v === 'string' ? quoteString(v, 60) : v === null ? 'null' : v === undefined ? 'missing' : 'not a string';
}

/**
 * parent_id / child_ids naming no scope, a self-parent, and parent and child lists that disagree.
 * A problem past the cap is counted, not placed: the count is the same whatever the other checks
 * reported before (a streamed check reports the events' problems in another order).
 */
function links(doc: ParsedInferscope, index: KeyIndex, report: Report): void {
  const scopes = doc.scopes;
  const listed = childListing(scopes);
  for (const s of scopes) {
    const o = s.obj;
    if (!o) continue;
    const wanted = report.wants(s.start);
    const id = typeof o.id === 'string' ? o.id : undefined;
    const p = o.parent_id;
    if (typeof p === 'string') {
      const pi = index.get(p);
      const at = () => valueAt(doc, s, ['parent_id']);
      const broken = p === id ? 'inferscope.scope-cycle' : pi < 0 || (id !== undefined && Array.isArray(scopes[pi].obj?.child_ids) && !listed(p, id)) ? 'inferscope.unknown-scope' : undefined;
      if (broken && !wanted) report.count('error', broken);
      else if (p === id) report(...at(), 'error', 'inferscope.scope-cycle', `Scope ${scopeName(s)} is its own parent`);
      else if (pi < 0) report(...at(), 'error', 'inferscope.unknown-scope', `parent_id ${quoteString(p, 60)} names no scope`);
      else if (broken) {
        const [c, d] = keyAt(doc, scopes[pi], 'child_ids');
        report(...at(), 'error', 'inferscope.unknown-scope', `Scope ${scopeName(s)} names ${scopeName(scopes[pi])} as its parent, but that scope's child_ids do not list it`,
          [[c, d, `child_ids of ${scopeName(scopes[pi])}`]]);
      }
    }
    const children = o.child_ids;
    if (!Array.isArray(children)) continue;
    for (let k = 0; k < children.length; k++) {
      const c = children[k];
      if (typeof c !== 'string') continue;
      const ci = index.get(c);
      if (ci >= 0 && scopes[ci].obj?.parent_id === id) continue;
      if (!wanted) {
        report.count('error', 'inferscope.unknown-scope');
        continue;
      }
      const [a, b] = valueAt(doc, s, ['child_ids', k]);
      if (ci < 0) report(a, b, 'error', 'inferscope.unknown-scope', `child_ids names no scope: ${quoteString(c, 60)}`);
      else {
        const [e, f] = valueAt(doc, scopes[ci], ['parent_id']);
        report(a, b, 'error', 'inferscope.unknown-scope', `Scope ${scopeName(s)} lists ${scopeName(scopes[ci])} as a child, but its parent_id is ${describeParent(scopes[ci].obj?.parent_id)}`,
          [[e, f, `parent_id of ${scopeName(scopes[ci])}`]]);
      }
    }
  }
}

/** Cycles of parent_id longer than one (a self-parent is reported by `links`), once per cycle. */
function cycles(doc: ParsedInferscope, parent: Int32Array, report: Report): void {
  const n = parent.length;
  const state = new Uint8Array(n);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    if (state[i]) continue;
    path.length = 0;
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      path.push(j);
      j = parent[j];
    }
    if (j >= 0 && state[j] === 1) {
      const members = path.slice(path.indexOf(j));
      if (members.length > 1) {
        const first = Math.min(...members.slice(0, 100000));
        const s = doc.scopes[first];
        const [a, b] = valueAt(doc, s, ['parent_id']);
        const related: RelatedAt[] = members.filter((m) => m !== first).slice(0, MAX_CYCLE_RELATED).map((m) => {
          const [c, d] = valueAt(doc, doc.scopes[m], ['parent_id']);
          return [c, d, `parent_id of scope ${scopeName(doc.scopes[m])}`];
        });
        report(a, b, 'error', 'inferscope.scope-cycle', `Scope ${scopeName(s)} is its own ancestor: parent_id forms a cycle of ${members.length} scopes`, related);
      }
    }
    for (const m of path) state[m] = 2;
  }
}

/** A scope whose events reach outside the time range of its parent's events. */
function containment(doc: ParsedInferscope, parent: Int32Array, times: TimeIndex, report: Report): void {
  const n = doc.events.length;
  const range = (i: number) => {
    const r = validRange(doc.scopes[i], n);
    return r ? times.range(r[0], r[1]) : undefined;
  };
  for (let i = 0; i < parent.length; i++) {
    const p = parent[i];
    if (p < 0 || p === i) continue;
    const s = doc.scopes[i];
    const mine = range(i);
    const theirs = range(p);
    if (!mine || !theirs || mine[0] > mine[1] || theirs[0] > theirs[1]) continue;
    if (mine[0] >= theirs[0] && mine[1] <= theirs[1]) continue;
    // Counted past the cap, whatever was reported before (see `links`).
    if (!report.wants(s.start)) {
      report.count('warning', 'inferscope.scope-containment');
      continue;
    }
    const [a, b] = keyAt(doc, s, 'event_range');
    const [c, d] = keyAt(doc, doc.scopes[p], 'event_range');
    report(a, b, 'warning', 'inferscope.scope-containment',
      `Scope ${scopeName(s)} spans ${mine[0]}–${mine[1]} µs, outside its parent ${scopeName(doc.scopes[p])} (${theirs[0]}–${theirs[1]} µs): its events must lie within the parent's time range`,
      [[c, d, `event_range of the parent ${scopeName(doc.scopes[p])}`]]);
  }
}

/**
 * The event ranges and links checked, and each scope's parent index (-1: none): the id index is
 * dropped on return, before the time index of the containment check is built.
 */
function linked(doc: ParsedInferscope, report: Report): Int32Array {
  const scopes = doc.scopes;
  // The first scope of each string id, its ids read back from the scopes rather than copied into a Map.
  const index = new KeyIndex((i) => {
    const id = scopes[i].obj?.id;
    return typeof id === 'string' ? id : undefined;
  }, scopes.length);
  for (let i = 0; i < scopes.length; i++) index.add(i);
  eventRanges(doc, report);
  links(doc, index, report);
  const parent = new Int32Array(scopes.length).fill(-1);
  for (const s of scopes) {
    const p = s.obj?.parent_id;
    if (typeof p === 'string') parent[s.index] = index.get(p);
  }
  // A self-parent is its own diagnostic; as a loop it would also stop the cycle walk.
  for (let i = 0; i < parent.length; i++) if (parent[i] === i) parent[i] = -1;
  return parent;
}

export function scopeChecks(doc: ParsedInferscope, times: () => TimeIndex, report: Report): void {
  if (doc.scopes.length === 0) return;
  const parent = linked(doc, report);
  cycles(doc, parent, report);
  containment(doc, parent, times(), report);
}
