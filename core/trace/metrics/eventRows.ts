import { StringTable } from '../../common/stringTable';
import type { Id } from '../line';
import { ClockEstimate } from './clock';
import { idsOk, idsRead, lineCode, NOT_READ, SLOTS, slotAttr, slotId, slotInt, slotNum, slotStr } from './byteFields';
import { MetricsCollector, type StretchCounts } from './collector';
import { END, type EventFields, K_CMD, K_DMA, K_NOC, newEventFields, PAIR_KEY, SPAN_KINDS, START, T_ENQUEUE, T_META, T_NONE, T_OTHER, T_SRAM_ACCESS, T_SRAM_CONFLICT } from './eventFields';

/**
 * The events of one stretch of a trace as the metrics read them, in columns that cross to another
 * thread without a copy: the parallel `npu-trace stats` reads chunks of the file on every core into
 * these, and one collector takes them in file order (`replayRows`), which gives what the one-pass
 * collector gives — its caps and first-come order all run in that one thread. A row holds every
 * field of `EventFields` as the reader left it after the line; the collector reads only the fields
 * the line's type fills (the reader fills all of those on every line), so what a row holds of
 * another type's fields never matters. A TRACE_META line is a row of type T_META with its clock.
 *
 * What needs no order is done where the stretch is read: the count, time range and clock samples
 * (`counts`; an event that does nothing else is no row), and the pairing of an engine or transfer
 * span whose START and END both fall in the stretch with nothing of its kind and id between them
 * (`pair`), so the collector closes it without its map of open spans. A command's span is not
 * paired there: its START files the command under the phase and layer known then. Nor is a START
 * that takes its core from its command's (no npu_id or core_id): the commands known then decide it.
 */
export interface EventRows {
  count: number;
  counts: StretchCounts;
  /**
   * For a START and an END paired in the stretch, the other's row; -1 for every other row. Such a
   * START only tells the collector to drop a START of its id left open before the stretch (which
   * it overwrote: a broken pair); its END closes the span from the START's row.
   */
  pair: Int32Array;
  type: Int8Array;
  /** Bit k set: number column k holds a value (else undefined); for an id, bit ID_STRING + k: it is a string (its index in `strings`). */
  has: Uint32Array;
  /** t, tNs, cmd, job, tx, npu, core, channel, bank, size (for T_META: the clock in GHz), row by row. */
  nums: Float64Array;
  /** direction, phase, layer, cmdType: index in `strings`, -1 for undefined. */
  strs: Int32Array;
  strings: string[];
}

const NUMS = 10;
const T = 0, NS = 1, CMD = 2, JOB = 3, TX = 4, NPU = 5, CORE = 6, CHANNEL = 7, BANK = 8, SIZE = 9;
const STRS = 4;
const DIRECTION = 0, PHASE = 1, LAYER = 2, CMD_TYPE = 3;
const ID_STRING = 16;

/** The buffers of `rows`, for a postMessage transfer list. */
export const rowBuffers = (r: EventRows): ArrayBuffer[] => [r.type.buffer, r.has.buffer, r.nums.buffer, r.strs.buffer, r.pair.buffer] as ArrayBuffer[];

/** The column of the id a span kind pairs by. */
const PAIR_COLUMN = PAIR_KEY.map((k) => (k === 'cmd' ? CMD : k === 'job' ? JOB : TX));

/** A collector that keeps each event as a row instead of adding it up (the worker's side of the parallel stats). */
export class RowsCollector extends MetricsCollector {
  private count = 0;
  private cap: number;
  private type: Int8Array;
  private has: Uint32Array;
  private nums: Float64Array;
  private strs: Int32Array;
  private pair: Int32Array;
  private readonly strings = new StringTable();
  /** What the stretch adds to the count, time range and clock (its `counts`). */
  private counted = 0;
  private earliest = Infinity;
  private latest = -Infinity;
  private readonly samples = new ClockEstimate();
  /** Per span kind, by id, the row of the START still waiting for its END in this stretch (one that may be paired here). */
  private readonly waiting: Map<Id, number>[] = Array.from({ length: SPAN_KINDS }, () => new Map());

