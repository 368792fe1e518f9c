/**
 * Checks the shape of trace metrics received from the other side (the webview gets them with a
 * model or as a range summary): every field the Summary reads is there with its type, numbers are
 * finite, and no list is longer than the core's caps allow. The rest of the page can then index
 * and format them without checks.
 */
import type { TraceStats } from '../core/trace/metrics/types';

/** 'n' number, 'n?' number or null, 's' string, 'id' number or string, 'b' boolean. */
type Leaf = 'n' | 'n?' | 's' | 'id' | 'b';
type Shape = Leaf | Shape[] | { [k: string]: Shape } | 'evidence' | 'ranges';

/** The core caps each table at 10 000 groups; a little more leaves room for `(other)`. */
const MAX_ROWS = 10_010;

const GROUP: Record<string, Shape> = {
  commands: 'n', latency_sum_cycles: 'n', span_cycles: 'n', p50_cycles: 'n?', p95_cycles: 'n?', max_cycles: 'n?',
  te_busy_cycles: 'n', ve_busy_cycles: 'n', engine_busy_cycles: 'n', dma_busy_cycles: 'n', te_share: 'n?', ve_share: 'n?', dma_share: 'n?',
  longest: [{ cmd_id: 'id', start: 'n', end: 'n' }],
};
const CHANNEL: Shape = { channel: 'n', bytes: 'n', busy_cycles: 'n', util: 'n?' };

const STATS: Shape = {
  version: 'n', window: { from: 'n?', to: 'n?' }, span_cycles: 'n', events: 'n', unpaired: 'n', ns_per_cycle: 'n?',
  cores: [{ npu_id: 'n', core_id: 'n', te_busy_cycles: 'n', te_util: 'n?', ve_busy_cycles: 'n', ve_util: 'n?', dma_busy_cycles: 'n' }],
  dma: { bytes: 'n', bytes_per_cycle: 'n?', gb_per_s: 'n?', channels: [CHANNEL], directions: [{ direction: 's', bytes: 'n' }] },
  dram: { bytes: 'n', channels: [CHANNEL] },
  noc: { bytes: 'n', links: [CHANNEL] },
  sram: {
    accesses: 'n', conflicts: 'n', conflict_rate: 'n?',
    banks: [{ bank_id: 'n', accesses: 'n', conflicts: 'n', conflict_rate: 'n?', first_conflict: 'n?', last_conflict: 'n?' }],
  },
  phases: [{ ...GROUP, phase: 's' }],
  layers: [{ ...GROUP, layer_id: 's' }],
  idle: [{ npu_id: 'n', core_id: 'n', idle_cycles: 'n', waiting_dma_cycles: 'n', waiting_command_cycles: 'n', no_work_cycles: 'n' }],
  idle_gaps: [{ npu_id: 'n', core_id: 'n', start: 'n', end: 'n', cycles: 'n', no_work: 'b' }],
  findings: [{ rule: 's', severity: 's', message: 's', evidence: 'evidence', ranges: 'ranges', cmd_ids: ['id'] }],
};

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function valid(x: unknown, shape: Shape): boolean {
  switch (shape) {
    case 'n': return isNum(x);
    case 'n?': return x === null || isNum(x);
    case 's': return typeof x === 'string';
    case 'id': return typeof x === 'string' || isNum(x);
    case 'b': return typeof x === 'boolean';
    case 'evidence': return isObj(x) && Object.keys(x).length <= 100 && Object.values(x).every((v) => v === null || typeof v === 'string' || isNum(v));
    case 'ranges': return Array.isArray(x) && x.length <= MAX_ROWS && x.every((r) => Array.isArray(r) && r.length === 2 && isNum(r[0]) && isNum(r[1]));
  }
  if (Array.isArray(shape)) return Array.isArray(x) && x.length <= MAX_ROWS && x.every((e) => valid(e, shape[0]));
  return isObj(x) && Object.entries(shape).every(([k, s]) => valid(x[k], s));
}

export function validStats(x: unknown): x is TraceStats {
  return valid(x, STATS) && (x as TraceStats).version === 1;
}

/**
 * The status bar's overall TE utilization: TE busy cycles of all cores over (cores × span), so a
 * trace with one idle core of two reads 50 % at most; null without cores or span.
 */
export function overallTeUtil(s: TraceStats): number | null {
  if (!s.cores.length || s.span_cycles <= 0) return null;
  let busy = 0;
  for (const c of s.cores) busy += c.te_busy_cycles;
  return busy / (s.cores.length * s.span_cycles);
}
