import type { Counter } from './model';
import { COUNTER_BUCKETS } from './counterBuckets';

/**
 * A counter from values a file gives at instants (Chrome `C` events): each value holds until the
 * next sample, and a bucket gets the time-weighted mean of what held during it. Samples need not
 * be sorted. Drawn as a bar chart scaled to its largest value; `unit` says what the values are
 * (a Chrome `C` event's args key), never `bytes/cycle`, which they are not.
 */
export function sampledCounter(samples: { t: number[]; v: number[] }, name: string, t0: number, t1: number, unit = 'value'): Counter {
  const span = t1 - t0;
  const n = span > 0 ? Math.min(COUNTER_BUCKETS, Math.max(1, samples.t.length)) : 1;
  const w = span > 0 ? span / n : 1;
  const order = samples.t.map((_, k) => k).sort((a, b) => samples.t[a] - samples.t[b] || a - b);
  const acc = new Float64Array(n);
  for (let j = 0; j < order.length; j++) {
    const s = samples.t[order[j]], v = samples.v[order[j]];
    const e = j + 1 < order.length ? samples.t[order[j + 1]] : t1;
    if (span <= 0) {
      acc[0] = v * w;
      continue;
    }
    if (e <= s) continue;
    let b = Math.max(0, Math.floor((s - t0) / w));
    const bEnd = Math.min(n - 1, Math.floor((e - t0) / w));
    for (; b <= bEnd; b++) {
      const lo = Math.max(s, t0 + b * w), hi = Math.min(e, t0 + (b + 1) * w);
      if (hi > lo) acc[b] += (hi - lo) * v;
    }
  }
  const values = new Float32Array(n);
  for (let b = 0; b < n; b++) values[b] = acc[b] / w;
  return { name, unit, t0, bucket: w, values };
}
