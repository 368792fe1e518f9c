/**
 * The Summary's tables from trace metrics (`npu-trace stats`): columns, rows of cells, what a row
 * click is about, and the bars drawn beside the numbers. Pure (no DOM), so sorting and CSV are
 * unit-tested; webview/summary.ts draws them.
 */
import type { GroupStats, TraceStats } from '../core/trace/metrics/types';
import type { AttrName } from '../core/timeline/model';
import type { Cell } from './csv';

/** `sint` and `spct`: a change, shown with its sign; `p` a p-value (two significant digits). */
export type ColumnKind = 'text' | 'int' | 'pct' | 'sint' | 'spct' | 'p';
export interface Column {
  label: string;
  kind: ColumnKind;
}

/** What clicking a row does: filter by a phase or layer and zoom to it, or go to a finding. */
export type RowTarget =
  | { kind: 'group'; attr: AttrName; value: string }
  | { kind: 'finding'; index: number }
  | undefined;

/** A bar beside a row: parts of 0–1 coloured by engine (stacked when several). */
export type BarPart = { engine: 'te' | 've' | 'dma' | 'conflict'; value: number };

export interface SummaryTable {
  /** 'cores' | 'phases' | 'layers' | 'banks' | 'findings'; the kernel-profiler pane's own ids. */
  id: string;
  title: string;
  columns: Column[];
  rows: Cell[][];
  targets: RowTarget[];
  bars: BarPart[][];
  /** The stats objects behind the rows, for Save as JSON. */
  records: unknown[];
  /** A class per row (a reported regression is drawn red); none when absent. */
  rowClasses?: string[];
}

const GROUP_COLUMNS: Column[] = [
  { label: 'commands', kind: 'int' }, { label: 'latency Σ', kind: 'int' }, { label: 'span', kind: 'int' },
  { label: 'p50', kind: 'int' }, { label: 'p95', kind: 'int' }, { label: 'max', kind: 'int' },
  { label: 'TE %', kind: 'pct' }, { label: 'VE %', kind: 'pct' }, { label: 'DMA %', kind: 'pct' },
];

function groupCells(g: GroupStats): Cell[] {
  return [g.commands, g.latency_sum_cycles, g.span_cycles, g.p50_cycles, g.p95_cycles, g.max_cycles, g.te_share, g.ve_share, g.dma_share];
}

function groupBars(g: GroupStats): BarPart[] {
  return [{ engine: 'te', value: g.te_share ?? 0 }, { engine: 've', value: g.ve_share ?? 0 }, { engine: 'dma', value: g.dma_share ?? 0 }];
}

export function summaryTables(s: TraceStats): SummaryTable[] {
  return [
    {
      id: 'cores', title: 'Utilization per core',
      columns: [{ label: 'NPU', kind: 'int' }, { label: 'core', kind: 'int' }, { label: 'TE %', kind: 'pct' }, { label: 'VE %', kind: 'pct' },
        { label: 'TE busy', kind: 'int' }, { label: 'VE busy', kind: 'int' }, { label: 'DMA busy', kind: 'int' }],
      rows: s.cores.map((c) => [c.npu_id, c.core_id, c.te_util, c.ve_util, c.te_busy_cycles, c.ve_busy_cycles, c.dma_busy_cycles]),
      targets: s.cores.map(() => undefined),
      bars: s.cores.map((c) => [{ engine: 'te', value: c.te_util ?? 0 }, { engine: 've', value: c.ve_util ?? 0 }]),
      records: s.cores,
    },
    {
      id: 'phases', title: 'Phases',
      columns: [{ label: 'phase', kind: 'text' }, ...GROUP_COLUMNS],
      rows: s.phases.map((p) => [p.phase, ...groupCells(p)]),
      targets: s.phases.map((p) => ({ kind: 'group', attr: 'phase', value: p.phase })),
      bars: s.phases.map(groupBars),
      records: s.phases,
    },
    {
      id: 'layers', title: 'Layers',
      columns: [{ label: 'layer_id', kind: 'text' }, ...GROUP_COLUMNS],
      rows: s.layers.map((l) => [l.layer_id, ...groupCells(l)]),
      targets: s.layers.map((l) => ({ kind: 'group', attr: 'layer_id', value: l.layer_id })),
      bars: s.layers.map(groupBars),
      records: s.layers,
    },
    {
      id: 'banks', title: 'SRAM conflicts per bank',
      columns: [{ label: 'bank', kind: 'int' }, { label: 'accesses', kind: 'int' }, { label: 'conflicts', kind: 'int' }, { label: 'conflict rate', kind: 'pct' }],
      rows: s.sram.banks.map((b) => [b.bank_id, b.accesses, b.conflicts, b.conflict_rate]),
      targets: s.sram.banks.map(() => undefined),
      bars: s.sram.banks.map((b) => [{ engine: 'conflict', value: b.conflict_rate ?? 0 }]),
      records: s.sram.banks,
    },
    {
      id: 'findings', title: 'Findings',
      columns: [{ label: 'severity', kind: 'text' }, { label: 'rule', kind: 'text' }, { label: 'finding', kind: 'text' }],
      rows: s.findings.map((f) => [f.severity, f.rule, f.message]),
      targets: s.findings.map((_f, index) => ({ kind: 'finding', index })),
      bars: s.findings.map(() => []),
      records: s.findings,
    },
  ];
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Row order for a sort by column `col` (ascending when dir is 1): numbers as numbers, text with
 * digits compared numerically, empty cells last either way, ties kept in their original order.
 */
export function sortOrder(rows: readonly (readonly Cell[])[], col: number, dir: 1 | -1): number[] {
  const order = rows.map((_r, i) => i);
  return order.sort((a, b) => {
    const x = rows[a][col], y = rows[b][col];
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return c === 0 ? a - b : c * dir;
  });
}

/** A cell as the table shows it (CSV keeps the raw numbers). */
export function formatCell(v: Cell, kind: ColumnKind): string {
  if (v === null) return '—';
  if (typeof v !== 'number') return String(v);
  const sign = (kind === 'sint' || kind === 'spct') && v > 0 ? '+' : '';
  if (kind === 'pct' || kind === 'spct') return `${sign}${(v * 100).toFixed(1)}%`;
  if (kind === 'p') return v.toPrecision(2);
  return `${sign}${Number.isSafeInteger(v) ? v.toLocaleString('en-US') : String(Math.round(v * 100) / 100)}`;
}
