import { clip } from '../../common/clip';
import { attr, id as readId, int, num, str } from '../../timeline/event';
import { clockOf } from '../index';
import type { Id } from '../line';
import { findField, scanLine } from '../scanner';
import { ClockEstimate } from './clock';
import { Intervals } from './intervals';
import { summarize } from './summarize';
import type { TraceStats } from './types';

/** What a START/ISSUE opens, closed by its END/DONE, as the checker pairs them (one namespace per kind). */
type SpanKind = 'cmd' | 'job' | 'te' | 've' | 'dma' | 'dram' | 'noc';
const STARTS: Record<string, SpanKind> = {
  CMD_START: 'cmd', JOB_ISSUE: 'job', TE_START: 'te', VE_START: 've', DMA_START: 'dma', DRAM_TX_START: 'dram', NOC_TX_START: 'noc',
};
const ENDS: Record<string, SpanKind> = {
  CMD_END: 'cmd', JOB_DONE: 'job', TE_END: 'te', VE_END: 've', DMA_END: 'dma', DRAM_TX_END: 'dram', NOC_TX_END: 'noc',
};
const KEY_OF: Record<SpanKind, 'cmd_id' | 'job_id' | 'tx_id'> = { cmd: 'cmd_id', job: 'job_id', te: 'job_id', ve: 'job_id', dma: 'tx_id', dram: 'tx_id', noc: 'tx_id' };

/** A phase or layer name a file can make arbitrarily many or long: capped in count and length. */
export const MAX_GROUPS = 10_000;
export const OTHER_GROUP = '(other)';
export const NO_GROUP = '(none)';
const OTHER_CORE = 'other';

interface Open {
  t: number;
  size: number | undefined;
  core: string;
  channel: number;
  direction: string | undefined;
  cmd: Id | undefined;
}

interface CmdInfo {
  npu: number;
  core: number;
  phase: string | undefined;
  layer: string | undefined;
}

/** Per (npu, core): the busy intervals of its engines and the spans of its commands. */
export interface CoreAcc {
  npu: number;
  core: number;
  te: Intervals;
  ve: Intervals;
  dma: Intervals;
  commands: Intervals;
}

export interface ChannelAcc {
  bytes: number;
  busy: Intervals;
}

/** A phase or a layer: its commands and the engine time of events whose command belongs to it. */
export interface GroupAcc {
  commands: number;
  latencies: number[];
  first: number;
  last: number;
  te: Intervals;
  ve: Intervals;
  dma: Intervals;
  /** The longest commands, longest first (at most TOP_COMMANDS): the evidence of findings. */
  top: { cmd: Id; start: number; end: number }[];
}

export const TOP_COMMANDS = 10;

export interface BankAcc {
  accesses: number;
  conflicts: number;
  firstConflict: number;
  lastConflict: number;
}

export interface StatsOptions {
  /** Window start and end in cycles; default the trace's earliest and latest t_cycle. */
  from?: number;
  to?: number;
}

/** The accumulated state that `summarize` turns into numbers. */
export interface Accumulated {
  from: number;
  to: number;
  events: number;
  unpaired: number;
  nsPerCycle: number | undefined;
  cores: Map<string, CoreAcc>;
  dmaChannels: Map<number, ChannelAcc>;
  dmaDirections: Map<string, number>;
  dramChannels: Map<number, ChannelAcc>;
  nocLinks: Map<number, ChannelAcc>;
  sramAccesses: number;
  sramConflicts: number;
  banks: Map<number, BankAcc>;
  phases: Map<string, GroupAcc>;
  layers: Map<string, GroupAcc>;
}

/**
 * Computes the metrics of an NPU trace (spec §7) in one pass over its lines, fed one at a time so a
 * streamed file is never held whole. Lines that do not parse or lack an event_type and t_cycle are
 * skipped (the checker reports them); broken pairs are counted in `unpaired`, never fatal.
 */
export class MetricsCollector {
  private readonly clock = new ClockEstimate();
  private readonly open = new Map<SpanKind, Map<Id, Open>>();
  private readonly cmds = new Map<Id, CmdInfo>();
  private readonly acc: Accumulated;
  private readonly from: number;
  private readonly to: number;
  private minT = Infinity;
  private maxT = -Infinity;
  private text = '';
  private readonly exactId = (key: string): Id | undefined => {
    const f = findField(scanLine(this.text), key);
    return f ? this.text.slice(f.valueStart, f.valueEnd) : undefined;
  };

  constructor(opts: StatsOptions = {}) {
    this.from = opts.from ?? -Infinity;
    this.to = opts.to ?? Infinity;
    this.acc = {
      from: NaN, to: NaN, events: 0, unpaired: 0, nsPerCycle: undefined, cores: new Map(), dmaChannels: new Map(), dmaDirections: new Map(),
      dramChannels: new Map(), nocLinks: new Map(), sramAccesses: 0, sramConflicts: 0, banks: new Map(), phases: new Map(), layers: new Map(),
    };
  }

