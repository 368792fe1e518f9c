import { IntKeyed } from '../common/intKeyed';
import { eventSchema } from './eventTypes';
import { clockOf } from './index';
import { ClockEstimate } from './metrics/clock';
import { flatEventOfBytes, scannedBankId } from './metrics/byteFields';
import { MetricsCollector } from './metrics/collector';
import type { Id } from './line';
import { findField, scanLine } from '../json/scanner';
import { TimelineAssembler } from '../timeline/assembler';
import type { CounterSpec } from '../timeline/counters';
import type { TimelineBuilder } from '../timeline/builder';
import { emptyEvent, readEvent, type FlatEvent } from './flatEvent';
import { FLAG, KIND, type TimelineModel } from '../timeline/model';

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

interface Core {
  group: number;
  counters: Record<'te' | 've' | 'dma' | 'dram', CounterSpec>;
  /** Resource track by resource and channel/link, so the per-event path builds no names. */
  tracks: Map<number, number>;
}

const RESOURCE_CODE = { commands: 0, jobs: 1, te: 2, ve: 3, dma: 4, dram: 5, noc: 6 } as const;

function idNum(id: Id | undefined): number {
  return id === undefined ? NaN : typeof id === 'number' ? id : Number(id);
}

const STRIP = /_START$|_ISSUE$|_END$|_DONE$/;

/**
 * Builds the timeline of an NPU simulator trace, fed one line at a time (so a streamed file is
 * never held whole). START/END pairs match by the same ids as the checker's PAIRINGS, each event
 * kind in its own namespace. Lines are read with a flat scan, not validated: the editor's
 * diagnostics cover validity; here a line only needs a known event_type and a t_cycle to be drawn.
 */
export class NpuTimelineBuilder implements TimelineBuilder {
  private readonly asm = new TimelineAssembler('npu-trace');
  private readonly open = new Map<string, IntKeyed>();
  private readonly cmds = new Map<Id, CmdInfo>();
  private readonly cores = new Map<number, Core>();
  private readonly ev = emptyEvent();
  private readonly shortNames = new Map<string, number>();
  private lastAttrs: (string | undefined)[] = [];
  private lastCtx = -1;
  private lineCount = 0;
  private undrawable = 0;
  /** The line being read, for exactId. */
  private text = '';
  private readonly exactId = (key: string): Id | undefined => {
    const f = findField(scanLine(this.text), key);
    return f ? this.text.slice(f.valueStart, f.valueEnd) : undefined;
  };
  private readonly clock = new ClockEstimate();
  /** The Summary's numbers, fed from this builder's JSON.parse so the file is read once. */
  private readonly metrics: MetricsCollector | undefined;

  constructor(opts: { metrics?: boolean } = {}) {
    this.metrics = opts.metrics === false ? undefined : new MetricsCollector();
  }

  addLine(text: string, lineNo: number): void {
    this.lineCount = lineNo + 1;
    let o: unknown;
    try {
      o = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      if (text.trim()) this.undrawable++;
      return;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      this.undrawable++;
      return;
    }
    const r = o as Record<string, unknown>;
    if (r.event_type === 'TRACE_META') {
      this.metrics?.addParsed(r, text);
      this.clock.clockGhz = clockOf(r);
      return;
    }
    this.text = text;
    readEvent(r, this.ev, this.exactId);
    this.metrics?.addFlat(this.ev, r.bank_id);
    this.add(this.ev, lineNo);
  }

