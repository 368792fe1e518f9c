import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { InferscopeDocument } from './document';
import { str } from './model';
import { validRange } from './scopeChecks';

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
