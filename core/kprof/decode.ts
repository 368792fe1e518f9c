// Decodes one profiler buffer into lanes, regions and instants, held in typed arrays (no object
// per record: a 16M-record buffer is 128 MB and must decode in about a second), and checks it
// against the caveats of the spec (../shared/specs/tvm-cudaprofiler.rst, "Usage notes").
import { EV_END, EV_FINALIZE, EV_INSTANT, EV_START, TVM, type Layout } from './layouts';
import { eventName } from './names';
import { BoundedProblems, type KprofProblem } from './problems';
import type { ProfBuffer } from './words';

export const DEFAULT_MAX_PROBLEMS = 1000;
const TWO_31 = 2 ** 31;
const TWO_32 = 2 ** 32;
/** Diffs looked at per lane to infer the stride: enough for a mode, bounded for 16M records. */
const STRIDE_SAMPLES = 16;

export interface DecodeOptions {
  layout?: Layout;
  /** `write_stride`; inferred from where each lane's records sit when absent. */
  stride?: number;
  names?: readonly string[];
  maxProblems?: number;
}

export interface Decoded {
  layout: Layout;
  numBlocks: number;
  numGroups: number;
  /** False when slot 0 could not be used (`kprof.no-header`): blocks and groups were guessed. */
  headerValid: boolean;
  stride: number;
  strideInferred: boolean;
  slots: number;
  records: number;
  /** Raw `globaltimer_lo` of the earliest record; times below are ns after it, unwrapped. */
  baseTs: number;
  timerWrapped: boolean;
  /** Latest record − earliest record (ns). */
  durationNs: number;
  names: readonly string[];
  /** Per lane (`block * numGroups + group`): records, finalized, and its regions `laneRegions[l]..laneRegions[l+1]`. */
  laneRecords: Int32Array;
  laneFinalized: Uint8Array;
  laneRegions: Int32Array;
  /** Regions (START..END of one event in one lane), in lane order, then by END slot. */
  regionCount: number;
  regLane: Int32Array;
  regEvent: Uint16Array;
  regStartSlot: Int32Array;
  regEndSlot: Int32Array;
  regStart: Uint32Array;
  regEnd: Uint32Array;
  instantCount: number;
  instLane: Int32Array;
  instEvent: Uint16Array;
  instSlot: Int32Array;
  instT: Uint32Array;
  /** Event indices seen (so the tables list only those). */
  eventsSeen: Uint8Array;
  problems: KprofProblem[];
  problemsDropped: number;
  problemsDroppedError: boolean;
}

/** Growable typed arrays for regions: at most records / 2 of them, usually exactly that. */
class Regions {
  n = 0;
  lane: Int32Array;
  event: Uint16Array;
  s0: Int32Array;
  s1: Int32Array;
  t0: Uint32Array;
  t1: Uint32Array;
  constructor(cap: number) {
    cap = Math.max(cap, 16);
    this.lane = new Int32Array(cap);
    this.event = new Uint16Array(cap);
    this.s0 = new Int32Array(cap);
    this.s1 = new Int32Array(cap);
    this.t0 = new Uint32Array(cap);
    this.t1 = new Uint32Array(cap);
  }
  push(lane: number, event: number, s0: number, s1: number, t0: number, t1: number): void {
    if (this.n === this.lane.length) this.grow();
    const i = this.n++;
    this.lane[i] = lane; this.event[i] = event; this.s0[i] = s0; this.s1[i] = s1; this.t0[i] = t0; this.t1[i] = t1;
  }
  private grow(): void {
    const g = <T extends Int32Array | Uint16Array | Uint32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.lane = g(this.lane); this.event = g(this.event); this.s0 = g(this.s0); this.s1 = g(this.s1); this.t0 = g(this.t0); this.t1 = g(this.t1);
  }
}

