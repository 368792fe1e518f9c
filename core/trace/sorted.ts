/** Sorted arrays of line numbers, as the per-id checks and the index keep them. */

/** Index of the first entry not below `v` in a sorted array. */
export function lowerBound(a: readonly number[], v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insertSorted(a: number[], v: number): void {
  // Lines are entered in order when a document is opened: appending is the common case.
  if (a.length === 0 || a[a.length - 1] < v) a.push(v);
  else a.splice(lowerBound(a, v), 0, v);
}

export function removeSorted(a: number[], v: number): void {
  const at = lowerBound(a, v);
  if (a[at] === v) a.splice(at, 1);
}
