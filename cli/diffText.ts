import { escapeControl } from '../core/common/escape';
import { textTable } from '../core/common/textTable';
import type { DiffResult, GroupDiff } from '../core/diff/types';

/** Groups shown per table; `--json` lists every group. */
export const TOP = 15;

// Keys and file names come from the files: never a terminal escape, a line break or 10 KB.
const name = (s: string) => escapeControl(s.length > 48 ? `${s.slice(0, 48)}…` : s);
const num = (x: number | null) => (x === null ? '-' : Number.isInteger(x) ? String(x) : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(4));
const signed = (x: number | null) => (x === null ? '-' : `${x > 0 ? '+' : ''}${num(x)}`);
const pct = (x: number | null) => (x === null ? '-' : `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);
const p = (x: number | null) => (x === null ? 'n/a' : x < 1e-4 ? x.toExponential(1) : x.toFixed(4));

function groupTable(title: string, gs: GroupDiff[], unit: string): string[] {
  const rows = gs.slice(0, TOP).map((g) => [name(g.kind), name(g.key), `${g.a.count}→${g.b.count}`, num(g.a.total), num(g.b.total), signed(g.delta.total), pct(g.rel.total),
    pct(g.rel.mean), num(g.a.p50), num(g.b.p50), num(g.a.p95), num(g.b.p95), p(g.p_value)]);
  return textTable(title, ['kind', 'group', 'count', `total A (${unit})`, 'total B', 'Δ total', 'Δ total %', 'Δ mean %', 'p50 A', 'p50 B', 'p95 A', 'p95 B', 'p (adj.)'], rows, gs.length, TOP);
}

/** The text form of `npu-trace diff`: the runs, the test, the reported regressions and improvements, the run-level figures. */
export function diffText(r: DiffResult): string {
  const unit = escapeControl(r.a.unit);
  const span = (s: number | null) => (s === null ? 'no span' : `span ${num(s)} ${unit}`);
  const out = [
    `A: ${escapeControl(r.a.file)} (${escapeControl(r.a.format)}, ${span(r.a.span)})`,
    `B: ${escapeControl(r.b.file)} (${span(r.b.span)}${r.run.span_rel === null ? '' : `, ${pct(r.run.span_rel)}`})`,
    `Test: ${r.test.name}; ${r.test.correction}. Reported: adjusted p < ${r.test.alpha} and the mean moved by ≥ ${100 * r.test.min_effect}%.`,
  ];
  const reg = r.regressions.filter((g) => g.reported);
  const imp = r.improvements.filter((g) => g.reported);
  if (reg.length) out.push(...groupTable(`Regressions (${reg.length}, by added time)`, reg, unit));
  if (imp.length) out.push(...groupTable(`Improvements (${imp.length}, by saved time)`, imp, unit));
  if (!reg.length && !imp.length) out.push('', `No significant regression or improvement among ${r.groups.length} groups compared.`);
  const noise = r.groups.filter((g) => !g.reported && g.delta.total !== 0).length;
  if (noise) out.push('', `${noise} other groups changed within noise or below the minimum effect (--json lists every group).`);
  out.push(...textTable('Run-level figures', ['figure', 'A', 'B', 'Δ', 'Δ %'],
    r.metrics.map((m) => [`${name(m.key)} (${escapeControl(m.unit)})`, num(m.a), num(m.b), signed(m.delta), pct(m.rel)])));
  return `${out.join('\n')}\n`;
}
