import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { InferscopeDocument } from './document';
import { str } from './model';
import { validRange } from './scopeChecks';
import { SpanKind } from './profilerLayout';

/** Outline nodes per document, and scope nesting shown: LSP asks for the whole outline at once. */
export const MAX_OUTLINE_NODES = 5000;
export const MAX_OUTLINE_DEPTH = 32;

export interface OutlineNode {
  name: string;
  detail: string;
  kind: 'scope' | 'group' | 'event';
  start: number;
  end: number;
  selStart: number;
  selEnd: number;
  children: OutlineNode[];
}

const label = (s: string | undefined, fallback: string) => (s === undefined ? fallback : escapeControl(clip(s, 80)));

/**
 * The scope tree (by parent_id, roots first in file order), and under each scope its own events
 * (those of no child scope) grouped by type. Nodes are counted while they are made.
 */
export function outline(doc: InferscopeDocument): OutlineNode[] {
  if (doc.layout === 'profiler') return profilerOutline(doc);
  const p = doc.parsed;
  const n = p.events.length;
  let budget = MAX_OUTLINE_NODES;
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const s of p.scopes) {
    const pid = s.obj?.parent_id;
    const pi = typeof pid === 'string' ? doc.scopeIds.get(pid) : undefined;
    if (pi === undefined || pi === s.index) roots.push(s.index);
    else {
      let l = children.get(pi);
      if (!l) children.set(pi, (l = []));
      l.push(s.index);
    }
  }
  const eventsOf = (lo: number, hi: number, skip: [number, number][]): OutlineNode[] => {
    const groups = new Map<string, OutlineNode>();
    skip.sort((a, b) => a[0] - b[0]);
    let k = 0;
    for (let i = lo; i <= hi && budget > 0; i++) {
      while (k < skip.length && skip[k][1] < i) k++;
      if (k < skip.length && skip[k][0] <= i) {
        i = skip[k][1];
        continue;
      }
      const e = p.events[i];
      const type = label(str(e.obj?.type), '(no type)');
      let g = groups.get(type);
      if (!g) {
        groups.set(type, (g = { name: type, detail: '', kind: 'group', start: e.start, end: e.end, selStart: e.start, selEnd: e.start + 1, children: [] }));
        budget--;
      }
      g.end = Math.max(g.end, e.end);
      g.children.push({ name: label(str(e.obj?.name), `event ${i}`), detail: `event ${i}`, kind: 'event', start: e.start, end: e.end, selStart: e.start, selEnd: e.start + 1, children: [] });
      budget--;
    }
    for (const g of groups.values()) g.detail = `${g.children.length}`;
    return [...groups.values()];
  };
  const seen = new Set<number>();
  const scopeNode = (i: number, depth: number): OutlineNode | undefined => {
    if (budget <= 0 || seen.has(i)) return undefined;
    seen.add(i);
    budget--;
    const s = p.scopes[i];
    const o = s.obj;
    const r = validRange(s, n);
    const node: OutlineNode = {
      name: label(str(o?.name) ?? str(o?.id), `scope ${i}`), detail: r ? `events ${r[0]}–${r[1]}` : '', kind: 'scope',
      start: s.start, end: s.end, selStart: s.start, selEnd: s.start + 1, children: [],
    };
    const kids = depth < MAX_OUTLINE_DEPTH ? (children.get(i) ?? []) : [];
    for (const c of kids) {
      const cn = scopeNode(c, depth + 1);
      if (cn) node.children.push(cn);
    }
    if (r) {
      const skip = kids.map((c) => validRange(p.scopes[c], n)).filter((x): x is [number, number] => x !== undefined);
      node.children.push(...eventsOf(r[0], r[1], skip));
    }
    return node;
  };
  const out: OutlineNode[] = [];
  for (const r of roots) {
    const node = scopeNode(r, 0);
    if (node) out.push(node);
  }
  // Without scopes (or with events outside every scope) the events still show, by type.
  if (p.scopes.length === 0 && n > 0) out.push(...eventsOf(0, n - 1, []));
  return out;
}

const PROFILER_GROUP: Record<number, string> = {
  [SpanKind.Call]: 'cpu_call', [SpanKind.Kernel]: 'gpu_kernel', [SpanKind.H2D]: 'h2d_copy', [SpanKind.D2H]: 'd2h_copy', [SpanKind.Cpu]: 'cpu_preprocessing', [SpanKind.Instant]: 'instant',
};

/**
 * The outline of a trace in the Profiler's layout: scopes nested as entered (from the scope_enter
 * to the scope_exit), under each its kernels, copies and outermost calls grouped by type, and under
 * each call the calls it made. Nodes are counted while they are made.
 */
function profilerOutline(doc: InferscopeDocument): OutlineNode[] {
  const s = doc.profiler;
  const events = doc.parsed.events;
  let budget = MAX_OUTLINE_NODES;
  const kids: number[][] = [];
  const roots: number[] = [];
  for (let i = 0; i < s.length; i++) {
    // A call hangs under its caller, anything else (an outermost call too) under its scope.
    const parent = s.kind[i] === SpanKind.Call && s.caller[i] >= 0 ? s.caller[i] : s.scope[i];
    if (parent < 0 || parent === i) roots.push(i);
    else (kids[parent] ??= []).push(i);
  }
  const node = (i: number, depth: number): OutlineNode | undefined => {
    if (budget <= 0) return undefined;
    budget--;
    const first = events[s.first[i]];
    const kind = s.kind[i];
    // A call or scope never closed runs to the end of the trace, and so does its node.
    const last = s.last[i] >= 0 ? events[s.last[i]] : kind === SpanKind.Call || kind === SpanKind.Scope ? events[events.length - 1] : first;
    const n: OutlineNode = {
      name: label(s.name[i], `event ${s.first[i]}`), detail: kind === SpanKind.Scope ? 'scope' : `${PROFILER_GROUP[kind]}, event ${s.first[i]}`,
      kind: kind === SpanKind.Scope ? 'scope' : 'event', start: first.start, end: Math.max(first.end, last.end), selStart: first.start, selEnd: first.start + 1, children: [],
    };
    if (depth < MAX_OUTLINE_DEPTH) n.children = level(kids[i] ?? [], depth + 1, kind === SpanKind.Scope);
    // The `scope` generator resumed to exit a scope returns after its scope_exit: the node holds it.
    for (const c of n.children) n.end = Math.max(n.end, c.end);
    return n;
  };
  /** Scopes first, then (under a scope or at the top) the other spans grouped by type. */
  const level = (list: readonly number[], depth: number, grouped: boolean): OutlineNode[] => {
    const out: OutlineNode[] = [];
    const groups = new Map<string, OutlineNode>();
    for (const i of list) {
      if (budget <= 0) break;
      if (s.kind[i] === SpanKind.Scope || !grouped) {
        const c = node(i, depth);
        if (c) out.push(c);
        continue;
      }
      const type = PROFILER_GROUP[s.kind[i]];
      let g = groups.get(type);
      const e = events[s.first[i]];
      if (!g) {
        groups.set(type, (g = { name: type, detail: '', kind: 'group', start: e.start, end: e.end, selStart: e.start, selEnd: e.start + 1, children: [] }));
        budget--;
      }
      const c = node(i, depth + 1);
      if (c) {
        g.children.push(c);
        g.end = Math.max(g.end, c.end);
      }
    }
    for (const g of groups.values()) g.detail = `${g.children.length}`;
    return [...out, ...groups.values()];
  };
  return level(roots, 0, true);
}
