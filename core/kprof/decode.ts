// Decodes one profiler buffer into lanes, regions and instants, held in typed arrays (no object
// per record: a 16M-record buffer is 128 MB and must decode in about a second), and checks it
// against the caveats of the spec (../shared/specs/tvm-cudaprofiler.rst, "Usage notes"). A lane
// is read from the tag (tvm) or, for FlashInfer's macros, from the slot its cursor wrote.
import { EV_END, EV_FINALIZE, EV_INSTANT, EV_START, TVM, type Layout } from './layouts';
import { eventName } from './names';
import { OpenStacks } from './openStacks';
import { BoundedProblems, type KprofProblem } from './problems';
import type { ProfBuffer } from './words';

export const DEFAULT_MAX_PROBLEMS = 1000;
/** Bits of `laneFlags`. */
export const LANE_FLAG = {
  /** `kprof.buffer-full`: the lane's next record would be past the end of the buffer. */
  full: 1,
  /** `kprof.sm-spill`: the lane's block is past the tag's block field; its SM id has bits it shares with the block. */
  smSpill: 2,
} as const;
/** Lanes given their own `kprof.block-mismatch` problem at most; the others are counted in one more. */
export const MAX_MISMATCH_LANES = 20;
const TWO_31 = 2 ** 31;
const TWO_32 = 2 ** 32;
/** Diffs looked at per lane to infer the stride: enough for a mode, bounded for 16M records. */
const STRIDE_SAMPLES = 16;

export interface DecodeOptions {
  layout?: Layout;
  /** `write_stride`; inferred from where each lane's records sit when absent (the header's lanes for a slot-laned layout). */
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
  /** Lanes were read from the slots (FlashInfer with a header), not from the tags. */
  lanesFromSlots: boolean;
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
  /** Per lane, LANE_FLAG bits: kept for every lane, whether or not its problem was kept. */
  laneFlags: Uint8Array;
  /** Per lane, the SM it ran on (the tag's SM id of its first record), -1 when the layout has none or the lane is empty. */
  laneSm: Int16Array;
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
  const first = layout.header ? 1 : 0;
  const header = readHeader(buf, layout);
  // A slot-laned layout needs the header's lanes to know whose cursor wrote a slot; without one
  // the tag's block field is all there is (one group per block).
  const bySlot = layout.laneFrom === 'slot' && header.valid;
  const numGroups = header.valid ? header.groups : bySlotFallbackGroups(layout, header);
  // A stride past the buffer puts every slot in a lane of its own, as the buffer's length does:
  // clamped there, so a huge --stride costs no per-lane arrays of that size.
  const slotStride = bySlot ? Math.min(opts.stride ?? header.blocks * header.groups, buf.slots) : 0;
  const scan = bySlot ? scanBySlot(buf, layout, first, slotStride, header.blocks * header.groups, numGroups) : scanByTag(buf, layout, first);
  const numBlocks = header.valid ? header.blocks : layout.header ? Math.max(1, Math.ceil((scan.maxLane + 1) / numGroups)) : scan.maxLane + 1;
  if (layout.header && !header.valid) reportNoHeader(header, numGroups, buf.slots, problems);
  const lanes = numBlocks * numGroups;
  reportStrayLanes(scan, lanes, numBlocks, numGroups, maxProblems, problems);
  const stride = slotStride || opts.stride || mostFrequentGap(scan.gaps) || Math.max(1, lanes);
  const strideInferred = !slotStride && !opts.stride;
  const laneAt = (s: number) => (bySlot ? (s - first) % stride : (buf.words[2 * s] >>> layout.laneShift) & layout.laneMask);
  const geo: Geometry = { layout, first, lanes, numGroups, stride, bySlot, names };
  const timer = unwrapTimer(buf, scan, geo, laneAt, problems);
  if (stride < lanes && lanes > 1) {
    problems.add('kprof.lane-collision', 0, -1, -1,
      `write_stride ${stride}${strideInferred ? ' (inferred from the records)' : ''} is smaller than the ${lanes} (block, group) lanes: lane k and lane k + ${stride} write the same slots and overwrite each other's records; write_stride must be at least ${lanes}`);
  }
  const walk = walkRecords(buf, scan, geo, timer.base32, problems);
  const lanesOut = checkLanes(buf.slots, scan, walk, geo, problems);
  const regionCount = compactRegions(walk, lanes);
  const laneSm = new Int16Array(lanes).fill(-1);
  laneSm.set(scan.sm.subarray(0, lanes));
  if (bySlot) reportSlotLanes(buf.words, scan, geo, lanesOut.laneFlags, problems);
  reportUnknownEvents(walk.unknownFirst, names, laneAt, numGroups, problems);
  const list = problems.all();
  fillBufferSize(list, lanes, lanesOut.maxLaneRecords, stride);
  const { regs, inst } = walk;
  return {
    layout, numBlocks, numGroups, headerValid: header.valid, lanesFromSlots: bySlot, stride, strideInferred, slots: buf.slots, records: scan.records,
    baseTs: scan.records ? timer.baseTs : 0, timerWrapped: timer.wrapped, durationNs: timer.durationNs, names,
    laneRecords: walk.laneRecords, laneFinalized: lanesOut.laneFinalized, laneFlags: lanesOut.laneFlags, laneSm, laneRegions: walk.laneRegions,
    regionCount, regLane: regs.lane, regEvent: regs.event, regStartSlot: regs.startSlot, regEndSlot: regs.endSlot, regStart: regs.start, regEnd: regs.end,
    instantCount: inst.count, instLane: inst.lane, instEvent: inst.event, instSlot: inst.slot, instT: inst.t,
    problems: list, problemsDropped: problems.dropped, problemsDroppedError: problems.droppedError,
  };
}

