/**
 * The Summary's "vs baseline" section as the Summary's tables: the comparison of the run shown (B)
 * with the pinned baseline (A), one row per group in the Diff view's order, and the run-level
 * figures. Pure (no DOM), so what the Summary shows of a comparison is unit-tested;
 * webview/baselineSection.ts draws it.
 */
import { escapeControl } from '../core/common/escape';
import { significance, type BaselineDiff } from '../core/diff/baseline';
import type { AttrName } from '../core/timeline/model';
import type { Column, SummaryTable } from './summaryTables';

const col = (label: string, kind: Column['kind']): Column => ({ label, kind });

/**
 * The groups compared, as they come (the Diff view's order). `attrs`: the kinds whose groups are a
 * context attribute's values in the timeline (an NPU trace's phase and layer_id): their names
 * filter the timeline by it, as the Summary's own rows do.
 */
export function baselineGroupTable(d: BaselineDiff, attrs: Readonly<Record<string, AttrName>> = {}): SummaryTable {
  return {
    id: 'baseline',
    title: `Groups vs baseline, in ${d.b.unit}`,
    columns: [
      // What a narrow panel must show comes first: the change and whether it is more than noise.
      col('group', 'text'), col('kind', 'text'), col('baseline total', 'int'), col('total', 'int'), col('Δ total', 'sint'), col('Δ total %', 'spct'),
      col('significant', 'text'), col('Δ mean %', 'spct'), col('p (adj.)', 'p'), col('count', 'int'),
    ],
    // Names from the files: as text, controls and bidi overrides shown as escapes (as the Diff view shows them).
    rows: d.rows.map((g) => [escapeControl(g.key), escapeControl(g.kind), round(g.a.total), round(g.b.total), round(g.delta.total), g.rel.total, significance(g), g.rel.mean, g.p_value, g.b.count]),
    // The group comes first: a row's first cell is what the Summary makes clickable.
    targets: d.rows.map((g) => (Object.hasOwn(attrs, g.kind) ? { kind: 'group', attr: attrs[g.kind], value: g.key } : undefined)),
    bars: d.rows.map(() => []),
    records: d.rows,
    rowClasses: d.rows.map((g) => (g.reported ? (g.delta.total > 0 ? 'reported slower' : 'reported faster') : g.significant ? 'significant' : '')),
  };
}

/** The run-level figures (NPU traces: utilization, bandwidths, SRAM conflicts), without a test. */
export function baselineMetricTable(d: BaselineDiff): SummaryTable {
  return {
    id: 'baselineMetrics',
    title: 'Run-level figures vs baseline',
    columns: [col('figure', 'text'), col('unit', 'text'), col('baseline', 'int'), col('this run', 'int'), col('Δ', 'sint'), col('Δ %', 'spct')],
    // A ratio (a utilization, a conflict rate) in percent: its changes are hundredths, which two decimals would hide.
    rows: d.metrics.map((m) => {
      const k = m.unit === 'ratio' ? 100 : 1;
      const v = (x: number | null) => (x === null ? null : fine(k * x));
      return [escapeControl(m.key), m.unit === 'ratio' ? '%' : escapeControl(m.unit), v(m.a), v(m.b), v(m.delta), m.rel];
    }),
    targets: d.metrics.map(() => undefined),
    bars: d.metrics.map(() => []),
    records: d.metrics,
  };
}

/** One line above the tables: how many groups were reported, the span's change, the test. */
export function baselineHeadline(d: BaselineDiff): string {
  const pct = (x: number | null) => (x === null ? '' : ` (${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%)`);
  const span = d.run.span_delta === null ? 'span: no items in one run' : `span ${d.run.span_delta > 0 ? '+' : ''}${round(d.run.span_delta).toLocaleString('en-US')} ${d.b.unit}${pct(d.run.span_rel)}`;
  const shown = d.rows.length < d.groups ? `; the first ${d.rows.length} are listed, open Compare with… for the rest` : '';
  return `${plural(d.regressions, 'regression')} and ${plural(d.improvements, 'improvement')} reported of ${plural(d.groups, 'group')}${shown} · ${span}`;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
/** Totals in µs or ns can have fractions: two decimals are plenty. */
const round = (v: number) => Math.round(v * 100) / 100;
const fine = (v: number | null) => (v === null ? null : Math.round(v * 1e4) / 1e4);
