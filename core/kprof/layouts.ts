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
  header: true, finalize: true,
};

/**
 * FlashInfer's profiler, as its decoder reads it: flashinfer-ai/flashinfer
 * `flashinfer/profiler/__init__.py` (`decode_tag`, commit 004903ca): tag bits 0–1 type (0 begin,
 * 1 end, 2 instant; no finalize), 2–11 event, 12–23 block_group, 24–31 SM id; slot 0 read as two
 * int32, num_blocks then num_groups, as in tvm.
 */
export const FLASHINFER: Layout = {
  id: 'flashinfer',
  description: 'FlashInfer profiler: ts_lo32 << 32 | sm_id << 24 | block_group << 12 | event << 2 | type',
  typeMask: 0x3, eventShift: 2, eventMask: 0x3ff, laneShift: 12, laneMask: 0xfff,
  header: true, finalize: false, extra: { name: 'sm_id', shift: 24, mask: 0xff },
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
  header: true, finalize: false, extra: { name: 'event_no', shift: 19, mask: 0x1fff },
};

export const LAYOUTS: readonly Layout[] = [TVM, FLASHINFER, MIRAGE];

/** Records looked at to choose a layout: enough to see a stray tag, bounded for 16M records. */
const DETECT_RECORDS = 1 << 20;

/**
 * The layout a buffer was written with, when its records say so unambiguously: the layouts whose
 * reading puts every record (of the first million) in a lane the header allows. tvm when it is
 * one of them (records of the spec's layout, or FlashInfer's with SM id 0, read the same), else
 * the only one; tvm when none or several fit.
 */
export function detectLayout(words: Uint32Array, slots: number): Layout {
  const lanes = words[0] * words[1];
  if (!lanes) return TVM;
  const fits = LAYOUTS.map(() => true);
  let seen = 0;
  for (let s = 1; s < slots && seen < DETECT_RECORDS; s++) {
    const lo = words[2 * s];
    if ((lo | words[2 * s + 1]) === 0) continue;
    seen++;
    for (let k = 0; k < LAYOUTS.length; k++) {
      if (fits[k] && ((lo >>> LAYOUTS[k].laneShift) & LAYOUTS[k].laneMask) >= lanes) fits[k] = false;
    }
  }
  if (fits[0]) return TVM;
  const ok = LAYOUTS.filter((_, k) => fits[k]);
  return ok.length === 1 ? ok[0] : TVM;
}

export function layoutById(id: string): Layout | undefined {
  return LAYOUTS.find((l) => l.id === id);
}

export const EV_START = 0;
export const EV_END = 1;
export const EV_INSTANT = 2;
export const EV_FINALIZE = 3;
