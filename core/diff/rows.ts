import type { DiffResult, GroupDiff } from './types';

/** The Diff view's order of a comparison's groups, and each row's bar lengths. */
export interface DiffRow {
  group: GroupDiff;
  /** |Δ total| over the largest |Δ total| shown, 0–1. */
  deltaBar: number;
  /** A's and B's totals over the largest total shown, 0–1. */
  aBar: number;
  bBar: number;
}

const tier = (g: GroupDiff) => (g.reported ? 0 : g.significant ? 1 : 2);

/**
 * Every group of `r`, the reported ones first (significant with the minimum effect), then the
 * significant ones, then the rest; each tier by added time (B − A of the total), most added first,
 * so the fastest-growing reported group leads and the improvements close each tier. Ties keep
 * the comparison's order.
 */
export function diffRows(r: DiffResult): DiffRow[] {
  const groups = r.groups.map((g, i) => ({ g, i })).sort((x, y) => tier(x.g) - tier(y.g) || y.g.delta.total - x.g.delta.total || x.i - y.i).map((x) => x.g);
  let maxDelta = 0, maxTotal = 0;
  for (const g of groups) {
    maxDelta = Math.max(maxDelta, Math.abs(g.delta.total));
    maxTotal = Math.max(maxTotal, g.a.total, g.b.total);
  }
  const frac = (v: number, max: number) => (max > 0 ? Math.min(1, Math.abs(v) / max) : 0);
  return groups.map((group) => ({ group, deltaBar: frac(group.delta.total, maxDelta), aBar: frac(group.a.total, maxTotal), bBar: frac(group.b.total, maxTotal) }));
}