  /**
   * `expected`: about how many rows there will be (too few costs a copy, too many memory); or the
   * columns of `reuse`, rows already replayed (their strings are not: each stretch has its own).
   */
  constructor(expected: number, reuse?: EventRows) {
    super();
    if (reuse) {
      this.cap = reuse.type.length;
      this.type = reuse.type;
      this.has = reuse.has;
      this.nums = reuse.nums;
      this.strs = reuse.strs;
      this.pair = reuse.pair;
      return;
    }
    this.cap = Math.max(16, Math.ceil(expected));
    this.type = new Int8Array(this.cap);
    this.has = new Uint32Array(this.cap);
    this.nums = new Float64Array(this.cap * NUMS);
    this.strs = new Int32Array(this.cap * STRS);
    this.pair = new Int32Array(this.cap);
  }

  /** The rows so far (the arrays themselves, `count` of them used); the collector is not to be used after. */
  rows(): EventRows {
    const counts: StretchCounts = { events: this.counted, minT: this.earliest, maxT: this.latest, ...this.samples.ends() };
    return { count: this.count, counts, pair: this.pair, type: this.type, has: this.has, nums: this.nums, strs: this.strs, strings: this.strings.list };
  }

  /**
   * A line read straight into a row: what `fieldsOfBytes` would fill and `add` then keep, without
   * the EventFields object between (filling and reading it was 7–11 % of the CPU of parallel
   * `stats` of 1M events: 14 alternated cold runs, twice).
   * A line the byte reader is not sure of, or with an id beyond 2^53, is parsed (`addLine`) and
   * comes through `add`.
   */
  override addBytes(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string): void {
    const type = lineCode(b, s, e, decode);
    if (type === NOT_READ || type === T_META) {
      this.addLine(decode(b, s, e));
      return;
    }
    const t = slotNum(SLOTS.T);
    if (type === T_NONE || t === undefined) return;
    const sram = type === T_SRAM_ACCESS || type === T_SRAM_CONFLICT;
    const kind = type & 7;
    let cmd: Id | undefined, job: Id | undefined, tx: Id | undefined;
    if (type !== T_OTHER && !sram) {
      idsRead();
      cmd = slotId(SLOTS.CMD);
      if (type >= START) {
        if (PAIR_KEY[kind] === 'job') job = slotId(SLOTS.JOB);
        else if (PAIR_KEY[kind] === 'tx') tx = slotId(SLOTS.TX);
      }
      // An id beyond 2^53: its exact digits come from the full parse, which counts the line there.
      if (!idsOk()) {
        this.addLine(decode(b, s, e));
        return;
      }
    }
    const tNs = slotNum(SLOTS.NS) ?? NaN;
    const id = type < START ? undefined : kind === K_CMD ? cmd : PAIR_KEY[kind] === 'job' ? job : tx;
    const r = this.countedRow(type, t, tNs, id);
    if (r < 0) return;
    const at = r * NUMS;
    this.nums[at + T] = t;
    let has = (1 << T) | (1 << NS);
    const st = r * STRS;
    this.strs[st + DIRECTION] = -1;
    this.strs[st + PHASE] = -1;
    this.strs[st + LAYER] = -1;
    this.strs[st + CMD_TYPE] = -1;
    if (sram) has |= this.num(at, BANK, slotInt(SLOTS.BANK));
    else {
      has |= this.id(at, CMD, cmd);
      if (type >= START) has |= this.id(at, JOB, job) | this.id(at, TX, tx) | this.num(at, SIZE, slotNum(SLOTS.SIZE));
      if (type < END) {
        const npu = slotInt(SLOTS.NPU), core = slotInt(SLOTS.CORE);
        has |= this.num(at, NPU, npu) | this.num(at, CORE, core);
        if (type >= START) {
          has |= this.num(at, CHANNEL, slotInt(kind === K_NOC ? SLOTS.LINK : SLOTS.CHANNEL));
          if (kind === K_DMA) this.strs[st + DIRECTION] = this.stringOr(slotStr(b, SLOTS.DIR, decode));
        }
        if (type === T_ENQUEUE || kind === K_CMD) {
          this.strs[st + PHASE] = this.stringOr(slotAttr(b, SLOTS.PHASE, decode));
          this.strs[st + LAYER] = this.stringOr(slotAttr(b, SLOTS.LAYER, decode));
          this.strs[st + CMD_TYPE] = this.stringOr(slotStr(b, SLOTS.CMD_TYPE, decode));
        }
        if (id !== undefined && kind !== K_CMD) this.pairInStretch(r, type, id, npu !== undefined && core !== undefined, cmd !== undefined);
      } else if (id !== undefined && kind !== K_CMD) this.pairInStretch(r, type, id, false, false);
    }
    this.has[r] = has;
  }

