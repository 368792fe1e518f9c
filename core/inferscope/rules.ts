// The bottleneck and suggestion rules of `npu-trace analyze`, with every threshold, in one place
// (the README's table is this file in words). Shares are the exclusive breakdown's percentages.
import type { BreakdownEntry } from './analysisResult';

export interface Shares {
  gpu: number;
  h2d: number;
  d2h: number;
  cpu: number;
  idle: number;
  /** Share of the window with no kernel and no copy running. */
  gpuIdlePct: number;
  window: number;
  exclusive: number[];
  breakdown: BreakdownEntry[];
  /** gbps: the sum of the H2D copies' throughputs, in the order read, and how many there are. */
  copies: { h2d: number; pageable: number; bytes: number; gbps: Mean };
  /** Per kernel name (first seen first): its time and its occupancies' sum and count. */
  kernels: Map<string, { us: number; occ: Mean }>;
  /** Per category (CATEGORIES order), the ids of the events with the most time in it; for idle, those around its longest gap. */
  cited: string[][];
}

/** A sum taken in the order read, and how many values it adds: their mean, without a list of them. */
export interface Mean {
  sum: number;
  n: number;
}

export const GPU_BOUND_PCT = 60;
export const MEMORY_BOUND_PCT = 30;
export const CPU_BOUND_PCT = 30;
export const IDLE_GAP_PCT = 15;
export const COPY_PCT = 10;
export const LOW_OCCUPANCY = 0.5;
/** Event ids a finding cites at most: those with the most time, enough to find it in the timeline. */
export const MAX_CITED = 10;

type Kind = 'cpu_bound' | 'gpu_bound' | 'memory_bound' | 'balanced';

const pct = (x: number) => `${x}%`;
const ms = (us: number) => `${Math.round(us) / 1000} ms`;
const mem = (s: Shares) => Math.round((s.h2d + s.d2h) * 10) / 10;
const top = (s: Shares, i: number) => s.breakdown[i].examples.slice(0, 3).join(', ');

function common(s: Shares): string[] {
  return [
    `GPU idle (no kernel, no copy) for ${pct(s.gpuIdlePct)} of the ${ms(s.window)} timeline`,
    `GPU compute ${pct(s.gpu)} (${ms(s.exclusive[0])})${s.breakdown[0].examples.length ? `, mostly ${top(s, 0)}` : ''}`,
  ];
}

/** Tried in order; the first whose `when` holds decides. `balanced` always holds. */
export const RULES: readonly {
  type: Kind;
  when(s: Shares): boolean;
  cause(s: Shares): string;
  confidence(s: Shares): number;
  evidence(s: Shares): string[];
  /** Ids of the events the finding is about, for the report to link to the timeline. */
  cites(s: Shares): string[];
}[] = [
  {
    type: 'gpu_bound', when: (s) => s.gpu >= GPU_BOUND_PCT, cause: () => 'gpu_compute',
    confidence: (s) => Math.min(0.95, 0.5 + (s.gpu - GPU_BOUND_PCT) / 80 + 0.2),
    evidence: (s) => [`GPU compute takes ${pct(s.gpu)} of the timeline (≥ ${GPU_BOUND_PCT}%)`, ...common(s).slice(0, 1)],
    cites: (s) => s.cited[0],
  },
  {
    type: 'memory_bound', when: (s) => mem(s) >= MEMORY_BOUND_PCT && mem(s) >= s.gpu && mem(s) >= s.cpu, cause: (s) => (s.h2d >= s.d2h ? 'h2d_copy' : 'd2h_copy'),
    confidence: (s) => Math.min(0.95, 0.5 + (mem(s) - Math.max(s.gpu, s.cpu)) / 100 + 0.1),
    evidence: (s) => [`Host↔device copies take ${pct(mem(s))} of the timeline (H2D ${pct(s.h2d)}, D2H ${pct(s.d2h)}; ≥ ${MEMORY_BOUND_PCT}%)`, ...common(s)],
    cites: (s) => s.cited[s.h2d >= s.d2h ? 1 : 2],
  },
  {
    type: 'cpu_bound', when: (s) => s.cpu >= CPU_BOUND_PCT && s.cpu >= s.gpu && s.cpu >= mem(s), cause: () => 'cpu_preprocessing',
    confidence: (s) => Math.min(0.95, 0.5 + (s.cpu - Math.max(s.gpu, mem(s))) / 100 + 0.1),
    evidence: (s) => [`CPU work with the GPU idle takes ${pct(s.cpu)} of the timeline (≥ ${CPU_BOUND_PCT}%)${s.breakdown[3].examples.length ? `, mostly ${top(s, 3)}` : ''}`, ...common(s)],
    cites: (s) => s.cited[3],
  },
  {
    type: 'balanced', when: () => true, cause: (s) => ['gpu_compute', 'h2d_copy', 'd2h_copy', 'cpu_preprocessing', 'idle'][s.exclusive.indexOf(Math.max(...s.exclusive))],
    confidence: () => 0.6,
    evidence: (s) => [`No category dominates: GPU ${pct(s.gpu)}, copies ${pct(mem(s))}, CPU ${pct(s.cpu)}, idle ${pct(s.idle)}`, ...common(s)],
    cites: (s) => s.cited[s.exclusive.indexOf(Math.max(...s.exclusive))],
  },
];

