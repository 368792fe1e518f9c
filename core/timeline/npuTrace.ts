import { clockOf } from '../trace/index';
import type { Id, TraceLine } from '../trace/line';
import { parseTraceLine } from '../trace/parseLine';
import { TimelineAssembler } from './assembler';
import type { CounterSpec } from './counters';
import type { TimelineBuilder } from './builder';
import { FLAG, KIND, type TimelineModel } from './model';

/** Resource tracks under each core, in display order. */
const ORDER = { commands: 0, jobs: 1, te: 2, teUtil: 3, ve: 4, veUtil: 5, dma: 6, dmaBw: 7, dram: 8, dramBw: 9, noc: 10, markers: 11 } as const;

interface Pair {
  kind: number;
  resource: 'commands' | 'jobs' | 'te' | 've' | 'dma' | 'dram' | 'noc';
  key: 'cmd' | 'job' | 'tx';
}

const STARTS: Record<string, Pair> = {
  CMD_START: { kind: KIND.command, resource: 'commands', key: 'cmd' },
  JOB_ISSUE: { kind: KIND.job, resource: 'jobs', key: 'job' },
  TE_START: { kind: KIND.te, resource: 'te', key: 'job' },
  VE_START: { kind: KIND.ve, resource: 've', key: 'job' },
  DMA_START: { kind: KIND.dma, resource: 'dma', key: 'tx' },
  DRAM_TX_START: { kind: KIND.dram, resource: 'dram', key: 'tx' },
  NOC_TX_START: { kind: KIND.noc, resource: 'noc', key: 'tx' },
};
const ENDS: Record<string, string> = {
  CMD_END: 'CMD_START', JOB_DONE: 'JOB_ISSUE', TE_END: 'TE_START', VE_END: 'VE_START',
  DMA_END: 'DMA_START', DRAM_TX_END: 'DRAM_TX_START', NOC_TX_END: 'NOC_TX_START',
};
const INSTANTS: Record<string, number> = {
  IRQ_EMIT: KIND.irq, TOKEN_COMPLETE: KIND.token, SRAM_CONFLICT: KIND.sramConflict, ERROR: KIND.error, WARN: KIND.warn,
};

interface CmdInfo {
  npu: number;
  core: number;
  type: string | undefined;
  attrs: (string | undefined)[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}
function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}
function idNum(id: Id | undefined): number {
  return id === undefined ? NaN : typeof id === 'number' ? id : Number(id);
}

/**
 * Builds the timeline of an NPU simulator trace, fed one parsed line at a time (so a streamed file
 * never needs to be held whole). START/END pairs match by the same ids as the checker's PAIRINGS,
 * each event kind in its own namespace.
 */
export class NpuTimelineBuilder implements TimelineBuilder {
  private readonly asm = new TimelineAssembler('npu-trace');
  private readonly open = new Map<string, Map<Id, number>>();
  private readonly cmds = new Map<Id, CmdInfo>();
  private readonly cores = new Map<string, { group: number; counters: Record<'te' | 've' | 'dma' | 'dram', CounterSpec> }>();
  private lineCount = 0;
  private undrawable = 0;
  private clockGhz: number | undefined;
  private nsFirst: [number, number] | undefined;
  private nsLast: [number, number] | undefined;

  addLine(text: string, lineNo: number): void {
    this.add(parseTraceLine(text), lineNo);
  }

