import type { GraphViewModel } from '../../core/cmdq/graph/view';

/** World units of the layout: one column per dependency level, one row per entry of that level. */
export const COL_W = 170;
export const ROW_H = 34;
export const NODE_W = 140;
export const NODE_H = 24;
/** Level pitch when levels run top to bottom: a node's height and room for the edges between levels. */
export const LEVEL_H = 64;

/**
 * Levels left to right ('lr': wide panels, large queues, the zoomed-out overview), or top to bottom
 * ('tb': a small queue in a panel taller than wide, as beside the editor, where left to right would
 * shrink the names to a few pixels (#30)). Boxes stay horizontal either way, so names read the same.
 */
export type Orientation = 'lr' | 'tb';

/** World pitch of the levels and of the entries within a level, and which axis the levels run along. */
export function pitch(o: Orientation): { level: number; slot: number } {
  return o === 'lr' ? { level: COL_W, slot: ROW_H } : { level: LEVEL_H, slot: COL_W };
}

/** World position of the top-left corner of entry `i`'s box. */
export function nodeXY(L: GraphLayout, o: Orientation, i: number): { x: number; y: number } {
  const p = pitch(o);
  return o === 'lr' ? { x: L.col[i] * p.level, y: L.row[i] * p.slot } : { x: L.row[i] * p.slot, y: L.col[i] * p.level };
}

/** World width and height of the whole drawing (the last level's and the last slot's boxes included). */
export function worldSize(L: GraphLayout, o: Orientation): { w: number; h: number } {
  const levels = Math.max(1, L.columns.length), slots = Math.max(1, L.maxRows);
  return o === 'lr'
    ? { w: (levels - 1) * COL_W + NODE_W, h: (slots - 1) * ROW_H + NODE_H }
    : { w: (slots - 1) * COL_W + NODE_W, h: (levels - 1) * LEVEL_H + NODE_H };
}

/** The levels and slots a screen of `w` × `h` CSS pixels shows at a transform (inclusive ranges; slots unclamped above). */
export function visibleRange(L: GraphLayout, o: Orientation, v: { scale: number; ox: number; oy: number }, w: number, h: number): { c0: number; c1: number; r0: number; r1: number } {
  const p = pitch(o);
  const [lo, lhi, so, shi] = o === 'lr' ? [v.ox, w, v.oy, h] : [v.oy, h, v.ox, w];
  return {
    c0: Math.max(0, Math.floor(-lo / (p.level * v.scale))),
    c1: Math.min(L.columns.length - 1, Math.floor((lhi - lo) / (p.level * v.scale))),
    r0: Math.max(0, Math.floor(-so / (p.slot * v.scale))),
    r1: Math.floor((shi - so) / (p.slot * v.scale)),
  };
}

export interface GraphLayout {
  /** Column and row of each entry; blocked entries (level -1) get a last column of their own. */
  col: Int32Array;
  row: Int32Array;
  /** Entries of each column, in queue order. */
  columns: Int32Array[];
  maxRows: number;
  /** CSR of each entry's dependents and deps, for ancestors and descendants. */
  outStart: Int32Array;
  out: Int32Array;
  inStart: Int32Array;
  inn: Int32Array;
}

export function layoutGraph(m: GraphViewModel): GraphLayout {
  const n = m.n;
  let maxLevel = -1;
  for (let i = 0; i < n; i++) if (m.level[i] > maxLevel) maxLevel = m.level[i];
  const ncols = maxLevel + 1 + (m.blocked > 0 ? 1 : 0);
  const count = new Int32Array(ncols);
  const col = new Int32Array(n);
  const row = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = m.level[i] >= 0 ? m.level[i] : maxLevel + 1;
    col[i] = c;
    row[i] = count[c]++;
  }
  const columns = Array.from(count, (c) => new Int32Array(c));
  for (let i = 0; i < n; i++) columns[col[i]][row[i]] = i;
  let maxRows = 0;
  for (const c of count) maxRows = Math.max(maxRows, c);
  const csr = (from: Int32Array, to: Int32Array): [Int32Array, Int32Array] => {
    const start = new Int32Array(n + 1);
    for (const f of from) start[f + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const fill = start.slice(0, n);
    const out = new Int32Array(from.length);
    for (let k = 0; k < from.length; k++) out[fill[from[k]]++] = to[k];
    return [start, out];
  };
  const [outStart, out] = csr(m.edgeFrom, m.edgeTo);
  const [inStart, inn] = csr(m.edgeTo, m.edgeFrom);
  return { col, row, columns, maxRows, outStart, out, inStart, inn };
}

/** Marks everything reachable from `from` along a CSR (not `from` itself). */
export function reach(from: number, start: Int32Array, edges: Int32Array, n: number): Uint8Array {
  const seen = new Uint8Array(n);
  const stack = [from];
  while (stack.length) {
    const v = stack.pop()!;
    for (let e = start[v]; e < start[v + 1]; e++) {
      const t = edges[e];
      if (!seen[t] && t !== from) {
        seen[t] = 1;
        stack.push(t);
      }
    }
  }
  return seen;
}
