/**
 * Binary searches over a sorted run of a Float64Array column (an item's start or end times in a
 * timeline row): the one pair the timeline builders, the exports and the page share. Typed for
 * Float64Array only, so each stays monomorphic where it is hot (drawing, picking).
 */

/** First index in [lo, hi) whose value in `a` is at least `x` (`a` sorted there). */
export function lowerBound(a: Float64Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose value in `a` is above `x` (`a` sorted there). */
export function upperBound(a: Float64Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
