import { GroupSet } from '../diff/groups';
import { KIND } from '../timeline/model';
import type { DiffGroup, DiffLineCollector, DiffMetric, DiffRun, DiffSupport } from '../diff/types';
import { groupKey, MetricsCollector, NO_GROUP, SPAN_NAMES } from './metrics/collector';
import type { TraceStats } from './metrics/types';

/** Per-core utilization rows past this many cores are left out (a note says so). */
const MAX_CORE_ROWS = 64;

/**
 * `npu-trace diff` of NPU traces: the trace goes through the same `MetricsCollector` as `stats`
 * (one pass), so a phase's or layer's samples are the very command latencies `stats` sums into
 * `latency_sum_cycles`; cmd_type and engine spans are taken as the collector closes them. The
 * Summary's run-level figures (TE/VE utilization per core, DMA and DRAM bandwidth, SRAM conflict
 * rate) come from its `TraceStats`.
 */
export class TraceDiffCollector implements DiffLineCollector {
  private line = 0;
  // Phases and layers only note their first line here: their samples are the collector's own.
  private readonly phase = new GroupSet('phase');
  private readonly layer = new GroupSet('layer');
  private readonly cmdType = new GroupSet('cmd_type');
  private readonly engine = new GroupSet('engine');
  private readonly metrics = new MetricsCollector({
    observer: {
      command: (phase, layer, cmdType, latency) => {
        this.phase.seen(groupKey(phase), this.line);
        this.layer.seen(groupKey(layer), this.line);
        this.cmdType.add(cmdType ?? NO_GROUP, latency, this.line);
      },
      span: (kind, cycles) => this.engine.add(SPAN_NAMES[kind], cycles, this.line),
    },
  });

  add(line: string, lineNo: number): void {
    this.line = lineNo;
    this.metrics.addLine(line);
  }

  addBytes(b: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void {
    this.line = lineNo;
    this.metrics.addBytes(b, s, e, decode);
  }

  finish(): DiffRun {
    const stats = this.metrics.finish();
    const lat = this.metrics.latencies();
    const groups: DiffGroup[] = [];
    const fromStats = (k: GroupSet, m: Map<string, number[]>) => {
      for (const [key, durations] of m) {
        const firstLine = k.firstLine(key);
        groups.push({ kind: k.kind, key, durations, ...(firstLine === undefined ? {} : { firstLine }) });
      }
    };
    fromStats(this.phase, lat.phases);
    fromStats(this.layer, lat.layers);
    groups.push(...this.cmdType.list(), ...this.engine.list());
    const notes = stats.cores.length > MAX_CORE_ROWS ? [`utilization compared for the first ${MAX_CORE_ROWS} of ${stats.cores.length} cores`] : [];
    return { unit: 'cycles', span: stats.window.from === null ? null : stats.span_cycles, groups, metrics: traceMetrics(stats), notes };
  }
}

/** The Summary's run-level figures of a trace, as rows to compare. */
export function traceMetrics(s: TraceStats): DiffMetric[] {
  const out: DiffMetric[] = [];
  for (const c of s.cores.slice(0, MAX_CORE_ROWS)) {
    const core = c.npu_id < 0 ? 'other cores' : `core ${c.npu_id}/${c.core_id}`;
    out.push({ key: `TE utilization, ${core}`, value: c.te_util, unit: 'ratio' }, { key: `VE utilization, ${core}`, value: c.ve_util, unit: 'ratio' });
  }
  const perCycle = (bytes: number) => (s.span_cycles > 0 ? bytes / s.span_cycles : null);
  const gbps = (bpc: number | null) => (bpc !== null && s.ns_per_cycle ? bpc / s.ns_per_cycle : null);
  // In GB/s where the trace gives a clock, else in bytes per cycle (both runs the same way).
  const bandwidth = (key: string, bytes: number) => {
    const bpc = perCycle(bytes);
    const g = gbps(bpc);
    out.push(g !== null ? { key, value: g, unit: 'GB/s' } : { key, value: bpc, unit: 'B/cycle' });
  };
  bandwidth('DMA bandwidth', s.dma.bytes);
  bandwidth('DRAM bandwidth', s.dram.bytes);
  out.push({ key: 'SRAM conflict rate', value: s.sram.conflict_rate, unit: 'ratio' });
  return out;
}

export const traceDiff: DiffSupport = {
  kinds: ['phase', 'layer', 'cmd_type', 'engine'],
  lines: () => new TraceDiffCollector(),
  // A phase's or layer's items are its commands and every span and event they carry the attribute to;
  // a command type names its commands; an engine is its spans' kind (SPAN_NAMES are KIND_NAMES).
  timeline: { phase: { by: 'attr', attr: 'phase' }, layer: { by: 'attr', attr: 'layer_id' }, cmd_type: { by: 'name', kinds: [KIND.command] }, engine: { by: 'kind' } },
  // Compare Timelines aligns at the first command of a layer or of a phase (a click on a layer or
  // phase group, at that one's).
  markers: [
    { label: 'layer', key: 'attr', attr: 'layer_id', kinds: [KIND.command], group: 'layer' },
    { label: 'phase', key: 'attr', attr: 'phase', kinds: [KIND.command], group: 'phase' },
  ],
};
