// The two-sample test of `npu-trace diff`: Mann–Whitney U (Wilcoxon rank-sum), two-sided. It asks
// whether one run's durations tend to be larger than the other's without assuming a distribution
// (kernel and command times are skewed and multi-modal), and fits per-item durations as they are.

/** Below this many items in each run and without ties, the p-value is exact (the U distribution). */
export const EXACT_MAX = 20;

/**
 * The two-sided p-value that `a` and `b` come from one distribution. Exact for small samples
 * without ties; else the normal approximation with the tie correction of the variance and a
 * continuity correction. Null when a sample is empty; 1 when every value is the same.
 */
export function mannWhitneyU(a: ArrayLike<number>, b: ArrayLike<number>): { u: number; p: number | null } {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return { u: 0, p: null };
  const x = Float64Array.from(a).sort();
  const y = Float64Array.from(b).sort();
  // Merge the two sorted samples: each run of equal values takes the average of its ranks.
  let i = 0, j = 0, rank = 1, r1 = 0, ties = 0;
  while (i < n1 || j < n2) {
    const v = j >= n2 || (i < n1 && x[i] <= y[j]) ? x[i] : y[j];
    let ta = 0, tb = 0;
    while (i < n1 && x[i] === v) {
      i++;
      ta++;
    }
    while (j < n2 && y[j] === v) {
      j++;
      tb++;
    }
    const t = ta + tb;
    r1 += ta * (rank + (t - 1) / 2);
    if (t > 1) ties += t * t * t - t;
    rank += t;
  }
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  if (ties === 0 && n1 <= EXACT_MAX && n2 <= EXACT_MAX) return { u, p: exactP(u, n1, n2) };
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  if (!(variance > 0)) return { u, p: 1 };
  const z = Math.max(0, Math.abs(u - (n1 * n2) / 2) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, erfc(z / Math.SQRT2)) };
}

/**
 * The exact two-sided p-value of U = u: the counts of U over all C(n1+n2, n1) orderings are the
 * coefficients of the Gaussian binomial [n1+n2 choose n1]_q, built by its Pascal rule.
 */
function exactP(u: number, n1: number, n2: number): number {
  const counts = uCounts(n1, n2);
  let total = 0, below = 0, above = 0;
  for (let d = 0; d < counts.length; d++) {
    const c = counts[d];
    total += c;
    if (d <= u) below += c;
    if (d >= u) above += c;
  }
  return Math.min(1, (2 * Math.min(below, above)) / total);
}

// The counts depend on the sizes only: many small groups of a run share a few of them.
const countsCache = new Map<number, Float64Array>();

function uCounts(n1: number, n2: number): Float64Array {
  const key = n1 * 1000 + n2;
  const hit = countsCache.get(key);
  if (hit) return hit;
  // f[k] is the polynomial [m choose k]_q for the current m, k ≤ n1.
  let f: Float64Array[] = [Float64Array.of(1)];
  for (let m = 1; m <= n1 + n2; m++) {
    const g: Float64Array[] = [];
    for (let k = 0; k <= Math.min(m, n1); k++) {
      // [m, k] = [m-1, k-1] + q^k [m-1, k]
      const deg = k * (m - k);
      const p = new Float64Array(deg + 1);
      const left = k > 0 ? f[k - 1] : undefined;
      const right = k < m ? f[k] : undefined;
      if (left) for (let d = 0; d < left.length && d <= deg; d++) p[d] += left[d];
      if (right) for (let d = 0; d < right.length && d + k <= deg; d++) p[d + k] += right[d];
      g.push(p);
    }
    f = g;
  }
  countsCache.set(key, f[n1]);
  return f[n1];
}

/** The complementary error function (Numerical Recipes' erfcc: relative error below 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

/**
 * Benjamini–Hochberg adjusted p-values (the false discovery rate over the groups compared): the
 * i-th smallest of m becomes min over j ≥ i of p(j)·m/j. Nulls stay null and do not count in m.
 */
export function benjaminiHochberg(ps: readonly (number | null)[]): (number | null)[] {
  const idx: number[] = [];
  for (let i = 0; i < ps.length; i++) if (ps[i] !== null) idx.push(i);
  idx.sort((x, y) => ps[x]! - ps[y]!);
  const m = idx.length;
  const out: (number | null)[] = ps.map(() => null);
  let min = 1;
  for (let r = m - 1; r >= 0; r--) {
    min = Math.min(min, (ps[idx[r]]! * m) / (r + 1));
    out[idx[r]] = min;
  }
  return out;
}
