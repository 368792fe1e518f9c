import { nearestRank } from '../common/percentile';
import { benjaminiHochberg, mannWhitneyU } from './mannWhitney';
import type { DiffGroup, DiffResult, DiffRun, GroupDiff, MetricDiff, SampleStats } from './types';

/** The test and correction, as the output names them. */
export const TEST_NAME = 'Mann-Whitney U (two-sided; exact below 21 items per run without ties, else normal approximation with tie correction)';
export const CORRECTION = 'Benjamini-Hochberg over the groups compared';
/** The false discovery rate the corrected p-values are held to. */
export const ALPHA = 0.05;
/** The smallest change of a group's mean that is reported, however significant (5%). */
export const MIN_EFFECT = 0.05;

export interface CompareOptions {
  /** Only these kinds of groups (`--by`); default all the format gives. */
  kinds?: readonly string[];
  alpha?: number;
  minEffect?: number;
}

export interface DiffFile {
  file: string;
  format: string;
  run: DiffRun;
}

/** count, total, mean, p50, p95 of durations (nearest-rank percentiles, as `stats`). */
export function sampleStats(durations: ArrayLike<number>): SampleStats {
  const n = durations.length;
  if (n === 0) return { count: 0, total: 0, mean: null, p50: null, p95: null };
  const sorted = Float64Array.from(durations).sort();
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i];
  return { count: n, total, mean: total / n, p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95) };
}

const rel = (d: number | null, base: number | null): number | null => (d === null || base === null || base === 0 ? null : d / base);

/**
 * Compares two runs group by group. A group's p-value is the Mann–Whitney U test of its items'
 * durations in A against B, adjusted by Benjamini–Hochberg over every group tested; `significant`
 * is adjusted p < alpha. A group is *reported* (a regression or an improvement) when it is
 * significant and its mean moved by at least `minEffect` of A's mean: with thousands of items a
 * test finds shifts too small to matter.
 *
 * `regressions` are the groups whose total grew, the reported ones first, each part by added time,
 * most first; `improvements` the same for the groups whose total shrank.
 */
export function compareRuns(a: DiffFile, b: DiffFile, opts: CompareOptions = {}): DiffResult {
  const alpha = opts.alpha ?? ALPHA;
  const minEffect = opts.minEffect ?? MIN_EFFECT;
  const keep = opts.kinds ? new Set(opts.kinds) : undefined;
  const pairs = new Map<string, { kind: string; key: string; a?: DiffGroup; b?: DiffGroup }>();
  const put = (g: DiffGroup, side: 'a' | 'b') => {
    if (keep && !keep.has(g.kind)) return;
    const id = `${g.kind}\u0000${g.key}`;
    let p = pairs.get(id);
    if (!p) pairs.set(id, (p = { kind: g.kind, key: g.key }));
    p[side] = g;
  };
  for (const g of a.run.groups) put(g, 'a');
  for (const g of b.run.groups) put(g, 'b');

  const groups: GroupDiff[] = [];
  const raw: (number | null)[] = [];
  for (const p of pairs.values()) {
    const da = p.a?.durations ?? [];
    const db = p.b?.durations ?? [];
    const sa = sampleStats(da);
    const sb = sampleStats(db);
    const dMean = sa.mean !== null && sb.mean !== null ? sb.mean - sa.mean : null;
    const dTotal = sb.total - sa.total;
    raw.push(mannWhitneyU(da, db).p);
    groups.push({
      kind: p.kind, key: p.key, a: sa, b: sb, delta: { total: dTotal, mean: dMean }, rel: { total: rel(dTotal, sa.total), mean: rel(dMean, sa.mean) },
      p_value: null, significant: false, reported: false, line: p.b?.firstLine ?? p.a?.firstLine ?? null,
    });
  }
  const adjusted = benjaminiHochberg(raw);
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    g.p_value = adjusted[i];
    g.significant = g.p_value !== null && g.p_value < alpha;
    g.reported = g.significant && g.rel.mean !== null && Math.abs(g.rel.mean) >= minEffect;
  }
  const byAdded = (x: GroupDiff, y: GroupDiff) => Number(y.reported) - Number(x.reported) || Math.abs(y.delta.total) - Math.abs(x.delta.total);
  // A reported group goes by the sign of its mean's change (what the test saw), the rest by their total's.
  const direction = (g: GroupDiff) => Math.sign(g.reported ? g.rel.mean! : g.delta.total);
  const regressions = groups.filter((g) => direction(g) > 0).sort(byAdded);
  const improvements = groups.filter((g) => direction(g) < 0).sort(byAdded);

  const metrics: MetricDiff[] = [];
  const bMetrics = new Map(b.run.metrics.map((m) => [m.key, m]));
  const seen = new Set<string>();
  for (const m of [...a.run.metrics, ...b.run.metrics]) {
    if (seen.has(m.key)) continue;
    seen.add(m.key);
    const va = a.run.metrics.find((x) => x.key === m.key)?.value ?? null;
    const vb = bMetrics.get(m.key)?.value ?? null;
    const d = va !== null && vb !== null ? vb - va : null;
    metrics.push({ key: m.key, unit: m.unit, a: va, b: vb, delta: d, rel: rel(d, va) });
  }
  const spanDelta = a.run.span !== null && b.run.span !== null ? b.run.span - a.run.span : null;
  return {
    version: 1,
    a: { file: a.file, format: a.format, unit: a.run.unit, span: a.run.span },
    b: { file: b.file, format: b.format, unit: b.run.unit, span: b.run.span },
    test: { name: TEST_NAME, correction: CORRECTION, alpha, min_effect: minEffect },
    run: { span_delta: spanDelta, span_rel: rel(spanDelta, a.run.span) },
    groups, metrics, regressions, improvements,
  };
}

/**
 * The CI gate (`--fail-on-regression P%`): the reported regressions that got slower by more than
 * `fraction` of their own time in A, and whether the whole run did (its span by more than
 * `fraction`, with at least one reported regression to blame).
 */
export function gateFailures(r: DiffResult, fraction: number): { groups: GroupDiff[]; run: boolean } {
  const groups = r.regressions.filter((g) => g.reported && g.rel.total !== null && g.rel.total > fraction);
  const run = r.regressions.some((g) => g.reported) && r.run.span_rel !== null && r.run.span_rel > fraction;
  return { groups, run };
}
