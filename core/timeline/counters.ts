import { FLAG, type Counter, type ItemColumns, type TrackInfo } from './model';
import { COUNTER_BUCKETS } from './counterBuckets';
import { sampledCounter } from './sampledCounter';

/**
 * A counter derived from the items of some tracks: `busy` = fraction of each bucket during which
 * the tracks were busy (averaged over the tracks, capped at 1); `bytes` = bytes per cycle, each
 * item's bytes spread evenly over its duration.
 */
export interface CounterSpec {
  /** `samples`: values a file gives (Chrome `C` events), see sampledCounter.ts. */
  mode: 'busy' | 'bytes' | 'samples';
  /** Builder-side track ids (as returned by TimelineAssembler.track). */
  sources: number[];
  samples?: { t: number[]; v: number[] };
  /** The unit of `samples` (the key of the Chrome `C` args they came under). */
  unit?: string;
}


export function computeCounter(
  spec: CounterSpec, name: string, items: ItemColumns, tracks: readonly TrackInfo[], rowItemStart: Uint32Array,
  t0: number, t1: number, trackOfOld: (t: number) => number,
): Counter {
  if (spec.mode === 'samples') return sampledCounter(spec.samples ?? { t: [], v: [] }, name, t0, t1, spec.unit);
  const span = t1 - t0;
  const n = span > 0 ? Math.min(COUNTER_BUCKETS, Math.max(1, Math.ceil(span))) : 1;
  const w = span > 0 ? span / n : 1;
  const acc = new Float64Array(n);
  for (const src of spec.sources) {
    const tr = tracks[trackOfOld(src)];
    for (let r = tr.rowStart; r < tr.rowStart + tr.rowCount; r++) {
      for (let i = rowItemStart[r]; i < rowItemStart[r + 1]; i++) {
        if (items.flags[i] & FLAG.instant) continue;
        const s = items.start[i], e = items.end[i];
        const weight = spec.mode === 'busy' ? 1 : e > s ? items.bytes[i] / (e - s) : 0;
        if (e <= s) {
          // A zero-length transfer still moved its bytes: count them in its bucket.
          if (spec.mode === 'bytes') acc[Math.min(n - 1, Math.floor((s - t0) / w))] += items.bytes[i];
          continue;
        }
        let b = Math.max(0, Math.floor((s - t0) / w));
        const bEnd = Math.min(n - 1, Math.floor((e - t0) / w));
        for (; b <= bEnd; b++) {
          const lo = Math.max(s, t0 + b * w), hi = Math.min(e, t0 + (b + 1) * w);
          if (hi > lo) acc[b] += (hi - lo) * weight;
        }
      }
    }
  }
  const values = new Float32Array(n);
  const k = spec.mode === 'busy' ? Math.max(1, spec.sources.length) : 1;
  for (let b = 0; b < n; b++) values[b] = spec.mode === 'busy' ? Math.min(1, acc[b] / w / k) : acc[b] / w;
  return { name, unit: spec.mode === 'busy' ? 'fraction' : 'bytes/cycle', t0, bucket: w, values };
}
