import type { Finding, GroupStats, TraceStats } from './types';

/**
 * Thresholds of the rules (documented in the README's "Findings" table). A rule fires only on
 * enough evidence to be worth a person's time: short groups and small counts are ignored.
 */
export const RULES = {
  /** memory-bound: TE ∪ VE busy below this share of the span while DMA is busy at least `dma`. */
  memoryBound: { engine: 0.5, dma: 0.7, minSpan: 100 },
  /** idle-no-work: a gap with no engine, no DMA and no open command of at least this share of the window. */
  idleNoWork: { share: 0.1, minCycles: 100 },
  /** sram-hot-bank: a bank with at least `minConflicts`, `share` of all conflicts and `factor`× the overall rate. */
  sramHotBank: { minConflicts: 10, share: 0.25, factor: 2 },
  /** dominant-phase: one phase holds at least this share of all command latency (with two phases or more). */
  dominantPhase: { share: 0.5 },
  /** load-imbalance: the busiest core of an NPU at least `factor`× the least busy, and `minShare` of the span apart. */
  loadImbalance: { factor: 2, minShare: 0.1 },
} as const;

/** At most this many findings per rule: a file can make any number of groups qualify. */
export const MAX_PER_RULE = 10;

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const round = (x: number | null) => (x === null ? null : Math.round(x * 1e4) / 1e4);

export function findings(s: TraceStats, engineBusy: Map<string, number>): Finding[] {
  return [...memoryBound(s), ...idleNoWork(s), ...sramHotBank(s), ...dominantPhase(s), ...loadImbalance(s, engineBusy)];
}

function memoryBound(s: TraceStats): Finding[] {
  const out: Finding[] = [];
  const r = RULES.memoryBound;
  const check = (what: 'phase' | 'layer', name: string, g: GroupStats) => {
    if (out.length >= MAX_PER_RULE || g.span_cycles < r.minSpan) return;
    const engine = g.engine_busy_cycles / g.span_cycles;
    const dma = g.dma_busy_cycles / g.span_cycles;
    if (engine >= r.engine || dma < r.dma) return;
    out.push({
      rule: 'memory-bound', severity: 'warning',
      message: `${what} ${name} is memory-bound: TE/VE busy ${pct(engine)} of its ${g.span_cycles} cycles while DMA is busy ${pct(dma)}`,
      evidence: { [what]: name, span_cycles: g.span_cycles, engine_busy_cycles: g.engine_busy_cycles, dma_busy_cycles: g.dma_busy_cycles, engine_share: round(engine), dma_share: round(dma) },
      ranges: g.longest.length ? [[Math.min(...g.longest.map((c) => c.start)), Math.max(...g.longest.map((c) => c.end))]] : [],
      cmd_ids: g.longest.map((c) => c.cmd_id),
    });
  };
  for (const p of s.phases) check('phase', p.phase, p);
  for (const l of s.layers) check('layer', l.layer_id, l);
  return out;
}

function idleNoWork(s: TraceStats): Finding[] {
  const r = RULES.idleNoWork;
  if (s.span_cycles <= 0) return [];
  return s.idle_gaps
    .filter((g) => g.no_work && g.cycles >= r.minCycles && g.cycles >= r.share * s.span_cycles)
    .slice(0, MAX_PER_RULE)
    .map((g) => ({
      rule: 'idle-no-work' as const, severity: 'warning' as const,
      message: `NPU ${g.npu_id} core ${g.core_id} had no work for ${g.cycles} cycles (${pct(g.cycles / s.span_cycles)} of the window), ${g.start}–${g.end}: no engine or DMA busy and no command open, so it waited on the host or a dependency`,
      evidence: { npu_id: g.npu_id, core_id: g.core_id, gap_cycles: g.cycles, window_cycles: s.span_cycles, share: round(g.cycles / s.span_cycles) },
      ranges: [[g.start, g.end]],
      cmd_ids: [],
    }));
}

