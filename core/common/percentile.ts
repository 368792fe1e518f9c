/** Nearest-rank percentile of sorted values: the value at rank ⌈p/100 · N⌉; null for no values. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
