import { escapeControl } from '../../common/escape';
import { textTable } from '../../common/textTable';
import type { GroupStats, TraceStats } from './types';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const int = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
// Names come from the file: never a terminal escape sequence, never a line break, never 10 KB.
const name = (s: string) => escapeControl(s.length > 40 ? `${s.slice(0, 40)}…` : s);
const table = textTable;

/** The human-readable form of `npu-trace stats`: one table per section, then the findings. */
export function statsText(s: TraceStats, file: string): string {
  const w = s.window;
  const clock = s.ns_per_cycle === null ? 'clock unknown (no t_ns, no TRACE_META clock)' : `${(1 / s.ns_per_cycle).toFixed(3)} GHz`;
  const out: string[] = [
    `${escapeControl(file)}: ${s.events} events, window ${w.from ?? '-'}..${w.to ?? '-'} (${s.span_cycles} cycles), ${clock}, ${s.unpaired} unpaired START/END`,
  ];
  out.push(...table('Engines per core', ['npu/core', 'TE busy', 'TE util', 'VE busy', 'VE util', 'DMA busy'],
    s.cores.map((c) => [c.npu_id < 0 ? 'other' : `${c.npu_id}/${c.core_id}`, int(c.te_busy_cycles), pct(c.te_util), int(c.ve_busy_cycles), pct(c.ve_util), int(c.dma_busy_cycles)])));
  const gbs = s.dma.gb_per_s === null ? '' : `, ${s.dma.gb_per_s.toFixed(2)} GB/s`;
  out.push(...table(`DMA: ${int(s.dma.bytes)} bytes, ${s.dma.bytes_per_cycle === null ? 'n/a' : s.dma.bytes_per_cycle.toFixed(2)} bytes/cycle${gbs}`,
    ['channel', 'bytes', 'busy', 'util'], s.dma.channels.map((c) => [String(c.channel), int(c.bytes), int(c.busy_cycles), pct(c.util)])));
  out.push(...table('DMA by direction', ['direction', 'bytes'], s.dma.directions.map((d) => [name(d.direction), int(d.bytes)])));
  out.push(...table('DRAM channels', ['channel', 'bytes', 'busy', 'util'], s.dram.channels.map((c) => [String(c.channel), int(c.bytes), int(c.busy_cycles), pct(c.util)])));
  out.push(...table('NoC links', ['link', 'bytes', 'busy', 'util'], s.noc.links.map((c) => [String(c.channel), int(c.bytes), int(c.busy_cycles), pct(c.util)])));
  if (s.sram.accesses || s.sram.conflicts) {
    out.push(...table(`SRAM: ${s.sram.accesses} accesses, ${s.sram.conflicts} conflicts, rate ${pct(s.sram.conflict_rate)}`,
      ['bank', 'accesses', 'conflicts', 'rate'], s.sram.banks.map((b) => [String(b.bank_id), String(b.accesses), String(b.conflicts), pct(b.conflict_rate)])));
  }
  const groupHead = ['commands', 'latency Σ', 'span', 'p50', 'p95', 'max', 'TE', 'VE', 'DMA'];
  const groupCells = (g: GroupStats) => [String(g.commands), int(g.latency_sum_cycles), int(g.span_cycles),
    g.p50_cycles === null ? '-' : int(g.p50_cycles), g.p95_cycles === null ? '-' : int(g.p95_cycles), g.max_cycles === null ? '-' : int(g.max_cycles),
    pct(g.te_share), pct(g.ve_share), pct(g.dma_share)];
  out.push(...table('Phases (cycles; TE/VE/DMA as % of the phase span)', ['phase', ...groupHead], s.phases.map((p) => [name(p.phase), ...groupCells(p)])));
  out.push(...table('Layers (cycles; TE/VE/DMA as % of the layer span)', ['layer', ...groupHead], s.layers.map((l) => [name(l.layer_id), ...groupCells(l)])));
  out.push(...table('Idle (no TE and no VE busy), cycles', ['npu/core', 'idle', 'waiting DMA', 'waiting cmd', 'no work'],
    s.idle.map((i) => [i.npu_id < 0 ? 'other' : `${i.npu_id}/${i.core_id}`, int(i.idle_cycles), int(i.waiting_dma_cycles), int(i.waiting_command_cycles), int(i.no_work_cycles)])));
  out.push(...table('Longest idle gaps', ['npu/core', 'start', 'end', 'cycles', 'no work'],
    s.idle_gaps.map((g) => [`${g.npu_id}/${g.core_id}`, int(g.start), int(g.end), int(g.cycles), g.no_work ? 'yes' : '']) ));
  out.push('', s.findings.length ? 'Findings' : 'Findings: none');
  for (const f of s.findings) out.push(`  ${f.severity} ${f.rule}: ${escapeControl(f.message)}`);
  return `${out.join('\n')}\n`;
}
