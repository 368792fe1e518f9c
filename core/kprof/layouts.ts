// Record layouts: where a uint64 record keeps its timestamp, event type, event index and lane.
// Every layout is bit fields, read into locals once so the decode loop stays monomorphic.

export interface Layout {
  id: string;
  description: string;
  /** Bit fields of the 32-bit tag (the low word of a record). */
  typeMask: number;
  eventShift: number;
  eventMask: number;
  laneShift: number;
  laneMask: number;
  /** Slot 0 is `(num_groups << 32) | num_blocks`. */
  header: boolean;
  /** A lane with records must end with a finalize record (event type 3). */
  finalize: boolean;
  /** A further field of the tag shown with a record (FlashInfer's SM id, Mirage's event number). */
  extra?: { name: string; shift: number; mask: number };
  /**
   * Where a record's lane comes from: `tag` (bits `laneShift`.. hold `block * num_groups + group`),
   * or `slot` (the writer's cursor: slot `1 + lane + k * write_stride`; the tag's lane field then
   * holds only the block, checked against the slot's).
   */
  laneFrom: 'tag' | 'slot';
  /** The tag's SM id field (`%smid`): a per-SM view is built from it. */
  sm?: { shift: number; mask: number };
}

/**
 * TVM `tvm.tirx.bench.CudaProfiler` (../shared/specs/tvm-cudaprofiler.rst): record =
 * `globaltimer_lo << 32 | tag`; tag bits 0–1 type (0 start, 1 end, 2 instant, 3 finalize), bits
 * 2–11 event index, bits 12+ `block * num_groups + group`.
 */
export const TVM: Layout = {
  id: 'tvm',
  description: 'TVM CudaProfiler: ts_lo32 << 32 | block_group << 12 | event << 2 | type',
  typeMask: 0x3, eventShift: 2, eventMask: 0x3ff, laneShift: 12, laneMask: 0xfffff,
  header: true, finalize: true, laneFrom: 'tag',
};

/**
 * FlashInfer's profiler as its CUDA macros write it: flashinfer-ai/flashinfer
 * `include/flashinfer/profiler.cuh`, the version with `SM_ID_SHIFT = 24` (`PROFILER_INIT` reads
 * `%smid` and sets the tag base to `encode_tag(sm_id, get_block_idx(), 0, 0)`). Tag bits 0–1 type
 * (0 begin, 1 end, 2 instant; no finalize), 2–11 event, 12–23 the block index alone, 24–31 the SM
 * id; a block index past 4095 runs into the SM bits (ORed). The group is in no tag: a lane's
 * cursor starts at slot `1 + block * num_groups + group` and steps by `num_blocks * num_groups`, so
 * the lane is read from the slot. Slot 0 is `nblocks` then `ngroups` (two uint32), as in tvm.
 */
export const FLASHINFER: Layout = {
  id: 'flashinfer',
  description: 'FlashInfer profiler.cuh: ts_lo32 << 32 | sm_id << 24 | block << 12 | event << 2 | type, lane from the slot',
  typeMask: 0x3, eventShift: 2, eventMask: 0x3ff, laneShift: 12, laneMask: 0xfff,
  header: true, finalize: false, laneFrom: 'slot', extra: { name: 'sm_id', shift: 24, mask: 0xff }, sm: { shift: 24, mask: 0xff },
};

/**
 * The same buffers as FlashInfer's Python decoder reads them: `flashinfer/profiler/__init__.py`
 * (`decode_tag`, commit 004903ca) takes tag bits 12–23 for `block * num_groups + group`. That is
 * what the macros write only with one group per block; kept for buffers packed that way.
 */
export const FLASHINFER_PY: Layout = {
  id: 'flashinfer-py',
  description: "FlashInfer's Python decoder: ts_lo32 << 32 | sm_id << 24 | block_group << 12 | event << 2 | type",
  typeMask: 0x3, eventShift: 2, eventMask: 0x3ff, laneShift: 12, laneMask: 0xfff,
  header: true, finalize: false, laneFrom: 'tag', extra: { name: 'sm_id', shift: 24, mask: 0xff }, sm: { shift: 24, mask: 0xff },
};