  add(l: TraceLine, lineNo: number): void {
    this.lineCount = lineNo + 1;
    const o = l.obj;
    if (!o) {
      if (l.text.trim()) this.undrawable++;
      return;
    }
    const type = l.type;
    if (type === 'TRACE_META') {
      this.clockGhz = clockOf(o);
      return;
    }
    if (!type || l.t === undefined) {
      this.undrawable++;
      return;
    }
    const t = l.t;
    if (typeof o.t_ns === 'number') {
      this.nsFirst ??= [t, o.t_ns];
      this.nsLast = [t, o.t_ns];
    }
    const invalid = l.local?.some((d) => d.severity === 'error' && d.code !== 'trace.reported-error') ? FLAG.invalid : 0;
    const asm = this.asm;
    if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) {
      this.cmds.set(l.cmd, { npu: int(o.npu_id) ?? 0, core: int(o.core_id) ?? 0, type: str(o.cmd_type), attrs: this.attrs(o, l.cmd, undefined) });
      asm.seen(t);
      return;
    }
    const start = STARTS[type];
    if (start) {
      const cmd = l.cmd !== undefined ? this.cmds.get(l.cmd) : undefined;
      const core = this.core(o, cmd);
      const track = this.resourceTrack(core, start.resource, o);
      const name = start.kind === KIND.command ? cmd?.type ?? 'command'
        : str(o.job_type) ?? str(o.op_type) ?? str(o.direction) ?? type.replace(/_START$|_ISSUE$/, '');
      const id = start.key === 'cmd' ? l.cmd : start.key === 'job' ? l.job : l.tx;
      const bytes = typeof o.size_bytes === 'number' ? o.size_bytes : 0;
      const i = asm.add(track, t, NaN, lineNo, asm.intern(name), idNum(id), asm.context(this.attrs(o, l.cmd, cmd)), bytes, start.kind, invalid);
      if (id !== undefined) this.openMap(type).set(id, i);
      return;
    }
    const startType = ENDS[type];
    if (startType) {
      const p = STARTS[startType];
      const id = p.key === 'cmd' ? l.cmd : p.key === 'job' ? l.job : l.tx;
      const m = this.openMap(startType);
      const i = id === undefined ? undefined : m.get(id);
      const failed = typeof o.status === 'string' && o.status !== 'OK' ? FLAG.failed : 0;
      if (i !== undefined) {
        m.delete(id!);
        asm.close(i, t, lineNo, failed | invalid);
        return;
      }
      const cmd = l.cmd !== undefined ? this.cmds.get(l.cmd) : undefined;
      const track = this.resourceTrack(this.core(o, cmd), p.resource, o);
      const name = type.replace(/_END$|_DONE$/, '');
      asm.add(track, t, t, lineNo, asm.intern(name), idNum(id), asm.context(this.attrs(o, l.cmd, cmd)), 0, p.kind, FLAG.instant | FLAG.unmatchedEnd | failed | invalid);
      return;
    }
    const ik = INSTANTS[type];
    if (ik !== undefined) {
      const cmd = l.cmd !== undefined ? this.cmds.get(l.cmd) : undefined;
      const core = this.core(o, cmd);
      const track = asm.track(core.group, 'Markers', ORDER.markers, false);
      const failed = type === 'ERROR' || (typeof o.status === 'string' && o.status !== 'OK') ? FLAG.failed : 0;
      const name = type === 'ERROR' || type === 'WARN' ? [str(o.component), str(o.code)].filter(Boolean).join(' ') || type : type;
      asm.add(track, t, t, lineNo, asm.intern(name), idNum(l.cmd), asm.context(this.attrs(o, l.cmd, cmd)), 0, ik, FLAG.instant | failed | invalid);
      return;
    }
    // SRAM_ACCESS and other events are not drawn, but they belong to the trace's time range.
    asm.seen(t);
  }

  finish(): TimelineModel {
    let nsPerCycle: number | undefined;
    if (this.nsFirst && this.nsLast && this.nsLast[0] > this.nsFirst[0]) nsPerCycle = (this.nsLast[1] - this.nsFirst[1]) / (this.nsLast[0] - this.nsFirst[0]);
    else if (this.nsFirst && this.nsFirst[0] > 0) nsPerCycle = this.nsFirst[1] / this.nsFirst[0];
    else if (this.clockGhz) nsPerCycle = 1 / this.clockGhz;
    if (nsPerCycle !== undefined && !(nsPerCycle > 0 && Number.isFinite(nsPerCycle))) nsPerCycle = undefined;
    return this.asm.finish({ lineCount: this.lineCount, undrawable: this.undrawable, nsPerCycle });
  }

  private openMap(startType: string): Map<Id, number> {
    let m = this.open.get(startType);
    if (!m) this.open.set(startType, (m = new Map()));
    return m;
  }

  /** Attribute values of an event, falling back to those of its command's CMD_ENQUEUE. */
  private attrs(o: Record<string, unknown>, cmdId: Id | undefined, cmd: CmdInfo | undefined): (string | undefined)[] {
    const own = [str(o.phase), str(o.layer_id ?? o.block_id), cmdId === undefined ? undefined : String(cmdId), str(o.tenant_id), str(o.model_name)];
    if (cmd) for (let k = 0; k < own.length; k++) own[k] ??= cmd.attrs[k];
    return own;
  }

  private core(o: Record<string, unknown>, cmd: CmdInfo | undefined): { group: number; counters: Record<'te' | 've' | 'dma' | 'dram', CounterSpec> } {
    const npu = int(o.npu_id) ?? cmd?.npu ?? 0;
    const core = int(o.core_id) ?? cmd?.core ?? 0;
    const key = `${npu}/${core}`;
    let c = this.cores.get(key);
    if (!c) {
      const asm = this.asm;
      const npuGroup = asm.group(-1, `NPU ${npu}`, npu);
      const group = asm.group(npuGroup, `Core ${core}`, core);
      const counters = {
        te: { mode: 'busy' as const, sources: [] }, ve: { mode: 'busy' as const, sources: [] },
        dma: { mode: 'bytes' as const, sources: [] }, dram: { mode: 'bytes' as const, sources: [] },
      };
      c = { group, counters };
      this.cores.set(key, c);
    }
    return c;
  }

  private resourceTrack(core: { group: number; counters: Record<'te' | 've' | 'dma' | 'dram', CounterSpec> }, resource: Pair['resource'], o: Record<string, unknown>): number {
    const asm = this.asm;
    switch (resource) {
      case 'commands': return asm.track(core.group, 'Commands', ORDER.commands);
      case 'jobs': return asm.track(core.group, 'Jobs', ORDER.jobs);
      case 'te':
      case 've': {
        const name = resource === 'te' ? 'TE' : 'VE';
        const t = asm.track(core.group, name, ORDER[resource]);
        this.counterFor(core.group, `${name} utilization`, resource === 'te' ? ORDER.teUtil : ORDER.veUtil, core.counters[resource], t);
        return t;
      }
      case 'dma':
      case 'dram': {
        const ch = int(o.channel) ?? 0;
        const label = resource === 'dma' ? 'DMA' : 'DRAM';
        const t = asm.track(core.group, `${label} ch ${ch}`, ORDER[resource]);
        this.counterFor(core.group, `${label} bandwidth`, resource === 'dma' ? ORDER.dmaBw : ORDER.dramBw, core.counters[resource], t);
        return t;
      }
      case 'noc': return asm.track(core.group, `NoC link ${int(o.link_id) ?? 0}`, ORDER.noc);
    }
  }

  private counterFor(group: number, name: string, order: number, spec: CounterSpec, source: number): void {
    this.asm.counter(group, name, order, spec);
    if (!spec.sources.includes(source)) spec.sources.push(source);
  }
}