/** What the steps after pass 1 share. */
interface Geometry {
  layout: Layout;
  /** The first slot holding records (1 after a header). */
  first: number;
  lanes: number;
  numGroups: number;
  stride: number;
  bySlot: boolean;
  names: readonly string[];
}

const where = (l: number, numGroups: number) => `block ${Math.floor(l / numGroups)} group ${l % numGroups}`;

/** Slot 0: `(num_groups << 32) | num_blocks`, written by block 0 / thread 0. */
function readHeader(buf: ProfBuffer, layout: Layout): { blocks: number; groups: number; valid: boolean } {
  if (!layout.header) return { blocks: 0, groups: 0, valid: false };
  const hb = buf.words[0];
  const hg = buf.words[1];
  return { blocks: hb, groups: hg, valid: hb > 0 && hg > 0 && hb * hg <= buf.slots - 1 };
}

/** Groups per block without a usable header: the header's, if plausible, for a tag-laned layout; 1 when the tag holds the block alone. */
function bySlotFallbackGroups(layout: Layout, header: { groups: number }): number {
  if (!layout.header || layout.laneFrom === 'slot') return 1;
  return header.groups > 0 && header.groups <= 4096 ? header.groups : 1;
}

function reportNoHeader(header: { blocks: number; groups: number }, numGroups: number, n: number, problems: BoundedProblems): void {
  const { blocks: hb, groups: hg } = header;
  const why = (hb | hg) === 0
    ? 'slot 0 is empty: block 0 never wrote the header (was the buffer zeroed, did init run?)'
    : `slot 0 reads num_blocks ${hb}, num_groups ${hg}, impossible for a buffer of ${n} slots${hb * hg > n - 1 ? ` (${hb * hg} lanes need at least ${hb * hg + 1} slots)` : ''}`;
  problems.add('kprof.no-header', 0, -1, -1, `No header: ${why}; lanes are read as ${numGroups} group(s) per block`);
}

/** Pass 1's findings, per lane key (the tag's lane field, or the slot's lane). */
interface Scan {
  records: number;
  maxLane: number;
  tMin: number;
  tMax: number;
  count: Int32Array;
  firstSlot: Int32Array;
  lastSlot: Int32Array;
  /** Gaps between a lane's first records, counted: the most frequent is write_stride. */
  gaps: Map<number, number>;
  /** The SM id of each lane's first record (-1: none). */
  sm: Int16Array;
  /** Slot-laned: records whose tag names another block than their slot's, per lane, and the first one's slot. */
  mismatch?: Int32Array;
  mismatchSlot?: Int32Array;
}

