import { compareEngines } from '../../core/cmdq/graph/engines';
import type { GraphViewModel } from '../../core/cmdq/graph/view';

/**
 * The list-scheduled run as rows: one per engine (DMA load, DMA store, each TE, each VE), then
 * one for entries that occupy none (END); an entry is a bar from its scheduled start, as long as
 * its cost. World x is cycles; blocked entries never run and are not drawn.
 */
export interface ScheduleLayout {
  names: string[];
  rowOf: Int32Array;
  /** Entries of each row by start time. */
  rows: Int32Array[];
}

export function layoutSchedule(m: GraphViewModel): ScheduleLayout {
  const order = m.engines.map((_, k) => k).sort((a, b) => compareEngines(m.engines[a], m.engines[b]));
  const rank = new Int32Array(m.engines.length);
  order.forEach((k, r) => (rank[k] = r));
  const names = [...order.map((k) => m.engines[k]), '(no engine)'];
  const rowOf = new Int32Array(m.n).fill(-1);
  const lists: number[][] = names.map(() => []);
  for (let i = 0; i < m.n; i++) {
    if (m.level[i] < 0) continue;
    const r = m.engine[i] >= 0 ? rank[m.engine[i]] : names.length - 1;
    rowOf[i] = r;
    lists[r].push(i);
  }
  const rows = lists.map((l) => Int32Array.from(l.sort((a, b) => m.start[a] - m.start[b] || a - b)));
  return { names, rowOf, rows };
}

/** The entry whose bar covers cycle `t` in row `r` (the last to start at or before t), or -1. */
export function entryAtCycle(m: GraphViewModel, L: ScheduleLayout, r: number, t: number): number {
  const row = L.rows[r];
  if (!row) return -1;
  let lo = 0, hi = row.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (m.start[row[mid]] <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return -1;
  const i = row[found];
  // Zero-cost entries (END) get a sliver of one cycle to be clickable.
  return t < m.start[i] + Math.max(1, m.cost[i]) ? i : -1;
}
