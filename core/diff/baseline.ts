import { diffRows } from './rows';
import type { DiffResult, GroupDiff, MetricDiff, RunInfo } from './types';

/** Rows of a comparison the Summary carries at most (as the Diff view puts at most 2 000 in its page). */
export const MAX_BASELINE_ROWS = 2000;

/**
 * What the Summary of one run shows of its comparison with the pinned baseline (A the baseline,
 * B the run shown): the comparison's groups in the Diff view's order, cut to `MAX_BASELINE_ROWS`,
 * with how many there were and how many were reported; the run-level figures.
 */
export interface BaselineDiff {
  a: RunInfo;
  b: RunInfo;
  test: DiffResult['test'];
  run: DiffResult['run'];
  /** The first groups in the Diff view's order (core/diff/rows.ts): reported, significant, the rest, each by added time. */
  rows: GroupDiff[];
  /** Every group compared (rows may hold fewer). */
  groups: number;
  /** Reported groups that got slower and faster, of every group compared. */
  regressions: number;
  improvements: number;
  metrics: MetricDiff[];
}

/** The Summary's part of a comparison of every kind (`npu-trace diff` without `--by`). */
export function baselineDiff(r: DiffResult, max = MAX_BASELINE_ROWS): BaselineDiff {
  const rows = diffRows(r).slice(0, max).map((x) => x.group);
  return {
    a: r.a, b: r.b, test: r.test, run: r.run, rows, groups: r.groups.length,
    regressions: r.regressions.filter((g) => g.reported).length,
    improvements: r.improvements.filter((g) => g.reported).length,
    metrics: r.metrics,
  };
}

/** The words of the Diff view for a group's significance. */
export function significance(g: GroupDiff): string {
  return g.reported ? 'yes (reported)' : g.significant ? 'yes (under 5% of the mean)' : 'no';
}