/**
 * Pass 1 for a tag-laned layout, in slot order (memory order: a lane's records are write_stride
 * slots apart, and walking them lane by lane measured 4× slower on 16M records): records per lane
 * tag, first and last slot per tag, the timer's range, and the gaps between a tag's first records.
 */
function scanByTag(buf: ProfBuffer, layout: Layout, first: number): Scan {
  const w = buf.words;
  const n = buf.slots;
  const { laneShift, laneMask } = layout;
  let records = 0;
  let maxLane = -1;
  let tMin = TWO_32;
  let tMax = -1;
  const count = new Int32Array(laneMask + 1);
  const firstSlot = new Int32Array(laneMask + 1);
  const lastSlot = new Int32Array(laneMask + 1);
  const gaps = new Map<number, number>();
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    records++;
    const lane = (lo >>> laneShift) & laneMask;
    const c = count[lane]++;
    if (c === 0) firstSlot[lane] = s;
    else if (c <= STRIDE_SAMPLES) {
      const d = s - lastSlot[lane];
      gaps.set(d, (gaps.get(d) ?? 0) + 1);
    }
    lastSlot[lane] = s;
    if (lane > maxLane) maxLane = lane;
    if (hi < tMin) tMin = hi;
    if (hi > tMax) tMax = hi;
  }
  return { records, maxLane, tMin, tMax, count, firstSlot, lastSlot, gaps, sm: firstSms(w, layout, count, firstSlot, maxLane + 1) };
}

/**
 * Pass 1 for a slot-laned layout: slot `first + k` belongs to lane `k mod stride`, whatever its
 * tag says. The tag is checked against the slot: its block field must hold the slot's block (its
 * low bits; the bits past the field are ORed into the SM id, where they must be set).
 */
function scanBySlot(buf: ProfBuffer, layout: Layout, first: number, stride: number, lanes: number, numGroups: number): Scan {
  const w = buf.words;
  const n = buf.slots;
  const { laneShift, laneMask } = layout;
  const smShift = layout.sm?.shift ?? 0;
  const smMask = layout.sm?.mask ?? 0;
  // Per-lane arrays cover the header's lanes too, when a --stride smaller than them is given.
  const size = Math.max(stride, lanes);
  const expectBlock = new Int32Array(size);
  const spill = new Int32Array(size);
  for (let l = 0; l < size; l++) {
    const b = Math.floor(l / numGroups);
    expectBlock[l] = b & laneMask;
    spill[l] = smMask & Math.floor(b / 2 ** (smShift - laneShift));
  }
  let records = 0;
  let tMin = TWO_32;
  let tMax = -1;
  const count = new Int32Array(size);
  const firstSlot = new Int32Array(size);
  const lastSlot = new Int32Array(size);
  const mismatch = new Int32Array(size);
  const mismatchSlot = new Int32Array(size);
  // The slot's lane as a counter that wraps at `stride`: no division per slot.
  for (let s = first, l = 0; s < n; s++, l = l + 1 === stride ? 0 : l + 1) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    records++;
    if (count[l]++ === 0) firstSlot[l] = s;
    lastSlot[l] = s;
    if (((lo >>> laneShift) & laneMask) !== expectBlock[l] || ((lo >>> smShift) & spill[l]) !== spill[l]) {
      if (mismatch[l]++ === 0) mismatchSlot[l] = s;
    }
    if (hi < tMin) tMin = hi;
    if (hi > tMax) tMax = hi;
  }
  let maxLane = stride - 1;
  while (maxLane >= 0 && !count[maxLane]) maxLane--;
  const sm = firstSms(w, layout, count, firstSlot, size);
  // The SM id field of a block past the block field also holds the block's high bits: cleared.
  for (let l = 0; l < size; l++) if (sm[l] > 0) sm[l] &= ~spill[l];
  return { records, maxLane, tMin, tMax, count, firstSlot, lastSlot, gaps: new Map(), sm, mismatch, mismatchSlot };
}

