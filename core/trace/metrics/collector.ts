import { clip } from '../../common/clip';
import { IntKeyed } from '../../common/intKeyed';
import { clockOf } from '../index';
import type { Id } from '../line';
import { findField, scanLine } from '../../json/scanner';
import { fieldsOfBytes } from './byteFields';
import { ClockEstimate } from './clock';
import type { FlatEvent } from '../flatEvent';
import { END, type EventFields, fieldsOfFlat, fieldsOfObject, K_CMD, K_DMA, K_DRAM, K_JOB, K_NOC, K_TE, K_VE, PAIR_KEY, SPAN_KINDS, START, T_ENQUEUE, T_META, T_NONE, T_OTHER, T_SRAM_CONFLICT, newEventFields } from './eventFields';
import { Intervals } from './intervals';
import { OpenSpans } from './openSpans';
import { summarize } from './summarize';
import type { Accumulated, ChannelAcc, CoreAcc, GroupAcc } from './accumulated';
import type { TraceStats } from './types';


/** A phase or layer name a file can make arbitrarily many or long: capped in count and length. */
export const MAX_GROUPS = 10_000;
export const OTHER_GROUP = '(other)';
export const NO_GROUP = '(none)';
const OTHER_CORE = 'other';

interface CmdInfo {
  npu: number;
  core: number;
  phase: string | undefined;
  layer: string | undefined;
  cmdType: string | undefined;
}

export const TOP_COMMANDS = 10;

/** What a stretch of events read elsewhere adds to the count, time range and clock (`addCounted`). */
export interface StretchCounts {
  events: number;
  minT: number;
  maxT: number;
  /** NaN when no event of the stretch has a t_ns. */
  firstT: number;
  firstNs: number;
  lastT: number;
  lastNs: number;
}

export interface StatsOptions {
  /** Window start and end in cycles; default the trace's earliest and latest t_cycle. */
  from?: number;
  to?: number;
  /** Told of every command and engine span as it closes (`npu-trace diff` takes its samples so). */
  observer?: MetricsObserver;
}

/** Span kinds as `MetricsObserver.span` names them. */
export const SPAN_NAMES = ['CMD', 'JOB', 'TE', 'VE', 'DMA', 'DRAM', 'NoC'];

export interface MetricsObserver {
  /** A command closed in the window: its phase and layer as given (not yet clipped), cmd_type, latency (cycles in the window). */
  command(phase: string | undefined, layer: string | undefined, cmdType: string | undefined, latency: number): void;
  /** A TE, VE, DMA, DRAM or NoC span closed (kind: an index of SPAN_NAMES), with its duration in cycles. */
  span(kind: number, cycles: number): void;
}

/** The name a phase or layer is filed under in the breakdowns (before the MAX_GROUPS cap). */
export const groupKey = (raw: string | undefined): string => (raw === undefined ? NO_GROUP : clip(raw, 200));

/**
 * Computes the metrics of an NPU trace (spec §7) in one pass over its lines, fed one at a time so a
 * streamed file is never held whole. Lines that do not parse or lack an event_type and t_cycle are
 * skipped (the checker reports them); broken pairs are counted in `unpaired`, never fatal.
 */
