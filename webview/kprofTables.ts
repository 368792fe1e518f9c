/**
 * The kernel-profiler pane's tables, in the Summary's table shape (webview/summaryTables.ts) so
 * the same view sorts them and copies or saves them as CSV: statistics per event, per block and
 * per group, and the overlap of two groups per block. Pure (no DOM).
 */
import type { KprofFacts, KprofOverlap, KprofStatTable } from '../core/kprof/summary';
import { formatCell, type Column, type SummaryTable } from './summaryTables';

const STAT_COLUMNS: Column[] = ['count', 'total ns', 'mean ns', 'min ns', 'p50 ns', 'p95 ns', 'max ns', 'std ns'].map((label) => ({ label, kind: 'int' }));
const TITLES = { event: 'Regions', block: 'Regions per block', group: 'Regions per group' } as const;

/** `range`: the table is of a timeline range's statistics (its own id and title). */
export function statTable(t: KprofStatTable, range?: string): SummaryTable {
  const of = t.by === 'event' ? [] : [{ label: t.by, kind: 'int' as const }];
  return {
    id: `${range ? 'range-' : ''}regions-by-${t.by}`,
    title: range ? `${TITLES[t.by]}, ${range}` : TITLES[t.by],
    columns: [{ label: 'region', kind: 'text' }, ...of, ...STAT_COLUMNS],
    rows: t.rows.map((r) => [r.name, ...(t.by === 'event' ? [] : [r.of]), r.count, r.total_ns, r.mean_ns, r.min_ns, r.p50_ns, r.p95_ns, r.max_ns, r.std_ns]),
    // A region's name is its `phase` on the timeline: clicking it filters the lanes by it.
    targets: t.rows.map((r) => ({ kind: 'group', attr: 'phase', value: r.name })),
    bars: t.rows.map(() => []),
    records: t.rows,
  };
}

export function overlapTable(o: KprofOverlap): SummaryTable {
  const a = o.group_a, b = o.group_b;
  const share = (x: number, of: number) => (of ? x / of : null);
  return {
    id: `overlap-${a}-${b}`,
    title: `Overlap of group ${a} and group ${b} per block`,
    columns: [{ label: 'block', kind: 'int' }, { label: `busy ${a} ns`, kind: 'int' }, { label: `busy ${b} ns`, kind: 'int' }, { label: 'overlap ns', kind: 'int' },
      { label: `of ${a}`, kind: 'pct' }, { label: `of ${b}`, kind: 'pct' }],
    rows: o.blocks.map((k) => [k.block, k.busy_a_ns, k.busy_b_ns, k.overlap_ns, share(k.overlap_ns, k.busy_a_ns), share(k.overlap_ns, k.busy_b_ns)]),
    targets: o.blocks.map(() => undefined),
    // The bar: how much of group A's busy time group B runs alongside.
    bars: o.blocks.map((k) => [{ engine: 'te', value: share(k.overlap_ns, k.busy_a_ns) ?? 0 }]),
    records: o.blocks,
  };
}

/** The overlap in one sentence, for the head of its table. */
export function overlapSentence(o: KprofOverlap): string {
  const pct = (x: number | null) => (x === null ? '—' : formatCell(x, 'pct'));
  return `Group ${o.group_a} is busy ${formatCell(o.busy_a_ns, 'int')} ns and group ${o.group_b} ${formatCell(o.busy_b_ns, 'int')} ns (the union of each group's regions, summed over blocks); `
    + `they run together ${formatCell(o.overlap_ns, 'int')} ns: ${pct(o.of_a)} of group ${o.group_a}'s time, ${pct(o.of_b)} of group ${o.group_b}'s.`;
}

/** The buffer's header facts as label/value pairs, for the pane's head and the toolbar. */
export function factPairs(f: KprofFacts): [string, string][] {
  const n = (x: number) => formatCell(x, 'int');
  return [
    ['layout', f.layout + (f.header_valid ? '' : ' (no valid header)')],
    ['blocks', n(f.num_blocks)],
    ['groups', n(f.num_groups)],
    ['write_stride', n(f.write_stride) + (f.stride_inferred ? ' (inferred)' : '')],
    ['records', `${n(f.records)} in ${n(f.slots)} slots`],
    ['regions', n(f.regions)],
    ['kernel', `${n(f.duration_ns)} ns${f.timer_wrapped ? ' (timer wrapped, unwrapped)' : ''}`],
    ['problems', n(f.problems)],
    ...(f.launches > 1 ? [['launch', `${f.launch} of ${f.launches}`] as [string, string]] : []),
    ...(f.full_lanes > 0 ? [['⚠ buffer full', `${n(f.full_lanes)} of ${n(f.lanes)} lanes: their later records were lost`] as [string, string]] : []),
  ];
}