  addLine(text: string): void {
    let o: unknown;
    try {
      o = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return;
    this.addParsed(o as Record<string, unknown>, text);
  }

  /** A line its caller already parsed (the timeline builder feeds both from one JSON.parse). */
  addParsed(r: Record<string, unknown>, text: string): void {
    if (r.event_type === 'TRACE_META') {
      this.clock.clockGhz = clockOf(r);
      return;
    }
    this.text = text;
    this.add(r);
  }

  /**
   * One parsed event. Only the fields its type needs are read (reading every field of every line
   * cost a fifth of the pass).
   */
  private add(r: Record<string, unknown>): void {
    const type = str(r.event_type);
    const t = num(r.t_cycle);
    if (type === undefined || t === undefined) return;
    this.acc.events++;
    if (t < this.minT) this.minT = t;
    if (t > this.maxT) this.maxT = t;
    if (r.t_ns !== undefined) this.clock.sample(t, num(r.t_ns));
    if (type === 'CMD_ENQUEUE') {
      const cmd = readId(r.cmd_id, 'cmd_id', this.exactId);
      if (cmd !== undefined) this.cmds.set(cmd, this.cmdInfo(r));
      return;
    }
    const start = STARTS[type];
    if (start) {
      const key = KEY_OF[start];
      const id = readId(r[key], key, this.exactId);
      if (id === undefined) return;
      const cmdId = start === 'cmd' ? id : readId(r.cmd_id, 'cmd_id', this.exactId);
      const cmd = cmdId !== undefined ? this.cmds.get(cmdId) : undefined;
      const m = this.openMap(start);
      if (m.has(id)) this.acc.unpaired++; // a second START of an open id: the first is never closed
      m.set(id, {
        t, size: num(r.size_bytes), core: this.coreKey(r, cmd), channel: int(start === 'noc' ? r.link_id : r.channel) ?? 0,
        direction: start === 'dma' ? str(r.direction) : undefined, cmd: cmdId,
      });
      if (start === 'cmd' && cmd === undefined) this.cmds.set(id, this.cmdInfo(r));
      return;
    }
    const end = ENDS[type];
    if (end) {
      const key = KEY_OF[end];
      const id = readId(r[key], key, this.exactId);
      const m = this.openMap(end);
      const o = id === undefined ? undefined : m.get(id);
      if (!o) {
        this.acc.unpaired++;
        return;
      }
      m.delete(id!);
      this.close(end, o, t, r, id!);
      return;
    }
    if (type === 'SRAM_ACCESS' || type === 'SRAM_CONFLICT') {
      if (t < this.from || t > this.to) return;
      const conflict = type === 'SRAM_CONFLICT';
      if (conflict) this.acc.sramConflicts++;
      else this.acc.sramAccesses++;
      const bank = int(r.bank_id);
      if (bank === undefined) return;
      let b = this.acc.banks.get(bank);
      if (!b) {
        if (this.acc.banks.size >= MAX_GROUPS) return;
        this.acc.banks.set(bank, (b = { accesses: 0, conflicts: 0, firstConflict: Infinity, lastConflict: -Infinity }));
      }
      if (conflict) {
        b.conflicts++;
        if (t < b.firstConflict) b.firstConflict = t;
        if (t > b.lastConflict) b.lastConflict = t;
      } else b.accesses++;
    }
  }

  /** The metrics of the lines so far; adding may go on (a START still open now counts as unpaired). */
  finish(): TraceStats {
    let open = 0;
    for (const m of this.open.values()) open += m.size;
    return summarize({
      ...this.acc, unpaired: this.acc.unpaired + open, nsPerCycle: this.clock.nsPerCycle(),
      from: Number.isFinite(this.from) ? this.from : this.minT, to: Number.isFinite(this.to) ? this.to : this.maxT,
    });
  }

  private close(kind: SpanKind, o: Open, t: number, r: Record<string, unknown>, id: Id): void {
    if (t < o.t) {
      // An END before its START is a broken pair (the checker's end-before-start): not a span.
      this.acc.unpaired += 2;
      return;
    }
    const acc = this.acc;
    const endCmd = o.cmd === undefined ? readId(r.cmd_id, 'cmd_id', this.exactId) : undefined;
    const cmd = o.cmd !== undefined ? this.cmds.get(o.cmd) : endCmd !== undefined ? this.cmds.get(endCmd) : undefined;
    const core = this.core(o.core);
    const size = o.size ?? num(r.size_bytes) ?? 0;
    switch (kind) {
      case 'cmd': {
        if (t < this.from || o.t > this.to) return;
        core.commands.add(o.t, t);
        const s = Math.max(o.t, this.from);
        const en = Math.min(t, this.to);
        this.command(acc.phases, cmd?.phase, id, s, en);
        this.command(acc.layers, cmd?.layer, id, s, en);
        return;
      }
      case 'job':
        return;
      case 'te':
      case 've':
        core[kind].add(o.t, t);
        this.group(acc.phases, cmd?.phase)?.[kind].add(o.t, t);
        this.group(acc.layers, cmd?.layer)?.[kind].add(o.t, t);
        return;
      case 'dma': {
        core.dma.add(o.t, t);
        this.group(acc.phases, cmd?.phase)?.dma.add(o.t, t);
        this.group(acc.layers, cmd?.layer)?.dma.add(o.t, t);
        const bytes = this.inWindow(size, o.t, t);
        this.channel(acc.dmaChannels, o.channel, bytes, o.t, t);
        const dir = o.direction === undefined ? NO_GROUP : clip(o.direction, 200);
        if (acc.dmaDirections.has(dir) || acc.dmaDirections.size < MAX_GROUPS) acc.dmaDirections.set(dir, (acc.dmaDirections.get(dir) ?? 0) + bytes);
        return;
      }
      case 'dram':
        this.channel(acc.dramChannels, o.channel, this.inWindow(size, o.t, t), o.t, t);
        return;
      case 'noc':
        this.channel(acc.nocLinks, o.channel, this.inWindow(size, o.t, t), o.t, t);
        return;
    }
  }

  /**
   * The bytes of a transfer that fall in the window: all of them without one, else in proportion
   * to the overlap of [start, end] with it (a transfer of no duration counts if it starts inside).
   */
  private inWindow(size: number, s: number, e: number): number {
    if (!Number.isFinite(this.from) && !Number.isFinite(this.to)) return size;
    if (e === s) return s >= this.from && s <= this.to ? size : 0;
    const overlap = Math.min(e, this.to) - Math.max(s, this.from);
    return overlap > 0 ? (size * overlap) / (e - s) : 0;
  }

  private channel(map: Map<number, ChannelAcc>, ch: number, bytes: number, s: number, e: number): void {
    let c = map.get(ch);
    if (!c) {
      if (map.size >= MAX_GROUPS) return;
      map.set(ch, (c = { bytes: 0, busy: new Intervals() }));
    }
    c.bytes += bytes;
    c.busy.add(s, e);
  }

  private command(map: Map<string, GroupAcc>, key: string | undefined, cmd: Id, s: number, e: number): void {
    const g = this.group(map, key);
    if (!g) return;
    g.commands++;
    g.latencies.push(e - s);
    if (s < g.first) g.first = s;
    if (e > g.last) g.last = e;
    const top = g.top;
    if (top.length < TOP_COMMANDS || e - s > top[top.length - 1].end - top[top.length - 1].start) {
      let i = top.length;
      while (i > 0 && top[i - 1].end - top[i - 1].start < e - s) i--;
      top.splice(i, 0, { cmd, start: s, end: e });
      if (top.length > TOP_COMMANDS) top.pop();
    }
  }

  private group(map: Map<string, GroupAcc>, raw: string | undefined): GroupAcc | undefined {
    let key = raw === undefined ? NO_GROUP : clip(raw, 200);
    let g = map.get(key);
    if (g) return g;
    if (map.size >= MAX_GROUPS) {
      key = OTHER_GROUP;
      g = map.get(key);
      if (g) return g;
    }
    g = { commands: 0, latencies: [], first: Infinity, last: -Infinity, te: new Intervals(), ve: new Intervals(), dma: new Intervals(), top: [] };
    map.set(key, g);
    return g;
  }

  private cmdInfo(r: Record<string, unknown>): CmdInfo {
    return { npu: int(r.npu_id) ?? 0, core: int(r.core_id) ?? 0, phase: attr(r.phase), layer: attr(r.layer_id) };
  }

  private openMap(kind: SpanKind): Map<Id, Open> {
    let m = this.open.get(kind);
    if (!m) this.open.set(kind, (m = new Map()));
    return m;
  }

  /** The core an event runs on: its own npu_id/core_id, else its command's, else 0 (as the timeline). */
  private coreKey(r: Record<string, unknown>, cmd: CmdInfo | undefined): string {
    return `${int(r.npu_id) ?? cmd?.npu ?? 0}/${int(r.core_id) ?? cmd?.core ?? 0}`;
  }

  private core(key: string): CoreAcc {
    let c = this.acc.cores.get(key);
    if (c) return c;
    // Past the cap, further cores share one entry (npu and core -1) rather than growing the map.
    if (this.acc.cores.size >= MAX_GROUPS) key = OTHER_CORE;
    c = this.acc.cores.get(key);
    if (!c) {
      const [npu, core] = key === OTHER_CORE ? [-1, -1] : key.split('/').map(Number);
      c = { npu, core, te: new Intervals(), ve: new Intervals(), dma: new Intervals(), commands: new Intervals() };
      this.acc.cores.set(key, c);
    }
    return c;
  }
}
