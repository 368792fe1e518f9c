// The decoder as it was before the typed-array stacks and 32-bit time (commit a1e5b02), kept as
// the oracle of decodeV1.test.ts: the faster decoder must decode every buffer exactly as it did.
import { EV_END, EV_FINALIZE, EV_INSTANT, EV_START, TVM, type Layout } from '../../../core/kprof/layouts';
import { eventName } from '../../../core/kprof/names';
import { BoundedProblems, type KprofProblem } from '../../../core/kprof/problems';
import type { ProfBuffer } from '../../../core/kprof/words';

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
  problems: KprofProblem[];
  problemsDropped: number;
  problemsDroppedError: boolean;
}

export function decode(buf: ProfBuffer, opts: DecodeOptions = {}): Decoded {
  const layout = opts.layout ?? TVM;
  const names = opts.names ?? [];
  const maxProblems = opts.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const problems = new BoundedProblems(maxProblems);
  const w = buf.words;
  const n = buf.slots;
  const { typeMask, eventShift, eventMask, laneShift, laneMask } = layout;
  const first = layout.header ? 1 : 0;

  // Pass 1, in slot order (memory order: a lane's records are write_stride slots apart, and
  // walking them lane by lane measured 4× slower on 16M records): records per lane tag, first and
  // last slot per tag, the timer's range, and the gaps between a tag's first records, whose most
  // frequent value is write_stride.
  let records = 0;
  let maxLane = -1;
  let tMin = TWO_32;
  let tMax = -1;
  const tagCount = new Int32Array(laneMask + 1);
  const tagFirst = new Int32Array(laneMask + 1);
  const tagLast = new Int32Array(laneMask + 1);
  const hist = new Map<number, number>();
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    records++;
    const lane = (lo >>> laneShift) & laneMask;
    const c = tagCount[lane]++;
    if (c === 0) tagFirst[lane] = s;
    else if (c <= STRIDE_SAMPLES) {
      const d = s - tagLast[lane];
      hist.set(d, (hist.get(d) ?? 0) + 1);
    }
    tagLast[lane] = s;
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
  let badShown = 0;
  for (let lane = lanes; lane <= maxLane && badShown < maxProblems; lane++) {
    const count = tagCount[lane];
    if (!count) continue;
    badShown++;
    problems.add('kprof.bad-group', tagFirst[lane], Math.floor(lane / numGroups), lane % numGroups,
      `Record of block ${Math.floor(lane / numGroups)} (block_group ${lane}), but the header says ${numBlocks} block(s) × ${numGroups} group(s)${count > 1 ? `; ${count} records of this block_group` : ''}: they are left out`);
  }

  // write_stride: the most frequent gap between consecutive records of one lane.
  let stride = opts.stride ?? 0;
  const strideInferred = !opts.stride;
  if (!stride) {
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
  // Relative time: wrapped values (below 2^31) are 2^32 later. `wrapAdd` is 0 when nothing wrapped.
  const wrapAdd = timerWrapped ? TWO_32 : 0;

  if (stride < lanes && lanes > 1) {
    problems.add('kprof.lane-collision', 0, -1, -1,
      `write_stride ${stride}${strideInferred ? ' (inferred from the records)' : ''} is smaller than the ${lanes} (block, group) lanes: lane k and lane k + ${stride} write the same slots and overwrite each other's records; write_stride must be at least ${lanes}`);
  }

  // Pass 2, in slot order, each lane's state in typed arrays: open STARTs per lane (a stack, as
  // flat triples: event, slot, time), finalize count, the first slot of each kind of trouble.
  const laneRecords = tagCount.slice(0, lanes);
  const prevT = new Float64Array(lanes).fill(-1);
  const finals = new Int32Array(lanes);
  const firstFinal = new Int32Array(lanes);
  const afterFinal = new Int32Array(lanes);
  const afterFinalSlot = new Int32Array(lanes);
  const backSlot = new Int32Array(lanes).fill(-1);
  const offStride = new Int32Array(lanes);
  const offStrideSlot = new Int32Array(lanes);
  const nextSlot = new Int32Array(lanes);
  for (let l = 0; l < lanes; l++) nextSlot[l] = first + l;
  // A lane of c records has at most ⌊c/2⌋ regions: each lane gets that room, in lane order, so
  // regions land where they belong (no sort afterwards); the gaps are closed at the end.
  const laneRegions = new Int32Array(lanes + 1);
  for (let l = 0; l < lanes; l++) laneRegions[l + 1] = laneRegions[l] + (laneRecords[l] >> 1);
  const cap = laneRegions[lanes];
  const regAt = laneRegions.slice(0, lanes);
  const regLane = new Int32Array(cap), regEvent = new Uint16Array(cap), regStartSlot = new Int32Array(cap), regEndSlot = new Int32Array(cap), regStart = new Uint32Array(cap), regEnd = new Uint32Array(cap);
  const stacks: (number[] | undefined)[] = new Array<number[] | undefined>(lanes);
  let instCap = 16;
  let instLane = new Int32Array(instCap), instEvent = new Uint16Array(instCap), instSlot = new Int32Array(instCap), instT = new Uint32Array(instCap);
  let instantCount = 0;
  const unknownFirst = new Int32Array(eventMask + 1).fill(-1);
  const where = (l: number) => `block ${Math.floor(l / numGroups)} group ${l % numGroups}`;
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    const l = (lo >>> laneShift) & laneMask;
    if (l >= lanes) continue;
    const t = (hi < TWO_31 ? hi + wrapAdd : hi) - baseTs;
    const type = lo & typeMask;
    const ev = (lo >>> eventShift) & eventMask;
    if (t < prevT[l] && backSlot[l] < 0) backSlot[l] = s;
    prevT[l] = t;
    // On the lane's stride: s = first + l + k·stride. The usual case is the next expected slot.
    if (s === nextSlot[l]) nextSlot[l] = s + stride;
    else if (s - first < l || (s - first - l) % stride !== 0) {
      if (offStride[l]++ === 0) offStrideSlot[l] = s;
    } else nextSlot[l] = s + stride;
    if (finals[l] > 0 && type !== EV_FINALIZE) {
      if (afterFinal[l]++ === 0) afterFinalSlot[l] = s;
    }
    if (type !== EV_FINALIZE && ev >= names.length && names.length && unknownFirst[ev] < 0) unknownFirst[ev] = s;
    if (type === EV_START) {
      let st = stacks[l];
      if (!st) stacks[l] = st = [];
      st.push(ev, s, t);
    } else if (type === EV_END) {
      const st = stacks[l];
      let k = st ? st.length - 3 : -3;
      while (k >= 0 && st![k] !== ev) k -= 3;
      if (k < 0) {
        problems.add('kprof.unmatched-end', s, Math.floor(l / numGroups), l % numGroups, `END of "${eventName(names, ev)}" (event ${ev}) in ${where(l)} has no open START before it in its lane`);
        continue;
      }
      const s0 = st![k + 1];
      const t0 = st![k + 2];
      const j = regAt[l]++;
      regLane[j] = l; regEvent[j] = ev; regStartSlot[j] = s0; regEndSlot[j] = s; regStart[j] = t0; regEnd[j] = t;
      if (t === t0) problems.add('kprof.too-short', s, Math.floor(l / numGroups), l % numGroups, `Region "${eventName(names, ev)}" in ${where(l)} (slots ${s0}..${s}) lasts 0 ns: below the timer's resolution (tens of ns)`);
      if (k === st!.length - 3) { st!.pop(); st!.pop(); st!.pop(); } else st!.splice(k, 3);
    } else if (type === EV_INSTANT) {
      if (instantCount === instCap) {
        instCap *= 2;
        const g = <T extends Int32Array | Uint16Array | Uint32Array>(x: T): T => { const y = new (x.constructor as new (n: number) => T)(instCap); y.set(x); return y; };
        instLane = g(instLane); instEvent = g(instEvent); instSlot = g(instSlot); instT = g(instT);
      }
      instLane[instantCount] = l; instEvent[instantCount] = ev; instSlot[instantCount] = s; instT[instantCount] = t;
      instantCount++;
    } else if (finals[l]++ === 0) firstFinal[l] = s;
  }

  // Lane by lane: what the lane's whole stream says.
  const laneFinalized = new Uint8Array(lanes);
  let maxLaneRecords = 0;
  for (let l = 0; l < lanes; l++) {
    const count = laneRecords[l];
    if (!count) continue;
    const block = Math.floor(l / numGroups);
    const group = l % numGroups;
    const lw = where(l);
    const fin = finals[l];
    laneFinalized[l] = fin > 0 ? 1 : 0;
    const lastSlot = tagLast[l];
    const open = stacks[l] ?? [];
    const full = layout.finalize && fin === 0 && lastSlot + stride >= n;
    maxLaneRecords = Math.max(maxLaneRecords, fin > 0 || !layout.finalize ? count : count + 1);
    if (offStride[l]) {
      problems.add('kprof.lane-collision', offStrideSlot[l], block, group,
        `Records off their lane's stride: ${offStride[l]} record(s) of ${lw}, the first at slot ${offStrideSlot[l]}, are not at 1 + ${l} + k·${stride} where its cursor writes: another lane wrote them, or write_stride is not ${stride}`);
    }
    if (fin > 1 && layout.finalize) {
      problems.add('kprof.lane-collision', firstFinal[l], block, group,
        `Two leaders in one lane: ${lw} has ${fin} finalize records (the first at slot ${firstFinal[l]}); two threads wrote this lane with their own cursors and clobbered each other`);
    }
    if (backSlot[l] >= 0) {
      problems.add('kprof.lane-collision', backSlot[l], block, group,
        `Two leaders in one lane: timestamps go backwards along the slots of ${lw} at slot ${backSlot[l]}; one leader overwrote some of the other's records`);
    }
    if (fin === 1 && afterFinal[l]) {
      problems.add('kprof.after-finalize', afterFinalSlot[l], block, group,
        `${afterFinal[l]} record(s) of ${lw} after its finalize at slot ${firstFinal[l]}, the first at slot ${afterFinalSlot[l]}: finalize must be the lane's last record`);
    }
    if (full) {
      problems.add('kprof.buffer-full', lastSlot, block, group,
        `Buffer full: the next record of ${lw} would be at slot ${lastSlot + stride}, past the end of the ${n}-slot buffer, and the lane has no finalize: records were probably lost${open.length ? ` (${open.length / 3} region(s) left open)` : ''}. @@SIZE@@`);
    } else {
      if (layout.finalize && fin === 0) {
        problems.add('kprof.not-finalized', lastSlot, block, group, `${lw} has ${count} record(s) but no finalize record (its last record is at slot ${lastSlot}): the kernel stopped early, or finalize() was not called`);
      }
      for (let k = 0; k < open.length; k += 3) {
        problems.add('kprof.unclosed-start', open[k + 1], block, group, `START of "${eventName(names, open[k])}" (event ${open[k]}) in ${lw} is never closed by an END in its lane`);
      }
    }
  }

  // Close the gaps (lanes with fewer regions than their room), keeping lane order.
  let rc = 0;
  for (let l = 0; l < lanes; l++) {
    const from = laneRegions[l];
    const len = regAt[l] - from;
    if (from !== rc && len) {
      for (const arr of [regLane, regEvent, regStartSlot, regEndSlot, regStart, regEnd]) arr.copyWithin(rc, from, from + len);
    }
    laneRegions[l] = rc;
    rc += len;
  }
  laneRegions[lanes] = rc;

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
    regionCount: rc, regLane, regEvent, regStartSlot, regEndSlot, regStart, regEnd,
    instantCount, instLane, instEvent, instSlot, instT,
    problems: list, problemsDropped: problems.dropped, problemsDroppedError: problems.droppedError,
  };
}
