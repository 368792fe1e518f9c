/**
 * Where the time of a PyTorch (Kineto) or other Chrome trace went, over its timeline model: what
 * TensorBoard's overview, operator and kernel views and HTA's temporal and kernel breakdowns show.
 * GPU busy time is an interval union per stream (kernels, copies and sets of one stream never
 * count twice); operator and kernel times are inclusive durations, clipped to a range when one is
 * asked (Shift+drag). Kineto's categories decide what a slice is: `kernel`, `gpu_memcpy`,
 * `gpu_memset` on the GPU; `cpu_op` operators; `ProfilerStep#N` user annotations for steps. Pure.
 */
import { intersectionLength, lengthOf, unionOf } from '../common/intervals';
import { ATTRS, FLAG, type TimelineModel } from '../timeline/model';
import { upperBound } from '../common/bounds';

/** count, total, mean, p95 (µs) and share of the kind's total time, per name. */
export interface NameStat {
  name: string;
  count: number;
  total: number;
  mean: number;
  p95: number;
  /** Of the time of all items of this kind (kernels: of all kernel time). */
  share: number;
}

export interface StreamStat {
  /** The stream's track, its process first ("GPU 0: NVIDIA H200 › stream 7"). */
  track: string;
  items: number;
  busy: number;
  idle: number;
  /** busy / the span looked at (the range, else the whole trace). */
  busyShare: number;
}

export interface CopyStat {
  /** `Memcpy HtoD (Pageable -> Device)`, `Memset (Device)`… as Kineto names them. */
  name: string;
  count: number;
  bytes: number;
  time: number;
  /** bytes / time, GB/s; null without bytes or time. */
  gbPerS: number | null;
}

export interface StepStat {
  name: string;
  start: number;
  dur: number;
  /** GPU busy within the step: the union of every GPU item, clipped to it. */
  gpuBusy: number;
  gpuShare: number;
  kernels: number;
}

/** A CPU operator's launches and the GPU time of the kernels they launched (through the flows). */
export interface OpGpuStat {
  name: string;
  launches: number;
  gpuTime: number;
}

export interface ChromeSummary {
  /** The time looked at, µs. */
  from: number;
  to: number;
  streams: StreamStat[];
  kernels: NameStat[];
  cpuOps: NameStat[];
  copies: CopyStat[];
  steps: StepStat[];
  opGpu: OpGpuStat[];
}

/** Kineto's categories of GPU work (also what `npu-trace diff` groups by stream). */
export const GPU_CATS = new Set(['kernel', 'gpu_memcpy', 'gpu_memset']);
const CAT = ATTRS.indexOf('phase');
/** A profiler step's annotation (also `npu-trace diff`'s steps). */
export const STEP = /^ProfilerStep#\d+$/;

/** The summary of the items overlapping `[from, to]` (the whole trace by default), their times clipped to it. */
export function chromeSummary(m: TimelineModel, from = m.t0, to = m.t1): ChromeSummary {
  const { start, end, name, ctx, flags, bytes } = m.items;
  const str = (k: number, i: number) => m.strings[m.ctxAttrs[ctx[i] * ATTRS.length + k]] ?? '';
  const span = Math.max(0, to - from);
  const clip = (i: number) => Math.max(0, Math.min(end[i], to) - Math.max(start[i], from));
  const trackOfRow = rowTracks(m);
  const rowOf = rowsOfItems(m);

  const kernels = new Groups(), ops = new Groups();
  const copies = new Map<string, CopyStat>();
  const gpuByTrack = new Map<number, number[]>();
  const gpuAll: number[] = [];
  const steps: number[] = [];
  for (let i = 0; i < start.length; i++) {
    if (flags[i] & FLAG.instant || !(end[i] >= start[i]) || end[i] < from || start[i] > to) continue;
    const cat = str(CAT, i);
    const n = m.strings[name[i]];
    if (GPU_CATS.has(cat)) {
      const t = trackOfRow[rowOf[i]];
      let list = gpuByTrack.get(t);
      if (!list) gpuByTrack.set(t, (list = []));
      list.push(i);
      gpuAll.push(i);
      if (cat === 'kernel') kernels.add(n, clip(i));
      else {
        const c = copies.get(n) ?? { name: n, count: 0, bytes: 0, time: 0, gbPerS: null };
        c.count++;
        c.bytes += bytes[i];
        c.time += clip(i);
        copies.set(n, c);
      }
    } else if (cat === 'cpu_op') ops.add(n, clip(i));
    // The CPU's step slice; Kineto also writes the step on the GPU stream (`gpu_user_annotation`).
    if (cat !== 'gpu_user_annotation' && STEP.test(n)) steps.push(i);
  }

  const union = (items: number[]) => {
    const s = Float64Array.from(items, (i) => Math.max(start[i], from)), e = Float64Array.from(items, (i) => Math.min(end[i], to));
    return unionOf(s, e);
  };
  const streams: StreamStat[] = [...gpuByTrack].map(([t, items]) => {
    const busy = lengthOf(union(items));
    return { track: trackPath(m, t), items: items.length, busy, idle: Math.max(0, span - busy), busyShare: span > 0 ? busy / span : 0 };
  }).sort((a, b) => b.busy - a.busy);
  const gpu = union(gpuAll);
  const kernelStarts = Float64Array.from(gpuAll.filter((j) => str(CAT, j) === 'kernel'), (j) => start[j]).sort();
  const stepStats: StepStat[] = steps.map((i) => {
    const s = Math.max(start[i], from), e = Math.min(end[i], to);
    const busy = intersectionLength(gpu, [s, e]);
    // Kernels that started within the step.
    const k = firstAtLeast(kernelStarts, end[i]) - firstAtLeast(kernelStarts, start[i]);
    return { name: m.strings[name[i]], start: start[i], dur: e - s, gpuBusy: busy, gpuShare: e > s ? busy / (e - s) : 0, kernels: k };
  }).sort((a, b) => a.start - b.start);
  for (const c of copies.values()) c.gbPerS = c.bytes > 0 && c.time > 0 ? c.bytes / (c.time * 1000) : null;
  return {
    from, to, streams, kernels: kernels.stats(), cpuOps: ops.stats(), copies: [...copies.values()].sort((a, b) => b.time - a.time),
    steps: stepStats, opGpu: opGpuTimes(m, from, to, trackOfRow, rowOf, (i) => str(CAT, i)),
  };
}

