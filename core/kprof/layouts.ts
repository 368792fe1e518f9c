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

export const LAYOUTS: readonly Layout[] = [TVM];

export function layoutById(id: string): Layout | undefined {
  return LAYOUTS.find((l) => l.id === id);
}

export const EV_START = 0;
export const EV_END = 1;
export const EV_INSTANT = 2;
export const EV_FINALIZE = 3;