/**
 * Mirage's persistent-kernel (MPK) profiler, as its decoder reads it: mirage-project/mirage
 * `python/mirage/profiler_persistent.py` (`decode_tag`, commit 69b2958c): tag bits 0–1 type
 * (no finalize), 2–10 event (task type), 11–18 block_group, 19+ event number (the task's sequence
 * number, appended to the name); header as in tvm. Older versions of that file (commit 11f20b98)
 * used 8 event bits and 7 block_group bits: not this preset.
 */
export const MIRAGE: Layout = {
  id: 'mirage',
  description: 'Mirage MPK profiler: ts_lo32 << 32 | event_no << 19 | block_group << 11 | event << 2 | type',
  typeMask: 0x3, eventShift: 2, eventMask: 0x1ff, laneShift: 11, laneMask: 0xff,
  header: true, finalize: false, laneFrom: 'tag', extra: { name: 'event_no', shift: 19, mask: 0x1fff },
};

export const LAYOUTS: readonly Layout[] = [TVM, FLASHINFER, FLASHINFER_PY, MIRAGE];
/** The layouts that take the lane from the tag, tried in this order when no slot-laned writer fits. */
const TAG_LAID: readonly Layout[] = [TVM, FLASHINFER_PY, MIRAGE];

/** Records looked at to choose a layout: enough to see a stray tag, bounded for 16M records. */
const DETECT_RECORDS = 1 << 20;
/** Share of the records whose tag names their slot's block for the slot-laned reading to win. */
const SLOT_AGREEMENT = 0.9;

/**
 * The layout a buffer was written with, from its header and records (the first million):
 * - a finalize record (type 3) is written by tvm alone: tvm;
 * - FlashInfer's macros, when tvm's reading puts a record past the header's lanes (the SM id in
 *   bits 24–31 does) and at least 90 % of the records have in bits 12–23 the block of the lane
 *   their slot belongs to (`(slot − 1) mod (num_blocks · num_groups)`); a few that do not are
 *   reported by the decode (`kprof.block-mismatch`), not a reason to misread every lane;
 * - else the tag-laned layouts whose reading puts every record in a lane the header allows: tvm
 *   when it is one of them, else the only one; tvm when none or several fit.
 */
export function detectLayout(words: Uint32Array, slots: number): Layout {
  const numBlocks = words[0];
  const numGroups = words[1];
  const lanes = numBlocks * numGroups;
  if (!lanes || lanes > slots) return TVM;
  const fits = TAG_LAID.map(() => true);
  let seen = 0;
  let slotAgrees = 0;
  let finalize = false;
  // The slot's lane, kept as a counter that wraps at `lanes` (no division per record).
  let slotLane = 0;
  for (let s = 1; s < slots && seen < DETECT_RECORDS; s++, slotLane = slotLane + 1 === lanes ? 0 : slotLane + 1) {
    const lo = words[2 * s];
    if ((lo | words[2 * s + 1]) === 0) continue;
    seen++;
    if ((lo & 0x3) === EV_FINALIZE) finalize = true;
    if (((lo >>> FLASHINFER.laneShift) & FLASHINFER.laneMask) === (Math.floor(slotLane / numGroups) & FLASHINFER.laneMask)) slotAgrees++;
    for (let k = 0; k < TAG_LAID.length; k++) {
      if (fits[k] && ((lo >>> TAG_LAID[k].laneShift) & TAG_LAID[k].laneMask) >= lanes) fits[k] = false;
    }
  }
  if (fits[0] || finalize) return TVM;
  if (seen && slotAgrees >= SLOT_AGREEMENT * seen) return FLASHINFER;
  const ok = TAG_LAID.filter((_, k) => fits[k]);
  return ok.length === 1 ? ok[0] : TVM;
}

export function layoutById(id: string): Layout | undefined {
  return LAYOUTS.find((l) => l.id === id);
}

export const EV_START = 0;
export const EV_END = 1;
export const EV_INSTANT = 2;
export const EV_FINALIZE = 3;