export function decode(buf: ProfBuffer, opts: DecodeOptions = {}): Decoded {
  const layout = opts.layout ?? TVM;
  const names = opts.names ?? [];
  const problems = new BoundedProblems(opts.maxProblems ?? DEFAULT_MAX_PROBLEMS);
  const w = buf.words;
  const n = buf.slots;
  const { typeMask, eventShift, eventMask, laneShift, laneMask } = layout;
  const first = layout.header ? 1 : 0;

  // Pass 1: count records per lane tag, timer range, largest lane tag.
  let records = 0;
  let maxLane = -1;
  let tMin = TWO_32;
  let tMax = -1;
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    records++;
    const lane = (lo >>> laneShift) & laneMask;
    if (lane > maxLane) maxLane = lane;
    if (hi < tMin) tMin = hi;
    if (hi > tMax) tMax = hi;
  }

  // The header: `(num_groups << 32) | num_blocks`, written by block 0 / thread 0.
  let numBlocks = 0;
  let numGroups = 0;
  let headerValid = false;
  if (layout.header) {
    const hb = w[0];
    const hg = w[1];
    headerValid = hb > 0 && hg > 0 && hb * hg <= n - 1;
    if (headerValid) {
      numBlocks = hb;
      numGroups = hg;
    } else {
      numGroups = hg > 0 && hg <= 4096 ? hg : 1;
      numBlocks = Math.max(1, Math.ceil((maxLane + 1) / numGroups));
      const why = (hb | hg) === 0
        ? 'slot 0 is empty: block 0 never wrote the header (was the buffer zeroed, did init run?)'
        : `slot 0 reads num_blocks ${hb}, num_groups ${hg}, impossible for a buffer of ${n} slots${hb * hg > n - 1 ? ` (${hb * hg} lanes need at least ${hb * hg + 1} slots)` : ''}`;
      problems.add('kprof.no-header', 0, -1, -1, `No header: ${why}; lanes are read as ${numGroups} group(s) per block`);
    }
  } else {
    numGroups = 1;
    numBlocks = maxLane + 1;
  }
  const lanes = numBlocks * numGroups;

  // Pass 2: records of each lane in slot order (a counting sort of slot indices).
  const laneRecords = new Int32Array(lanes);
  const badFirst = new Map<number, { slot: number; count: number }>();
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    if ((lo | w[2 * s + 1]) === 0) continue;
    const lane = (lo >>> laneShift) & laneMask;
    if (lane < lanes) laneRecords[lane]++;
    else {
      const b = badFirst.get(lane);
      if (b) b.count++;
      else if (badFirst.size < (opts.maxProblems ?? DEFAULT_MAX_PROBLEMS)) badFirst.set(lane, { slot: s, count: 1 });
    }
  }
  for (const [lane, b] of badFirst) {
    problems.add('kprof.bad-group', b.slot, Math.floor(lane / numGroups), lane % numGroups,
      `Record of block ${Math.floor(lane / numGroups)} (block_group ${lane}), but the header says ${numBlocks} block(s) × ${numGroups} group(s)${b.count > 1 ? `; ${b.count} records of this block_group` : ''}: they are left out`);
  }
  const laneStart = new Int32Array(lanes + 1);
  for (let l = 0; l < lanes; l++) laneStart[l + 1] = laneStart[l] + laneRecords[l];
  const laned = laneStart[lanes];
  const order = new Int32Array(laned);
  const fill = laneStart.slice(0, lanes);
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    if ((lo | w[2 * s + 1]) === 0) continue;
    const lane = (lo >>> laneShift) & laneMask;
    if (lane < lanes) order[fill[lane]++] = s;
  }

  // write_stride: the most frequent gap between consecutive records of one lane.
  let stride = opts.stride ?? 0;
  const strideInferred = !opts.stride;
  if (!stride) {
    const hist = new Map<number, number>();
    for (let l = 0; l < lanes; l++) {
      const end = Math.min(laneStart[l + 1], laneStart[l] + STRIDE_SAMPLES + 1);
      for (let i = laneStart[l] + 1; i < end; i++) {
        const d = order[i] - order[i - 1];
        hist.set(d, (hist.get(d) ?? 0) + 1);
      }
    }
    let best = 0;
    for (const [d, c] of hist) if (c > best || (c === best && d < stride)) { best = c; stride = d; }
    if (!stride) stride = Math.max(1, lanes);
  }

  // globaltimer_lo wraps every 2^32 ns: a kernel shorter than 2^31 ns that spans a wrap has
  // timestamps in both halves, the wrapped ones low. They get 2^32 added.
  const timerWrapped = records > 0 && tMax - tMin >= TWO_31;
  let baseTs = tMin;
  let latest = tMax;
  if (timerWrapped) {
    baseTs = TWO_32;
    latest = 0;
    let wrapSlot = -1;
    for (let s = first; s < n; s++) {
      const hi = w[2 * s + 1];
      if ((w[2 * s] | hi) === 0) continue;
      if (hi >= TWO_31) { if (hi < baseTs) baseTs = hi; } else {
        if (hi > latest) latest = hi;
        if (wrapSlot < 0) wrapSlot = s;
      }
    }
    const lane = (w[2 * wrapSlot] >>> laneShift) & laneMask;
    problems.add('kprof.timer-wrap', wrapSlot, Math.floor(lane / numGroups), lane % numGroups,
      `globaltimer_lo wrapped during the kernel (it is 32 bits: every 2^32 ns, about 4.29 s): records from slot ${wrapSlot} on were unwrapped by adding 2^32 ns, assuming the kernel ran under 2^31 ns`);
  }
  const durationNs = records ? (timerWrapped ? latest + TWO_32 : latest) - baseTs : 0;
  const rel = (hi: number) => (timerWrapped && hi < TWO_31 ? hi + TWO_32 : hi) - baseTs;

  if (stride < lanes && lanes > 1) {
    problems.add('kprof.lane-collision', 0, -1, -1,
      `write_stride ${stride}${strideInferred ? ' (inferred from the records)' : ''} is smaller than the ${lanes} (block, group) lanes: lane k and lane k + ${stride} write the same slots and overwrite each other's records; write_stride must be at least ${lanes}`);
  }

  // Pass 3: each lane in slot order.
  const regs = new Regions(Math.ceil(laned / 2) + 1);
  let instCap = 16;
  let instLane = new Int32Array(instCap), instEvent = new Uint16Array(instCap), instSlot = new Int32Array(instCap), instT = new Uint32Array(instCap);
  let instantCount = 0;
  const laneFinalized = new Uint8Array(lanes);
  const laneRegions = new Int32Array(lanes + 1);
  const eventsSeen = new Uint8Array(eventMask + 1);
  const unknownFirst = new Int32Array(eventMask + 1).fill(-1);
  const stackEv: number[] = [];
  const stackSlot: number[] = [];
  const stackT: number[] = [];
  let maxLaneRecords = 0;
  for (let l = 0; l < lanes; l++) {
    laneRegions[l] = regs.n;
    const a = laneStart[l];
    const b = laneStart[l + 1];
    if (a === b) continue;
    const block = Math.floor(l / numGroups);
    const group = l % numGroups;
    const where = `block ${block} group ${group}`;
    stackEv.length = stackSlot.length = stackT.length = 0;
    let finals = 0;
    let firstFinal = -1;
    let afterFinal = 0;
    let afterFinalSlot = -1;
    let backSlot = -1;
    let offStride = 0;
    let offStrideSlot = -1;
    let prevT = -1;
    for (let i = a; i < b; i++) {
      const s = order[i];
      const lo = w[2 * s];
      const t = rel(w[2 * s + 1]);
      const type = lo & typeMask;
      const ev = (lo >>> eventShift) & eventMask;
      if (t < prevT && backSlot < 0) backSlot = s;
      prevT = t;
      if ((s - first - l) % stride !== 0 || s - first < l) {
        if (offStride++ === 0) offStrideSlot = s;
      }
      if (finals > 0 && type !== EV_FINALIZE) {
        if (afterFinal++ === 0) afterFinalSlot = s;
      }
      if (type !== EV_FINALIZE) {
        eventsSeen[ev] = 1;
        if (names.length && ev >= names.length && unknownFirst[ev] < 0) unknownFirst[ev] = s;
      }
      if (type === EV_START) {
        stackEv.push(ev);
        stackSlot.push(s);
        stackT.push(t);
      } else if (type === EV_END) {
        let k = stackEv.length - 1;
        while (k >= 0 && stackEv[k] !== ev) k--;
        if (k < 0) {
          problems.add('kprof.unmatched-end', s, block, group, `END of "${eventName(names, ev)}" (event ${ev}) in ${where} has no open START before it in its lane`);
          continue;
        }
        const t0 = stackT[k];
        regs.push(l, ev, stackSlot[k], s, t0, t);
        if (t === t0) problems.add('kprof.too-short', s, block, group, `Region "${eventName(names, ev)}" in ${where} (slots ${stackSlot[k]}..${s}) lasts 0 ns: below the timer's resolution (tens of ns)`);
        if (k === stackEv.length - 1) {
          stackEv.pop(); stackSlot.pop(); stackT.pop();
        } else {
          stackEv.splice(k, 1); stackSlot.splice(k, 1); stackT.splice(k, 1);
        }
      } else if (type === EV_INSTANT) {
        if (instantCount === instCap) {
          instCap *= 2;
          const g = <T extends Int32Array | Uint16Array | Uint32Array>(x: T): T => { const y = new (x.constructor as new (n: number) => T)(instCap); y.set(x); return y; };
          instLane = g(instLane); instEvent = g(instEvent); instSlot = g(instSlot); instT = g(instT);
        }
        instLane[instantCount] = l; instEvent[instantCount] = ev; instSlot[instantCount] = s; instT[instantCount] = t;
        instantCount++;
      } else {
        if (finals++ === 0) firstFinal = s;
      }
    }
    laneFinalized[l] = finals > 0 ? 1 : 0;
    const count = b - a;
    const lastSlot = order[b - 1];
    const full = layout.finalize && finals === 0 && lastSlot + stride >= n;
    if (finals > 0 || !layout.finalize) maxLaneRecords = Math.max(maxLaneRecords, count);
    else maxLaneRecords = Math.max(maxLaneRecords, count + 1);
    if (offStride) {
      problems.add('kprof.lane-collision', offStrideSlot, block, group,
        `Records off their lane's stride: ${offStride} record(s) of ${where}, the first at slot ${offStrideSlot}, are not at 1 + ${l} + k·${stride} where its cursor writes: another lane wrote them, or write_stride is not ${stride}`);
    }
    if (finals > 1) {
      problems.add('kprof.lane-collision', firstFinal, block, group,
        `Two leaders in one lane: ${where} has ${finals} finalize records (the first at slot ${firstFinal}); two threads wrote this lane with their own cursors and clobbered each other`);
    }
    if (backSlot >= 0) {
      problems.add('kprof.lane-collision', backSlot, block, group,
        `Two leaders in one lane: timestamps go backwards along the slots of ${where} at slot ${backSlot}; one leader overwrote some of the other's records`);
    }
    if (finals === 1 && afterFinal) {
      problems.add('kprof.after-finalize', afterFinalSlot, block, group,
        `${afterFinal} record(s) of ${where} after its finalize at slot ${firstFinal}, the first at slot ${afterFinalSlot}: finalize must be the lane's last record`);
    }
    if (full) {
      problems.add('kprof.buffer-full', lastSlot, block, group,
        `Buffer full: the next record of ${where} would be at slot ${lastSlot + stride}, past the end of the ${n}-slot buffer, and the lane has no finalize: records were probably lost${stackEv.length ? ` (${stackEv.length} region(s) left open)` : ''}. @@SIZE@@`);
    } else if (layout.finalize && finals === 0) {
      problems.add('kprof.not-finalized', lastSlot, block, group, `${where} has ${count} record(s) but no finalize record (its last record is at slot ${lastSlot}): the kernel stopped early, or finalize() was not called`);
    }
    if (!full) {
      for (let k = 0; k < stackEv.length; k++) {
        problems.add('kprof.unclosed-start', stackSlot[k], block, group, `START of "${eventName(names, stackEv[k])}" (event ${stackEv[k]}) in ${where} is never closed by an END in its lane`);
      }
    }
  }
  laneRegions[lanes] = regs.n;
  for (let ev = 0; ev < unknownFirst.length; ev++) {
    const s = unknownFirst[ev];
    if (s < 0) continue;
    const lane = (w[2 * s] >>> laneShift) & laneMask;
    problems.add('kprof.unknown-event', s, Math.floor(lane / numGroups), lane % numGroups,
      `Event index ${ev} is beyond the ${names.length} event name(s): it is shown as "event_${ev}"`);
  }
  const list = problems.all();
  // The size a full buffer needed is known only once every lane was seen.
  const need = 1 + lanes + (maxLaneRecords - 1) * stride;
  for (const p of list) {
    if (p.code === 'kprof.buffer-full') p.message = p.message.replace('@@SIZE@@', `Make the buffer at least ${need} slots (1 + lanes + (records per lane − 1) · write_stride, with ${maxLaneRecords} records per lane), and more if lanes lost more`);
  }
  return {
    layout, numBlocks, numGroups, headerValid, stride, strideInferred, slots: n, records, baseTs: records ? baseTs : 0, timerWrapped, durationNs, names,
    laneRecords, laneFinalized, laneRegions,
    regionCount: regs.n, regLane: regs.lane, regEvent: regs.event, regStartSlot: regs.s0, regEndSlot: regs.s1, regStart: regs.t0, regEnd: regs.t1,
    instantCount, instLane, instEvent, instSlot, instT, eventsSeen,
    problems: list, problemsDropped: problems.dropped, problemsDroppedError: problems.droppedError,
  };
}