/** The SM id field of each lane's first record; -1 for empty lanes and layouts without one. */
function firstSms(w: Uint32Array, layout: Layout, count: Int32Array, firstSlot: Int32Array, lanes: number): Int16Array {
  if (!layout.sm) return new Int16Array(0);
  const sm = new Int16Array(Math.max(0, lanes)).fill(-1);
  const { shift, mask } = layout.sm;
  for (let l = 0; l < lanes; l++) if (count[l]) sm[l] = (w[2 * firstSlot[l]] >>> shift) & mask;
  return sm;
}

/** Records of lanes past the header's (block, group) lanes: left out, one problem per lane. */
function reportStrayLanes(scan: Scan, lanes: number, numBlocks: number, numGroups: number, maxProblems: number, problems: BoundedProblems): void {
  let shown = 0;
  for (let lane = lanes; lane <= scan.maxLane && shown < maxProblems; lane++) {
    const count = scan.count[lane];
    if (!count) continue;
    shown++;
    problems.add('kprof.bad-group', scan.firstSlot[lane], Math.floor(lane / numGroups), lane % numGroups,
      `Record of block ${Math.floor(lane / numGroups)} (block_group ${lane}), but the header says ${numBlocks} block(s) × ${numGroups} group(s)${count > 1 ? `; ${count} records of this block_group` : ''}: they are left out`);
  }
}

/** write_stride as the records show it: the most frequent gap between consecutive records of one lane; 0 when none. */
function mostFrequentGap(gaps: Map<number, number>): number {
  let best = 0;
  let stride = 0;
  for (const [d, c] of gaps) if (c > best || (c === best && d < stride)) { best = c; stride = d; }
  return stride;
}

/**
 * globaltimer_lo wraps every 2^32 ns: a kernel shorter than 2^31 ns that spans a wrap has
 * timestamps in both halves, the wrapped ones low. They get 2^32 added.
 */
function unwrapTimer(buf: ProfBuffer, scan: Scan, geo: Geometry, laneAt: (s: number) => number, problems: BoundedProblems) {
  const w = buf.words;
  const { records, tMin, tMax } = scan;
  const wrapped = records > 0 && tMax - tMin >= TWO_31;
  let baseTs = tMin;
  let latest = tMax;
  if (wrapped) {
    baseTs = TWO_32;
    latest = 0;
    let wrapSlot = -1;
    for (let s = geo.first; s < buf.slots; s++) {
      const hi = w[2 * s + 1];
      if ((w[2 * s] | hi) === 0) continue;
      if (hi >= TWO_31) { if (hi < baseTs) baseTs = hi; } else {
        if (hi > latest) latest = hi;
        if (wrapSlot < 0) wrapSlot = s;
      }
    }
    const lane = laneAt(wrapSlot);
    problems.add('kprof.timer-wrap', wrapSlot, Math.floor(lane / geo.numGroups), lane % geo.numGroups,
      `globaltimer_lo wrapped during the kernel (it is 32 bits: every 2^32 ns, about 4.29 s): records from slot ${wrapSlot} on were unwrapped by adding 2^32 ns, assuming the kernel ran under 2^31 ns`);
  }
  const durationNs = records ? (wrapped ? latest + TWO_32 : latest) - baseTs : 0;
  // Relative time in 32-bit arithmetic: `(hi - baseTs) >>> 0` is `hi - baseTs`, and for a wrapped
  // value (below 2^31, so 2^32 later) `hi + 2^32 - baseTs`, as the kernel lasts under 2^32 ns.
  return { wrapped, baseTs, durationNs, base32: baseTs >>> 0 };
}

type TypedArray = Int32Array | Uint16Array | Uint32Array;
const grown = <T extends TypedArray>(x: T, cap: number): T => { const y = new (x.constructor as new (n: number) => T)(cap); y.set(x); return y; };