function sramHotBank(s: TraceStats): Finding[] {
  const r = RULES.sramHotBank;
  const overall = s.sram.conflict_rate;
  if (s.sram.conflicts === 0 || s.sram.banks.length < 2) return [];
  const out: Finding[] = [];
  for (const b of s.sram.banks) {
    if (out.length >= MAX_PER_RULE) break;
    if (b.conflicts < r.minConflicts || b.conflicts < r.share * s.sram.conflicts) continue;
    if (overall !== null && b.conflict_rate !== null && b.conflict_rate < r.factor * overall) continue;
    out.push({
      rule: 'sram-hot-bank', severity: 'warning',
      message: `SRAM bank ${b.bank_id} has ${b.conflicts} of ${s.sram.conflicts} conflicts (${pct(b.conflicts / s.sram.conflicts)})${b.conflict_rate === null ? '' : `, a conflict rate of ${pct(b.conflict_rate)} against ${overall === null ? 'n/a' : pct(overall)} overall`}: spread its tiles over other banks`,
      evidence: { bank_id: b.bank_id, conflicts: b.conflicts, accesses: b.accesses, bank_rate: round(b.conflict_rate), overall_rate: round(overall), total_conflicts: s.sram.conflicts },
      ranges: b.first_conflict === null || b.last_conflict === null ? [] : [[b.first_conflict, b.last_conflict]],
      cmd_ids: [],
    });
  }
  return out;
}

function dominantPhase(s: TraceStats): Finding[] {
  const named = s.phases.filter((p) => p.commands > 0);
  if (named.length < 2) return [];
  const total = named.reduce((t, p) => t + p.latency_sum_cycles, 0);
  if (total <= 0) return [];
  const top = named.reduce((a, b) => (b.latency_sum_cycles > a.latency_sum_cycles ? b : a));
  const share = top.latency_sum_cycles / total;
  if (share < RULES.dominantPhase.share) return [];
  return [{
    rule: 'dominant-phase', severity: 'information',
    message: `phase ${top.phase} takes ${pct(share)} of all command latency (${top.latency_sum_cycles} of ${total} cycles over ${top.commands} commands): start tuning there`,
    evidence: { phase: top.phase, latency_sum_cycles: top.latency_sum_cycles, total_latency_cycles: total, share: round(share), commands: top.commands, p95_cycles: top.p95_cycles },
    ranges: top.longest.map((c): [number, number] => [c.start, c.end]),
    cmd_ids: top.longest.map((c) => c.cmd_id),
  }];
}

function loadImbalance(s: TraceStats, engineBusy: Map<string, number>): Finding[] {
  const r = RULES.loadImbalance;
  if (s.span_cycles <= 0) return [];
  const byNpu = new Map<number, { core: number; busy: number }[]>();
  for (const c of s.cores) {
    if (c.npu_id < 0) continue;
    const list = byNpu.get(c.npu_id) ?? [];
    list.push({ core: c.core_id, busy: engineBusy.get(`${c.npu_id}/${c.core_id}`) ?? 0 });
    byNpu.set(c.npu_id, list);
  }
  const out: Finding[] = [];
  for (const [npu, list] of byNpu) {
    if (out.length >= MAX_PER_RULE || list.length < 2) continue;
    const max = list.reduce((a, b) => (b.busy > a.busy ? b : a));
    const min = list.reduce((a, b) => (b.busy < a.busy ? b : a));
    if (max.busy < r.factor * min.busy || max.busy - min.busy < r.minShare * s.span_cycles) continue;
    out.push({
      rule: 'load-imbalance', severity: 'warning',
      message: `NPU ${npu}: core ${max.core} is busy ${max.busy} cycles, core ${min.core} only ${min.busy} (${min.busy ? `${(max.busy / min.busy).toFixed(1)}×` : 'idle'}): the work is not spread over the cores`,
      evidence: { npu_id: npu, busiest_core: max.core, busiest_cycles: max.busy, least_core: min.core, least_cycles: min.busy, span_cycles: s.span_cycles },
      ranges: s.window.from === null || s.window.to === null ? [] : [[s.window.from, s.window.to]],
      cmd_ids: [],
    });
  }
  return out;
}