  protected override add(f: EventFields): void {
    const t = f.t;
    const type = f.type;
    // What the collector would not count is no row.
    if (type === T_NONE || t === undefined) return;
    const kind = type & 7;
    const id = type < START ? undefined : kind === K_CMD ? f.cmd : PAIR_KEY[kind] === 'job' ? f.job : f.tx;
    const r = this.countedRow(type, t, f.tNs, id);
    if (r < 0) return;
    if (id !== undefined && kind !== K_CMD) this.pairInStretch(r, type, id, f.npu !== undefined && f.core !== undefined, f.cmd !== undefined);
    const at = r * NUMS;
    this.has[r] = this.num(at, T, f.t) | (1 << NS) | this.id(at, CMD, f.cmd) | this.id(at, JOB, f.job) | this.id(at, TX, f.tx)
      | this.num(at, NPU, f.npu) | this.num(at, CORE, f.core) | this.num(at, CHANNEL, f.channel) | this.num(at, BANK, f.bank) | this.num(at, SIZE, f.size);
    const s = r * STRS;
    this.strs[s + DIRECTION] = this.stringOr(f.direction);
    this.strs[s + PHASE] = this.stringOr(f.phase);
    this.strs[s + LAYER] = this.stringOr(f.layer);
    this.strs[s + CMD_TYPE] = this.stringOr(f.cmdType);
  }

  /**
   * Counts an event the collector counts (its type known, its t_cycle set) and gives its row, with
   * its type, t_ns and no pair yet; -1 when it is none: an event of no other use, or a START without
   * its id (the collector drops it).
   */
  private countedRow(type: number, t: number, tNs: number, id: Id | undefined): number {
    this.counted++;
    if (t < this.earliest) this.earliest = t;
    if (t > this.latest) this.latest = t;
    if (tNs === tNs) this.samples.sample(t, tNs);
    if (type === T_OTHER || (type >= START && type < END && id === undefined)) return -1;
    const r = this.row();
    this.pair[r] = -1;
    this.type[r] = type;
    this.nums[r * NUMS + NS] = tNs;
    return r;
  }

  /**
   * A START of an engine or transfer span waits for its END in this stretch if its core is its
   * own (or it has no command to take one from); an END pairs with the START of its kind and id
   * waiting, the last one (a START of the id before it is overwritten, as the collector does).
   */
  private pairInStretch(r: number, type: number, id: Id, ownCore: boolean, hasCmd: boolean): void {
    const waiting = this.waiting[type & 7];
    if (type < END) {
      if (ownCore || !hasCmd) waiting.set(id, r);
      else waiting.delete(id);
      return;
    }
    const s = waiting.get(id);
    if (s === undefined) return;
    waiting.delete(id);
    this.pair[s] = r;
    this.pair[r] = s;
  }

  /** Number column `k` of the row at `at` set to `v`; its bit in `has` (0 for undefined). */
  private num(at: number, k: number, v: number | undefined): number {
    if (v === undefined) return 0;
    this.nums[at + k] = v;
    return 1 << k;
  }

  /** An id: a number as `num`, a string (digits beyond 2^53) by its index, with its own bit. */
  private id(at: number, k: number, v: Id | undefined): number {
    if (typeof v !== 'string') return this.num(at, k, v);
    this.nums[at + k] = this.strings.id(v);
    return (1 << k) | (1 << (ID_STRING + k));
  }

  override setClock(clockGhz: number | undefined): void {
    const r = this.row();
    this.pair[r] = -1;
    this.type[r] = T_META;
    this.has[r] = clockGhz === undefined ? 0 : 1 << SIZE;
    this.nums[r * NUMS + SIZE] = clockGhz ?? 0;
  }