  /**
   * A line as its UTF-8 bytes `[s, e)`: the fields are read from the bytes (no parse, no object per
   * line), the Summary's metrics fed from the same read; a line the byte reader is not sure of, and
   * TRACE_META, go through `addLine`, so the model and the metrics are the same either way.
   */
  addLineBytes(b: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void {
    if (!flatEventOfBytes(b, s, e, this.ev, decode)) return this.addLine(decode(b, s, e), lineNo);
    this.lineCount = lineNo + 1;
    this.metrics?.addFlat(this.ev, scannedBankId());
    this.add(this.ev, lineNo);
  }

  private add(e: FlatEvent, lineNo: number): void {
    const type = e.type;
    if (!type || !eventSchema(type) || e.t === undefined) {
      this.undrawable++;
      return;
    }
    const t = e.t;
    this.clock.sample(t, e.tNs);
    const asm = this.asm;
    if (type === 'CMD_ENQUEUE') {
      if (e.cmd !== undefined) this.cmds.set(e.cmd, { npu: e.npu ?? 0, core: e.core ?? 0, type: e.cmdType, attrs: this.attrs(e, undefined) });
      asm.seen(t);
      return;
    }
    const start = STARTS[type];
    if (start) {
      const cmd = e.cmd !== undefined ? this.cmds.get(e.cmd) : undefined;
      const track = this.resourceTrack(this.core(e, cmd), start.resource, e);
      const name = start.kind === KIND.command ? asm.intern(cmd?.type ?? 'command')
        : e.jobType !== undefined ? asm.intern(e.jobType) : e.opType !== undefined ? asm.intern(e.opType) : e.direction !== undefined ? asm.intern(e.direction) : this.short(type);
      const id = start.key === 'cmd' ? e.cmd : start.key === 'job' ? e.job : e.tx;
      const i = asm.add(track, t, NaN, lineNo, name, idNum(id), this.context(this.attrs(e, cmd)), e.size ?? 0, start.kind, id === undefined ? FLAG.invalid : 0);
      if (id !== undefined) this.openMap(type).set(id, i);
      return;
    }
    const startType = ENDS[type];
    if (startType) {
      const p = STARTS[startType];
      const id = p.key === 'cmd' ? e.cmd : p.key === 'job' ? e.job : e.tx;
      const m = this.openMap(startType);
      const i = id === undefined ? undefined : m.get(id);
      const failed = e.status !== undefined && e.status !== 'OK' ? FLAG.failed : 0;
      if (i !== undefined) {
        m.delete(id!);
        asm.close(i, t, lineNo, failed);
        return;
      }
      const cmd = e.cmd !== undefined ? this.cmds.get(e.cmd) : undefined;
      const track = this.resourceTrack(this.core(e, cmd), p.resource, e);
      asm.add(track, t, t, lineNo, this.short(type), idNum(id), this.context(this.attrs(e, cmd)), 0, p.kind, FLAG.instant | FLAG.unmatchedEnd | failed | (id === undefined ? FLAG.invalid : 0));
      return;
    }
    const ik = INSTANTS[type];
    if (ik !== undefined) {
      const cmd = e.cmd !== undefined ? this.cmds.get(e.cmd) : undefined;
      const track = asm.track(this.core(e, cmd).group, 'Markers', ORDER.markers, false);
      const failed = type === 'ERROR' || (e.status !== undefined && e.status !== 'OK') ? FLAG.failed : 0;
      const name = type === 'ERROR' || type === 'WARN' ? [e.component, e.code].filter(Boolean).join(' ') || type : type;
      asm.add(track, t, t, lineNo, asm.intern(name), idNum(e.cmd), this.context(this.attrs(e, cmd)), 0, ik, FLAG.instant | failed);
      return;
    }
    // SRAM_ACCESS and other events are not drawn, but they belong to the trace's time range.
    asm.seen(t);
  }

  finish(preview = false): TimelineModel {
    const model = this.asm.finish({ lineCount: this.lineCount, undrawable: this.undrawable, nsPerCycle: this.clock.nsPerCycle() });
    // A preview's numbers would be wrong for the file and are never shown: the Summary waits.
    if (!preview && this.metrics) model.stats = this.metrics.finish();
    return model;
  }

  private openMap(startType: string): IntKeyed {
    let m = this.open.get(startType);
    if (!m) this.open.set(startType, (m = new IntKeyed()));
    return m;
  }

  /** "TE_START" → "TE": the name of an item that has no better one. */
  private short(type: string): number {
    let k = this.shortNames.get(type);
    if (k === undefined) this.shortNames.set(type, (k = this.asm.intern(type.replace(STRIP, ''))));
    return k;
  }

  /** The context of these attribute values; consecutive events of one command share it, so the last one is kept. */
  private context(a: (string | undefined)[]): number {
    const l = this.lastAttrs;
    let same = a.length === l.length;
    for (let k = 0; same && k < a.length; k++) same = a[k] === l[k];
    if (same) return this.lastCtx;
    this.lastAttrs = a;
    return (this.lastCtx = this.asm.context(a));
  }

  /** Attribute values of an event (ATTRS order), falling back to those of its command's CMD_ENQUEUE. */
  private attrs(e: FlatEvent, cmd: CmdInfo | undefined): (string | undefined)[] {
    const own = [e.phase, e.layer ?? e.block, e.cmd === undefined ? undefined : String(e.cmd), e.tenant, e.model];
    if (cmd) for (let k = 0; k < own.length; k++) own[k] ??= cmd.attrs[k];
    return own;
  }

  private core(e: FlatEvent, cmd: CmdInfo | undefined): Core {
    const npu = e.npu ?? cmd?.npu ?? 0;
    const core = e.core ?? cmd?.core ?? 0;
    const key = npu * 65536 + core;
    let c = this.cores.get(key);
    if (!c) {
      const asm = this.asm;
      const npuGroup = asm.group(-1, `NPU ${npu}`, npu);
      const group = asm.group(npuGroup, `Core ${core}`, core);
      const counters = {
        te: { mode: 'busy' as const, sources: [] }, ve: { mode: 'busy' as const, sources: [] },
        dma: { mode: 'bytes' as const, sources: [] }, dram: { mode: 'bytes' as const, sources: [] },
      };
      c = { group, counters, tracks: new Map() };
      this.cores.set(key, c);
    }
    return c;
  }

  private resourceTrack(core: Core, resource: Pair['resource'], e: FlatEvent): number {
    const ch = resource === 'noc' ? e.link ?? 0 : resource === 'dma' || resource === 'dram' ? e.channel ?? 0 : 0;
    const key = ch * 8 + RESOURCE_CODE[resource];
    let t = core.tracks.get(key);
    if (t === undefined) core.tracks.set(key, (t = this.newResourceTrack(core, resource, e)));
    return t;
  }

  private newResourceTrack(core: Core, resource: Pair['resource'], e: FlatEvent): number {
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
        const label = resource === 'dma' ? 'DMA' : 'DRAM';
        const t = asm.track(core.group, `${label} ch ${e.channel ?? 0}`, ORDER[resource]);
        this.counterFor(core.group, `${label} bandwidth`, resource === 'dma' ? ORDER.dmaBw : ORDER.dramBw, core.counters[resource], t);
        return t;
      }
      case 'noc': return asm.track(core.group, `NoC link ${e.link ?? 0}`, ORDER.noc);
    }
  }

  private counterFor(group: number, name: string, order: number, spec: CounterSpec, source: number): void {
    this.asm.counter(group, name, order, spec);
    if (!spec.sources.includes(source)) spec.sources.push(source);
  }
}
