// The JSON shape of `npu-trace stats --json`, published as schemas/stats.schema.json. Keys are
// snake_case like the trace's own fields; a ratio with no denominator (an empty window, a trace
// without SRAM events) is null, never NaN.

export interface CoreStats {
  npu_id: number;
  core_id: number;
  te_busy_cycles: number;
  te_util: number | null;
  ve_busy_cycles: number;
  ve_util: number | null;
  dma_busy_cycles: number;
}

export interface ChannelStats {
  channel: number;
  bytes: number;
  busy_cycles: number;
  util: number | null;
}

export interface GroupStats {
  commands: number;
  latency_sum_cycles: number;
  span_cycles: number;
  p50_cycles: number | null;
  p95_cycles: number | null;
  max_cycles: number | null;
  te_busy_cycles: number;
  ve_busy_cycles: number;
  /** Cycles in which a TE or a VE of the group was busy (the union of both). */
  engine_busy_cycles: number;
  dma_busy_cycles: number;
  /** Busy cycles as a share of the group's span (0–1), null for a group of no span. */
  te_share: number | null;
  ve_share: number | null;
  dma_share: number | null;
  /** The longest commands of the group, longest first (at most 10). */
  longest: { cmd_id: number | string; start: number; end: number }[];
}

export interface PhaseStats extends GroupStats {
  phase: string;
}

export interface LayerStats extends GroupStats {
  layer_id: string;
}

export interface IdleStats {
  npu_id: number;
  core_id: number;
  idle_cycles: number;
  waiting_dma_cycles: number;
  waiting_command_cycles: number;
  no_work_cycles: number;
}

export interface IdleGap {
  npu_id: number;
  core_id: number;
  start: number;
  end: number;
  cycles: number;
  /** No DMA busy and no command open on the core during the whole gap. */
  no_work: boolean;
}

export type FindingRule = 'memory-bound' | 'idle-no-work' | 'sram-hot-bank' | 'dominant-phase' | 'load-imbalance';

export interface Finding {
  rule: FindingRule;
  severity: 'warning' | 'information';
  message: string;
  evidence: Record<string, number | string | null>;
  ranges: [number, number][];
  cmd_ids: (number | string)[];
}

export interface TraceStats {
  version: 1;
  window: { from: number | null; to: number | null };
  span_cycles: number;
  events: number;
  unpaired: number;
  ns_per_cycle: number | null;
  cores: CoreStats[];
  dma: {
    bytes: number;
    bytes_per_cycle: number | null;
    gb_per_s: number | null;
    channels: ChannelStats[];
    directions: { direction: string; bytes: number }[];
  };
  dram: { bytes: number; channels: ChannelStats[] };
  noc: { bytes: number; links: ChannelStats[] };
  sram: {
    accesses: number;
    conflicts: number;
    conflict_rate: number | null;
    banks: { bank_id: number; accesses: number; conflicts: number; conflict_rate: number | null; first_conflict: number | null; last_conflict: number | null }[];
  };
  phases: PhaseStats[];
  layers: LayerStats[];
  idle: IdleStats[];
  idle_gaps: IdleGap[];
  findings: Finding[];
}
