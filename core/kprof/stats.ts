// Per-region statistics: for each event (and per block or group of it), count, total, mean, min,
// p50, p95, max and standard deviation of the region durations. Percentiles by nearest rank (the
// value at rank ⌈p/100 · N⌉, as `npu-trace stats`), found by selection, not by sorting.
import type { Decoded } from './decode';
import { eventName } from './names';

export interface RegionStat {
  event: number;
  name: string;
  /** The block or group for a per-block/per-group table; -1 in the per-event table. */
  of: number;
  count: number;
  totalNs: number;
  meanNs: number;
  minNs: number;
  p50Ns: number;
  p95Ns: number;
  maxNs: number;
  /** Population standard deviation. */
  stdNs: number;
}

export type StatsBy = 'event' | 'block' | 'group';

export function regionStats(d: Decoded, by: StatsBy = 'event', only?: (region: number) => boolean): RegionStat[] {
  return regionStatsLimited(d, by, Infinity, only).rows;
}

/**
 * The first `limit` rows in (event, block or group) order, and how many there are in all: only
 * those rows are built (events × blocks of a persistent kernel can be millions of rows, and an
 * object per row cost 1.7 GB for 4M of them).
 */
export function regionStatsLimited(d: Decoded, by: StatsBy, limit: number, only?: (region: number) => boolean, clip?: readonly [from: number, to: number]): { rows: RegionStat[]; total: number } {
  const n = d.regionCount;
  const keyIndex = new Map<number, number>();
  const keys: number[] = [];
  const groupOf = new Int32Array(n);
  const sub = (lane: number) => (by === 'block' ? Math.floor(lane / d.numGroups) : by === 'group' ? lane % d.numGroups : 0);
  const width = by === 'block' ? d.numBlocks : by === 'group' ? d.numGroups : 1;
  for (let i = 0; i < n; i++) {
    if (only && !only(i)) { groupOf[i] = -1; continue; }
    const key = d.regEvent[i] * width + sub(d.regLane[i]);
    let k = keyIndex.get(key);
    if (k === undefined) { k = keys.length; keys.push(key); keyIndex.set(key, k); }
    groupOf[i] = k;
  }
  const counts = new Int32Array(keys.length + 1);
  for (let i = 0; i < n; i++) if (groupOf[i] >= 0) counts[groupOf[i] + 1]++;
  for (let k = 0; k < keys.length; k++) counts[k + 1] += counts[k];
  const durs = new Float64Array(counts[keys.length]);
  const fill = counts.slice(0, keys.length);
  // With `clip`, a region counts only its time inside [from, to] (a range of the timeline).
  const lo = clip ? clip[0] : -Infinity, hi = clip ? clip[1] : Infinity;
  for (let i = 0; i < n; i++) if (groupOf[i] >= 0) durs[fill[groupOf[i]]++] = Math.min(d.regEnd[i], hi) - Math.max(d.regStart[i], lo);
  // A key is event × width + block or group, so key order is (event, block or group) order.
  const sorted = Float64Array.from(keys).sort();
  const out: RegionStat[] = [];
  for (let r = 0; r < sorted.length && r < limit; r++) {
    const k = keyIndex.get(sorted[r])!;
    const xs = durs.subarray(counts[k], counts[k + 1]);
    const c = xs.length;
    let total = 0, min = Infinity, max = -Infinity;
    for (let i = 0; i < c; i++) { const x = xs[i]; total += x; if (x < min) min = x; if (x > max) max = x; }
    const mean = total / c;
    let sq = 0;
    for (let i = 0; i < c; i++) sq += (xs[i] - mean) ** 2;
    const event = Math.floor(keys[k] / width);
    out.push({
      event, name: eventName(d.names, event), of: by === 'event' ? -1 : keys[k] % width,
      count: c, totalNs: total, meanNs: mean, minNs: min, p50Ns: nearestRank(xs, 50), p95Ns: nearestRank(xs, 95), maxNs: max, stdNs: Math.sqrt(sq / c),
    });
  }
  return { rows: out, total: keys.length };
}

/** The value at rank ⌈p/100 · N⌉ (1-based); reorders `xs`. */
export function nearestRank(xs: Float64Array, p: number): number {
  const k = Math.max(0, Math.ceil((p / 100) * xs.length) - 1);
  return select(xs, k);
}

/** Hoare's selection: the k-th smallest (0-based) in linear expected time; partially sorts `a`. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) { const t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