function avgGbps(s: Shares): string {
  const g = s.copies.gbps;
  return g.n ? `${Math.round((g.sum / g.n) * 10) / 10} GB/s` : 'unknown throughput';
}

function lowOccupancy(s: Shares): [string, number] | undefined {
  let best: [string, number, number] | undefined;
  for (const [name, k] of s.kernels) {
    if (!k.occ.n) continue;
    const occ = k.occ.sum / k.occ.n;
    if (occ < LOW_OCCUPANCY && (!best || k.us > best[2])) best = [name, occ, k.us];
  }
  return best && [best[0], best[1]];
}

/** Each suggestion holds when its `when` does; its estimate is a share of the latency it could save. */
export const SUGGESTIONS: readonly {
  when(s: Shares, kind: Kind): boolean;
  action(s: Shares): string;
  rationale(s: Shares): string;
  estimate(s: Shares): number;
  evidence(s: Shares): string[];
  cites(s: Shares): string[];
}[] = [
  {
    when: (s) => s.cpu >= CPU_BOUND_PCT / 2,
    action: () => 'Overlap CPU preprocessing with GPU work',
    rationale: () => 'Prepare the next batch (tokenize, collate) on worker threads while the GPU runs the current one',
    estimate: (s) => Math.min(s.cpu, s.gpu + mem(s) + s.idle) * 0.8,
    evidence: (s) => [`CPU-only time is ${pct(s.cpu)} of the timeline (${ms(s.exclusive[3])})`],
    cites: (s) => s.cited[3],
  },
  {
    when: (s) => s.h2d >= COPY_PCT && s.copies.pageable > 0,
    action: () => 'Enable pinned memory',
    rationale: (s) => `Pinned host buffers copy faster and asynchronously; ${s.copies.pageable} of ${s.copies.h2d} H2D copies are pageable (average ${avgGbps(s)})`,
    estimate: (s) => s.h2d * 0.3,
    evidence: (s) => [`H2D copies take ${pct(s.h2d)} of the timeline`, `${s.copies.pageable} of ${s.copies.h2d} H2D copies use pageable memory`],
    cites: (s) => s.cited[1],
  },
  {
    when: (s) => mem(s) >= COPY_PCT,
    action: () => 'Increase batch size',
    rationale: () => 'Fewer, larger copies amortize the per-copy overhead of host↔device transfers',
    estimate: (s) => mem(s) * 0.25,
    evidence: (s) => [`Host↔device copies take ${pct(mem(s))} of the timeline (${s.copies.h2d} H2D copies, ${s.copies.bytes} bytes)`],
    cites: (s) => [...s.cited[1], ...s.cited[2]].slice(0, MAX_CITED),
  },
  {
    when: (s) => s.idle >= IDLE_GAP_PCT,
    action: () => 'Remove idle gaps between requests',
    rationale: () => 'Nothing runs in these gaps: queue the next request before the current one finishes',
    estimate: (s) => s.idle * 0.5,
    evidence: (s) => [`Nothing runs for ${pct(s.idle)} of the timeline (${ms(s.exclusive[4])})`],
    cites: (s) => s.cited[4],
  },
  {
    when: (s, kind) => kind === 'gpu_bound' || lowOccupancy(s) !== undefined,
    action: (s) => {
      const low = lowOccupancy(s);
      return low ? `Raise the occupancy of ${low[0]}` : `Optimize the top kernels (${top(s, 0)})`;
    },
    rationale: (s) => {
      const low = lowOccupancy(s);
      return low ? `Its average occupancy is ${Math.round(low[1] * 100)}%: larger blocks or fewer registers per thread keep more warps resident` : 'Kernel fusion or lower precision shortens the GPU-bound part';
    },
    estimate: (s) => s.gpu * 0.15,
    evidence: (s) => {
      const low = lowOccupancy(s);
      return [`GPU compute takes ${pct(s.gpu)} of the timeline`, ...(low ? [`${low[0]} runs at ${Math.round(low[1] * 100)}% occupancy (< ${LOW_OCCUPANCY * 100}%)`] : [])];
    },
    cites: (s) => s.cited[0],
  },
];