  private row(): number {
    if (this.count === this.cap) {
      this.cap *= 2;
      const grow = <A extends Int8Array | Uint32Array | Float64Array | Int32Array>(a: A, make: (n: number) => A, per: number): A => {
        const b = make(this.cap * per);
        b.set(a as never);
        return b;
      };
      this.type = grow(this.type, (n) => new Int8Array(n), 1);
      this.has = grow(this.has, (n) => new Uint32Array(n), 1);
      this.nums = grow(this.nums, (n) => new Float64Array(n), NUMS);
      this.strs = grow(this.strs, (n) => new Int32Array(n), STRS);
      this.pair = grow(this.pair, (n) => new Int32Array(n), 1);
    }
    return this.count++;
  }

  private stringOr(s: string | undefined): number {
    return s === undefined ? -1 : this.strings.id(s);
  }
}

/** Adds the events of `rows` to `collector`, in order, as reading their lines would have. */
export function replayRows(rows: EventRows, collector: MetricsCollector): void {
  collector.addCounted(rows.counts);
  const f = newEventFields();
  const { type, has, nums, strs, strings, pair } = rows;
  for (let r = 0; r < rows.count; r++) {
    const h = has[r];
    const at = r * NUMS;
    const ty = type[r];
    if (ty === T_META) {
      collector.setClock((h & (1 << SIZE)) !== 0 ? nums[at + SIZE] : undefined);
      continue;
    }
    const p = pair[r];
    if (p >= 0) {
      const kind = ty & 7;
      const id = idAt(h, nums, strings, at, PAIR_COLUMN[kind])!;
      if (ty < END) {
        collector.addPairedStart(kind, id);
        continue;
      }
      // The END's fields a span's close reads: its cmd_id and size_bytes. The rest is its START's.
      f.cmd = idAt(h, nums, strings, at, CMD);
      f.size = (h & (1 << SIZE)) !== 0 ? nums[at + SIZE] : undefined;
      const sh = has[p];
      const sa = p * NUMS;
      const d = strs[p * STRS + DIRECTION];
      collector.addClosed(kind, id, nums[sa + T], nums[at + T], (sh & (1 << NPU)) !== 0 ? nums[sa + NPU] : 0, (sh & (1 << CORE)) !== 0 ? nums[sa + CORE] : 0,
        (sh & (1 << CHANNEL)) !== 0 ? nums[sa + CHANNEL] : 0, (sh & (1 << SIZE)) !== 0 ? nums[sa + SIZE] : NaN, d < 0 ? undefined : strings[d], idAt(sh, nums, strings, sa, CMD), f);
      continue;
    }
    // Only the fields the row's type fills (those the collector reads of it; `fill` in byteFields.ts).
    f.type = ty;
    f.t = (h & (1 << T)) !== 0 ? nums[at + T] : undefined;
    if (ty === T_SRAM_ACCESS || ty === T_SRAM_CONFLICT) f.bank = (h & (1 << BANK)) !== 0 ? nums[at + BANK] : undefined;
    else {
      f.cmd = idAt(h, nums, strings, at, CMD);
      const kind = ty & 7;
      if (ty >= START) {
        if (PAIR_KEY[kind] === 'job') f.job = idAt(h, nums, strings, at, JOB);
        else if (PAIR_KEY[kind] === 'tx') f.tx = idAt(h, nums, strings, at, TX);
        f.size = (h & (1 << SIZE)) !== 0 ? nums[at + SIZE] : undefined;
      }
      if (ty < END) {
        f.npu = (h & (1 << NPU)) !== 0 ? nums[at + NPU] : undefined;
        f.core = (h & (1 << CORE)) !== 0 ? nums[at + CORE] : undefined;
        const s = r * STRS;
        if (ty >= START) {
          f.channel = (h & (1 << CHANNEL)) !== 0 ? nums[at + CHANNEL] : undefined;
          const d = strs[s + DIRECTION];
          f.direction = d < 0 ? undefined : strings[d];
        }
        if (ty === T_ENQUEUE || kind === K_CMD) {
          let k = strs[s + PHASE];
          f.phase = k < 0 ? undefined : strings[k];
          k = strs[s + LAYER];
          f.layer = k < 0 ? undefined : strings[k];
          k = strs[s + CMD_TYPE];
          f.cmdType = k < 0 ? undefined : strings[k];
        }
      }
    }
    collector.addFields(f);
  }
}

function idAt(h: number, nums: Float64Array, strings: string[], at: number, k: number): Id | undefined {
  if ((h & (1 << k)) === 0) return undefined;
  return (h & (1 << (ID_STRING + k))) !== 0 ? strings[nums[at + k]] : nums[at + k];
}