/** Pass 2's findings: regions and instants, and per lane what its stream showed. */
interface Walk {
  laneRecords: Int32Array;
  laneRegions: Int32Array;
  /** Where each lane's next region goes (its regions end there before `compactRegions`). */
  regAt: Int32Array;
  regs: { lane: Int32Array; event: Uint16Array; startSlot: Int32Array; endSlot: Int32Array; start: Uint32Array; end: Uint32Array };
  inst: { count: number; lane: Int32Array; event: Uint16Array; slot: Int32Array; t: Uint32Array };
  stacks: OpenStacks;
  finals: Int32Array;
  firstFinal: Int32Array;
  afterFinal: Int32Array;
  afterFinalSlot: Int32Array;
  backSlot: Int32Array;
  offStride: Int32Array;
  offStrideSlot: Int32Array;
  /** Per event index, the first slot of a record whose event has no name (-1: none). */
  unknownFirst: Int32Array;
}

/**
 * Pass 2, in slot order, each lane's state in typed arrays: regions (START..END of one event),
 * instants, open STARTs per lane, finalize count, the first slot of each kind of trouble.
 */
function walkRecords(buf: ProfBuffer, scan: Scan, geo: Geometry, base32: number, problems: BoundedProblems): Walk {
  const w = buf.words;
  const n = buf.slots;
  const { layout, first, lanes, numGroups, stride, bySlot, names } = geo;
  const { typeMask, eventShift, eventMask, laneShift, laneMask } = layout;
  const laneRecords = scan.count.slice(0, lanes);
  const prevT = new Uint32Array(lanes);
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
  // Open STARTs: one linked stack per lane over shared typed arrays, freed nodes reused: no array
  // per lane, nothing allocated per record.
  const stacks = new OpenStacks(lanes);
  let instCap = 16;
  let instLane = new Int32Array(instCap), instEvent = new Uint16Array(instCap), instSlot = new Int32Array(instCap), instT = new Uint32Array(instCap);
  let instantCount = 0;
  const unknownFirst = new Int32Array(eventMask + 1).fill(-1);
  for (let s = first; s < n; s++) {
    const lo = w[2 * s];
    const hi = w[2 * s + 1];
    if ((lo | hi) === 0) continue;
    const l = bySlot ? (s - first) % stride : (lo >>> laneShift) & laneMask;
    if (l >= lanes) continue;
    const t = (hi - base32) >>> 0;
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
    if (type === EV_START) stacks.push(l, ev, s, t);
    else if (type === EV_END) {
      const k = stacks.take(l, ev);
      if (k < 0) {
        problems.add('kprof.unmatched-end', s, Math.floor(l / numGroups), l % numGroups, `END of "${eventName(names, ev)}" (event ${ev}) in ${where(l, numGroups)} has no open START before it in its lane`);
        continue;
      }
      const s0 = stacks.slot[k];
      const t0 = stacks.time[k];
      const j = regAt[l]++;
      regEvent[j] = ev; regStartSlot[j] = s0; regEndSlot[j] = s; regStart[j] = t0; regEnd[j] = t;
      if (t === t0) problems.add('kprof.too-short', s, Math.floor(l / numGroups), l % numGroups, `Region "${eventName(names, ev)}" in ${where(l, numGroups)} (slots ${s0}..${s}) lasts 0 ns: below the timer's resolution (tens of ns)`);
    } else if (type === EV_INSTANT) {
      if (instantCount === instCap) {
        instCap *= 2;
        instLane = grown(instLane, instCap); instEvent = grown(instEvent, instCap); instSlot = grown(instSlot, instCap); instT = grown(instT, instCap);
      }
      instLane[instantCount] = l; instEvent[instantCount] = ev; instSlot[instantCount] = s; instT[instantCount] = t;
      instantCount++;
    } else if (finals[l]++ === 0) firstFinal[l] = s;
  }
  return {
    laneRecords, laneRegions, regAt,
    regs: { lane: regLane, event: regEvent, startSlot: regStartSlot, endSlot: regEndSlot, start: regStart, end: regEnd },
    inst: { count: instantCount, lane: instLane, event: instEvent, slot: instSlot, t: instT },
    stacks, finals, firstFinal, afterFinal, afterFinalSlot, backSlot, offStride, offStrideSlot, unknownFirst,
  };
}