export class MetricsCollector {
  private readonly clock = new ClockEstimate();
  /** Per span kind, the slots in `spans` of the STARTs still open (paired as the checker pairs them: one namespace per kind). */
  private readonly open: IntKeyed[] = Array.from({ length: SPAN_KINDS }, () => new IntKeyed());
  private readonly spans = new OpenSpans();
  private readonly f = newEventFields();
  private lastCore: CoreAcc | undefined;
  private lastNpu = 0;
  private lastCoreId = 0;
  private readonly cmds = new Map<Id, CmdInfo>();
  private readonly acc: Accumulated;
  private readonly from: number;
  private readonly to: number;
  private readonly observer: MetricsObserver | undefined;
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
    this.observer = opts.observer;
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
      this.setClock(clockOf(r));
      return;
    }
    this.text = text;
    fieldsOfObject(r, this.f, this.exactId);
    this.add(this.f);
  }

  /**
   * An event the timeline builder already read (not TRACE_META: that goes to `addParsed`), with its
   * line's bank_id: the builder and the metrics share one read of the fields (one JSON.parse, or
   * one read of the line's bytes: `scannedBankId`).
   */
  addFlat(e: FlatEvent, bankId: unknown): void {
    fieldsOfFlat(e, bankId, this.f);
    this.add(this.f);
  }

  /**
   * A line as its UTF-8 bytes `[s, e)`: the fields are read straight from the bytes, and a line the
   * byte reader is not sure of (escapes, non-ASCII, nesting, big ids, TRACE_META) is decoded and
   * parsed as `addLine` does, so the result is the same either way.
   */
  addBytes(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string): void {
    if (!fieldsOfBytes(b, s, e, this.f, decode)) this.addLine(decode(b, s, e));
    else this.add(this.f);
  }

  /**
   * An event read elsewhere (a row of the parallel stats: eventRows.ts) whose count, time range and
   * clock sample its reader already took (`addCounted`): only what it does to the metrics.
   */
  addFields(f: EventFields): void {
    this.act(f);
  }

  /**
   * What the events of a stretch read elsewhere add to the count, the time range and the clock:
   * their number, earliest and latest t_cycle, and the t_cycle and t_ns of the first and last of
   * them with a t_ns (NaN: none). Stretches are added in file order, so the clock's first and last
   * samples are those of the one pass.
   */
  addCounted(c: StretchCounts): void {
    this.acc.events += c.events;
    if (c.minT < this.minT) this.minT = c.minT;
    if (c.maxT > this.maxT) this.maxT = c.maxT;
    this.clock.sampleStretch(c.firstT, c.firstNs, c.lastT, c.lastNs);
  }

  /**
   * A START whose END came later in the same stretch read elsewhere, with nothing else of its id
   * and kind between them: paired there (`addClosed` closes it). What it still does here is what
   * it does to a START of the id left open before the stretch: overwrites it, which is a broken pair.
   */
  addPairedStart(kind: number, id: Id): void {
    const m = this.open[kind];
    const o = m.get(id);
    if (o === undefined) return;
    this.acc.unpaired++;
    m.delete(id);
    this.spans.release(o);
  }

  /** A TRACE_META line's clock (read here or elsewhere, as `addFields`); kept as a row by the parallel stats' reader. */
  setClock(clockGhz: number | undefined): void {
    this.clock.clockGhz = clockGhz;
  }

  /** One event's fields, filled for its type (see EventFields); kept as a row by the parallel stats' reader. */
  protected add(f: EventFields): void {
    const t = f.t;
    if (f.type === T_NONE || t === undefined) return;
    this.acc.events++;
    if (t < this.minT) this.minT = t;
    if (t > this.maxT) this.maxT = t;
    if (f.tNs === f.tNs) this.clock.sample(t, f.tNs);
    this.act(f);
  }

  /** What a counted event (type known, t_cycle set) does to the metrics besides being counted. */
  private act(f: EventFields): void {
    const type = f.type;
    const t = f.t!;
    if (type === T_OTHER || type === T_META) return;
    if (type === T_ENQUEUE) {
      if (f.cmd !== undefined) this.cmds.set(f.cmd, this.cmdInfo(f));
      return;
    }
    if (type >= END) {
      const kind = type - END;
      const id = kind === K_CMD ? f.cmd : PAIR_KEY[kind] === 'job' ? f.job : f.tx;
      const m = this.open[kind];
      const o = id === undefined ? undefined : m.get(id);
      if (o === undefined) {
        this.acc.unpaired++;
        return;
      }
      m.delete(id!);
      this.close(kind, o, t, f, id!);
      this.spans.release(o);
      return;
    }
    if (type >= START) {
      const kind = type - START;
      const id = kind === K_CMD ? f.cmd : PAIR_KEY[kind] === 'job' ? f.job : f.tx;
      if (id === undefined) return;
      const cmdId = f.cmd;
      const cmd = cmdId !== undefined ? this.cmds.get(cmdId) : undefined;
      const m = this.open[kind];
      let o = m.get(id);
      if (o !== undefined) this.acc.unpaired++; // a second START of an open id: the first is never closed
      else m.set(id, (o = this.spans.take()));
      const sp = this.spans;
      sp.t[o] = t;
      sp.size[o] = f.size ?? NaN;
      // The core it runs on: its own npu_id/core_id, else its command's, else 0 (as the timeline).
      sp.npu[o] = f.npu ?? cmd?.npu ?? 0;
      sp.core[o] = f.core ?? cmd?.core ?? 0;
      sp.channel[o] = f.channel ?? 0;
      sp.direction[o] = f.direction;
      sp.cmd[o] = cmdId;
      if (kind === K_CMD && cmd === undefined) this.cmds.set(id, this.cmdInfo(f));
      return;
    }
    // SRAM_ACCESS or SRAM_CONFLICT.
    if (t < this.from || t > this.to) return;
    const conflict = type === T_SRAM_CONFLICT;
    if (conflict) this.acc.sramConflicts++;
    else this.acc.sramAccesses++;
    const bank = f.bank;
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

  /** The metrics of the lines so far; adding may go on (a START still open now counts as unpaired). */
  finish(): TraceStats {
    let open = 0;
    for (const m of this.open) open += m.size;
    return summarize({
      ...this.acc, unpaired: this.acc.unpaired + open, nsPerCycle: this.clock.nsPerCycle(),
      from: Number.isFinite(this.from) ? this.from : this.minT, to: Number.isFinite(this.to) ? this.to : this.maxT,
    });
  }

  /** Every command latency of each phase and layer so far (the samples `stats` sums and ranks), by the keys it files them under. */
  latencies(): { phases: Map<string, number[]>; layers: Map<string, number[]> } {
    const of = (m: Map<string, GroupAcc>) => new Map([...m].map(([k, g]) => [k, g.latencies]));
    return { phases: of(this.acc.phases), layers: of(this.acc.layers) };
  }

  private close(kind: number, slot: number, t: number, f: EventFields, id: Id): void {
    const sp = this.spans;
    this.addClosed(kind, id, sp.t[slot], t, sp.npu[slot], sp.core[slot], sp.channel[slot], sp.size[slot], sp.direction[slot], sp.cmd[slot], f);
  }

  /**
   * A span of `kind` and `id` closed at `t` (its END's fields `f`), with its START's fields as they
   * were kept (size NaN: none): from its open slot (`close`), or, for the parallel stats, the END of
   * a span paired where its stretch was read (not a command: those need the commands known when
   * the START came).
   */
  addClosed(kind: number, id: Id, st: number, t: number, npu: number, coreId: number, channel: number, startSize: number, direction: string | undefined, openCmd: Id | undefined, f: EventFields): void {
    if (t < st) {
      // An END before its START is a broken pair (the checker's end-before-start): not a span.
      this.acc.unpaired += 2;
      return;
    }
    const acc = this.acc;
    const endCmd = openCmd === undefined ? f.cmd : undefined;
    const cmd = openCmd !== undefined ? this.cmds.get(openCmd) : endCmd !== undefined ? this.cmds.get(endCmd) : undefined;
    const core = this.core(npu, coreId);
    const size = startSize === startSize ? startSize : f.size ?? 0;
    switch (kind) {
      case K_CMD: {
        if (t < this.from || st > this.to) return;
        core.commands.add(st, t);
        const s = Math.max(st, this.from);
        const en = Math.min(t, this.to);
        this.command(acc.phases, cmd?.phase, id, s, en);
        this.command(acc.layers, cmd?.layer, id, s, en);
        this.observer?.command(cmd?.phase, cmd?.layer, cmd?.cmdType, en - s);
        return;
      }
      case K_JOB:
        return;
      case K_TE:
      case K_VE: {
        const which = kind === K_TE ? 'te' : 've';
        core[which].add(st, t);
        this.observer?.span(kind, t - st);
        this.group(acc.phases, cmd?.phase)?.[which].add(st, t);
        this.group(acc.layers, cmd?.layer)?.[which].add(st, t);
        return;
      }
      case K_DMA: {
        core.dma.add(st, t);
        this.observer?.span(kind, t - st);
        this.group(acc.phases, cmd?.phase)?.dma.add(st, t);
        this.group(acc.layers, cmd?.layer)?.dma.add(st, t);
        const bytes = this.inWindow(size, st, t);
        this.channel(acc.dmaChannels, channel, bytes, st, t);
        const dir = direction === undefined ? NO_GROUP : clip(direction, 200);
        if (acc.dmaDirections.has(dir) || acc.dmaDirections.size < MAX_GROUPS) acc.dmaDirections.set(dir, (acc.dmaDirections.get(dir) ?? 0) + bytes);
        return;
      }
      case K_DRAM:
        this.observer?.span(kind, t - st);
        this.channel(acc.dramChannels, channel, this.inWindow(size, st, t), st, t);
        return;
      case K_NOC:
        this.observer?.span(kind, t - st);
        this.channel(acc.nocLinks, channel, this.inWindow(size, st, t), st, t);
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
    let key = groupKey(raw);
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

  private cmdInfo(f: EventFields): CmdInfo {
    return { npu: f.npu ?? 0, core: f.core ?? 0, phase: f.phase, layer: f.layer, cmdType: f.cmdType };
  }

  private core(npu: number, coreId: number): CoreAcc {
    // Consecutive spans mostly run on one core: no key string for them.
    if (this.lastCore && npu === this.lastNpu && coreId === this.lastCoreId) return this.lastCore;
    this.lastNpu = npu;
    this.lastCoreId = coreId;
    return (this.lastCore = this.coreOf(npu, coreId));
  }

  private coreOf(npu: number, coreId: number): CoreAcc {
    let key = `${npu}/${coreId}`;
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