function firstAtLeast(a: Float64Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Durations per name, to count, sum and take percentiles of. */
class Groups {
  private readonly by = new Map<string, number[]>();
  private total = 0;

  add(name: string, d: number): void {
    let l = this.by.get(name);
    if (!l) this.by.set(name, (l = []));
    l.push(d);
    this.total += d;
  }

  stats(): NameStat[] {
    const out: NameStat[] = [];
    for (const [name, l] of this.by) {
      const sum = l.reduce((a, b) => a + b, 0);
      const sorted = Float64Array.from(l).sort();
      out.push({ name, count: l.length, total: sum, mean: sum / l.length, p95: sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)], share: this.total > 0 ? sum / this.total : 0 });
    }
    return out.sort((a, b) => b.total - a.total);
  }
}

/**
 * The GPU time each CPU operator caused: each flow from a launch (the runtime call) to a GPU item
 * adds that item's time, clipped to the range, to the innermost `cpu_op` enclosing the launch on
 * its thread (TensorBoard's "Device Self/Total Duration" of an operator).
 */
function opGpuTimes(m: TimelineModel, from: number, to: number, trackOfRow: Int32Array, rowOf: Uint32Array, cat: (i: number) => string): OpGpuStat[] {
  const L = m.links;
  const out = new Map<string, OpGpuStat>();
  if (!L) return [];
  const { start, end } = m.items;
  for (let k = 0; k < L.from.length; k++) {
    const f = L.from[k], t = L.to[k];
    if (!GPU_CATS.has(cat(t))) continue;
    const d = Math.max(0, Math.min(end[t], to) - Math.max(start[t], from));
    if (d <= 0) continue;
    const op = cat(f) === 'cpu_op' ? f : enclosing(m, f, trackOfRow, rowOf, (j) => cat(j) === 'cpu_op');
    if (op < 0) continue;
    const n = m.strings[m.items.name[op]];
    const s = out.get(n) ?? { name: n, launches: 0, gpuTime: 0 };
    s.launches++;
    s.gpuTime += d;
    out.set(n, s);
  }
  return [...out.values()].sort((a, b) => b.gpuTime - a.gpuTime);
}

/** The innermost item on the rows above item i's, in its track, that encloses it and passes `ok`; -1 when none. */
function enclosing(m: TimelineModel, i: number, trackOfRow: Int32Array, rowOf: Uint32Array, ok: (j: number) => boolean): number {
  const { start, end } = m.items;
  const r = rowOf[i], track = m.tracks[trackOfRow[r]];
  if (!track) return -1;
  for (let q = r - 1; q >= track.rowStart; q--) {
    const lo = m.rowItemStart[q];
    // From the last item starting at or before i, back while one could still reach it.
    for (let j = upperBound(start, lo, m.rowItemStart[q + 1], start[i]) - 1; j >= lo && start[j] >= start[i] - m.rowMaxDur[q]; j--) if (end[j] >= end[i] && ok(j)) return j;
  }
  return -1;
}

/** The track of each row (-1 for none). */
function rowTracks(m: TimelineModel): Int32Array {
  const out = new Int32Array(m.rowItemStart.length - 1).fill(-1);
  m.tracks.forEach((t, k) => {
    if (t.kind === 'slices') out.fill(k, t.rowStart, t.rowStart + t.rowCount);
  });
  return out;
}

/** The row of each item. */
function rowsOfItems(m: TimelineModel): Uint32Array {
  const out = new Uint32Array(m.items.start.length);
  for (let r = 0; r + 1 < m.rowItemStart.length; r++) out.fill(r, m.rowItemStart[r], m.rowItemStart[r + 1]);
  return out;
}

function trackPath(m: TimelineModel, k: number): string {
  const t = m.tracks[k];
  return t.parent >= 0 ? `${trackPath(m, t.parent)} › ${t.name}` : t.name;
}