/** Lane by lane: what the lane's whole stream says (collisions, finalize, a full buffer, open STARTs). */
function checkLanes(n: number, scan: Scan, walk: Walk, geo: Geometry, problems: BoundedProblems) {
  const { layout, lanes, numGroups, stride } = geo;
  const laneFinalized = new Uint8Array(lanes);
  const laneFlags = new Uint8Array(lanes);
  let maxLaneRecords = 0;
  for (let l = 0; l < lanes; l++) {
    const count = walk.laneRecords[l];
    if (!count) continue;
    const block = Math.floor(l / numGroups);
    const group = l % numGroups;
    const lw = where(l, numGroups);
    const fin = walk.finals[l];
    laneFinalized[l] = fin > 0 ? 1 : 0;
    const lastSlot = scan.lastSlot[l];
    const open = walk.stacks.drain(l);
    const full = layout.finalize && fin === 0 && lastSlot + stride >= n;
    maxLaneRecords = Math.max(maxLaneRecords, fin > 0 || !layout.finalize ? count : count + 1);
    if (walk.offStride[l]) {
      problems.add('kprof.lane-collision', walk.offStrideSlot[l], block, group,
        `Records off their lane's stride: ${walk.offStride[l]} record(s) of ${lw}, the first at slot ${walk.offStrideSlot[l]}, are not at 1 + ${l} + k·${stride} where its cursor writes: another lane wrote them, or write_stride is not ${stride}`);
    }
    if (fin > 1 && layout.finalize) {
      problems.add('kprof.lane-collision', walk.firstFinal[l], block, group,
        `Two leaders in one lane: ${lw} has ${fin} finalize records (the first at slot ${walk.firstFinal[l]}); two threads wrote this lane with their own cursors and clobbered each other`);
    }
    if (walk.backSlot[l] >= 0) {
      problems.add('kprof.lane-collision', walk.backSlot[l], block, group,
        `Two leaders in one lane: timestamps go backwards along the slots of ${lw} at slot ${walk.backSlot[l]}; one leader overwrote some of the other's records`);
    }
    if (fin === 1 && walk.afterFinal[l]) {
      problems.add('kprof.after-finalize', walk.afterFinalSlot[l], block, group,
        `${walk.afterFinal[l]} record(s) of ${lw} after its finalize at slot ${walk.firstFinal[l]}, the first at slot ${walk.afterFinalSlot[l]}: finalize must be the lane's last record`);
    }
    if (full) {
      laneFlags[l] |= LANE_FLAG.full;
      problems.add('kprof.buffer-full', lastSlot, block, group,
        `Buffer full: the next record of ${lw} would be at slot ${lastSlot + stride}, past the end of the ${n}-slot buffer, and the lane has no finalize: records were probably lost${open.length ? ` (${open.length / 3} region(s) left open)` : ''}. @@SIZE@@`);
    } else {
      if (layout.finalize && fin === 0) {
        problems.add('kprof.not-finalized', lastSlot, block, group, `${lw} has ${count} record(s) but no finalize record (its last record is at slot ${lastSlot}): the kernel stopped early, or finalize() was not called`);
      }
      for (let k = 0; k < open.length; k += 3) {
        problems.add('kprof.unclosed-start', open[k + 1], block, group, `START of "${eventName(geo.names, open[k])}" (event ${open[k]}) in ${lw} is never closed by an END in its lane`);
      }
    }
  }
  return { laneFinalized, laneFlags, maxLaneRecords };
}

/** Closes the gaps (lanes with fewer regions than their room), keeping lane order; the region count. */
function compactRegions(walk: Walk, lanes: number): number {
  const { laneRegions, regAt, regs } = walk;
  let rc = 0;
  for (let l = 0; l < lanes; l++) {
    const from = laneRegions[l];
    const len = regAt[l] - from;
    if (from !== rc && len) {
      for (const arr of [regs.event, regs.startSlot, regs.endSlot, regs.start, regs.end]) arr.copyWithin(rc, from, from + len);
    }
    // Filled here, once per lane, rather than once per region in pass 2.
    if (len) regs.lane.fill(l, rc, rc + len);
    laneRegions[l] = rc;
    rc += len;
  }
  laneRegions[lanes] = rc;
  return rc;
}

/**
 * What only a slot-laned reading can say: records whose tag names another block than the slot
 * they sit in (a lane each, up to MAX_MISMATCH_LANES, then one count), and blocks whose index ran
 * into the SM id's bits (one problem for all).
 */
function reportSlotLanes(words: Uint32Array, scan: Scan, geo: Geometry, laneFlags: Uint8Array, problems: BoundedProblems): void {
  const { layout, lanes, numGroups } = geo;
  const mismatch = scan.mismatch!;
  const mismatchSlot = scan.mismatchSlot!;
  const fieldBlocks = layout.laneMask + 1;
  let shown = 0, moreLanes = 0, moreRecords = 0, moreSlot = -1;
  let spillLanes = 0, spillSlot = -1;
  for (let l = 0; l < lanes; l++) {
    const block = Math.floor(l / numGroups);
    if (block >= fieldBlocks && scan.count[l]) {
      laneFlags[l] |= LANE_FLAG.smSpill;
      if (spillLanes++ === 0) spillSlot = scan.firstSlot[l];
    }
    if (!mismatch[l]) continue;
    if (shown < MAX_MISMATCH_LANES) {
      shown++;
      problems.add('kprof.block-mismatch', mismatchSlot[l], block, l % numGroups,
        `${mismatch[l]} of the ${scan.count[l]} record(s) in the slots of ${where(l, numGroups)} (1 + ${l} + k·${geo.stride}) name block ${tagBlockAt(words, layout, mismatchSlot[l])} in their tag, the first at slot ${mismatchSlot[l]}: the slot decides the lane (the writer's cursor put them there); another kernel wrote this buffer, or its header is not this launch's`);
    } else {
      moreLanes++;
      moreRecords += mismatch[l];
      if (moreSlot < 0) moreSlot = mismatchSlot[l];
    }
  }
  if (moreLanes) {
    problems.add('kprof.block-mismatch', moreSlot, -1, -1, `${moreLanes} more lane(s) hold ${moreRecords} record(s) whose tag names another block than their slot's, the first at slot ${moreSlot}`);
  }
  if (spillLanes) {
    problems.add('kprof.sm-spill', spillSlot, -1, -1,
      `${spillLanes} lane(s) of blocks ${fieldBlocks} and up: the writer ORs block << 12 into the tag, so a block past ${fieldBlocks - 1} sets bits of the SM id (bits 24–31). Their SM ids are shown with those bits cleared, which may be one of two or more SMs`);
  }
}

/** The block a record's tag names (its block field; a block past the field also sets SM id bits, not counted). */
function tagBlockAt(words: Uint32Array, layout: Layout, slot: number): number {
  return (words[2 * slot] >>> layout.laneShift) & layout.laneMask;
}

/** Events past the names given: shown as `event_N`, one problem per event. */
function reportUnknownEvents(unknownFirst: Int32Array, names: readonly string[], laneAt: (s: number) => number, numGroups: number, problems: BoundedProblems): void {
  for (let ev = 0; ev < unknownFirst.length; ev++) {
    const s = unknownFirst[ev];
    if (s < 0) continue;
    const lane = laneAt(s);
    problems.add('kprof.unknown-event', s, Math.floor(lane / numGroups), lane % numGroups,
      `Event index ${ev} is beyond the ${names.length} event name(s): it is shown as "event_${ev}"`);
  }
}

/** The size a full buffer needed, known only once every lane was seen, put into its problems. */
function fillBufferSize(list: KprofProblem[], lanes: number, maxLaneRecords: number, stride: number): void {
  const need = 1 + lanes + (maxLaneRecords - 1) * stride;
  for (const p of list) {
    if (p.code === 'kprof.buffer-full') p.message = p.message.replace('@@SIZE@@', `Make the buffer at least ${need} slots (1 + lanes + (records per lane − 1) · write_stride, with ${maxLaneRecords} records per lane), and more if lanes lost more`);
  }
}
