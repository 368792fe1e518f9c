/**
 * The interval algebra every format's metrics use. A union is a flat list of disjoint, ordered
 * [start, end) pairs (`[s0, e0, s1, e1, …]`, typed arrays preferred: a 10M-event trace holds
 * millions of them); intervals of length zero add nothing to it.
 */

/** A union as disjoint, ordered pairs (start, end) flattened. */
export type Union = ArrayLike<number>;

/** Builds a union from intervals fed in order of their starts; overlapping or touching ones merge. */
export class UnionBuilder {
  private readonly out: Float64Array;
  private n = 0;
  private cs = NaN;
  private ce = NaN;

  /** `max`: numbers the result can hold at most (two per input interval). */
  constructor(max: number) {
    this.out = new Float64Array(max);
  }

  add(s: number, e: number): void {
    if (!(e > s)) return;
    if (this.cs === this.cs && s <= this.ce) {
      if (e > this.ce) this.ce = e;
      return;
    }
    if (this.cs === this.cs) {
      this.out[this.n++] = this.cs;
      this.out[this.n++] = this.ce;
    }
    this.cs = s;
    this.ce = e;
  }

  done(): Float64Array {
    if (this.cs === this.cs) {
      this.out[this.n++] = this.cs;
      this.out[this.n++] = this.ce;
    }
    // A copy of the used part: the result may outlive the call, the bound need not.
    return this.out.slice(0, this.n);
  }
}

/** The union of intervals given in any order as `starts[i]`–`ends[i]` (neither array is changed). */
export function unionOf(starts: ArrayLike<number>, ends: ArrayLike<number>, count = starts.length): Float64Array {
  const out = new UnionBuilder(2 * count);
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) sorted = starts[i] >= starts[i - 1];
  // Intervals mostly come in order of their starts (regions as a lane wrote them): no sort then.
  if (sorted) {
    for (let i = 0; i < count; i++) out.add(starts[i], ends[i]);
    return out.done();
  }
  const s = new Float64Array(count);
  const e = new Float64Array(count);
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (!(ends[i] > starts[i])) continue;
    s[n] = starts[i];
    e[n++] = ends[i];
  }
  return unionSweep(s.subarray(0, n), e.subarray(0, n));
}

/**
 * The union of intervals `[s[i], e[i]]` given in any order, each with `e[i] > s[i]`, as the
 * UnionBuilder gives it from them in order of their starts: `s` and `e` are each sorted in place,
 * alone (a native numeric sort, several times faster than ordering the intervals by a comparator),
 * and swept together (`runsOfSorted`).
 */
export function unionSweep(s: Float64Array, e: Float64Array): Float64Array {
  const out = new Float64Array(2 * s.length);
  let k = 0;
  runsOfSorted(s.sort(), e.sort(), (from, to) => {
    out[k++] = from;
    out[k++] = to;
  });
  return out.slice(0, k);
}

/** Total length of a union. */
export function lengthOf(u: Union): number {
  let t = 0;
  for (let i = 0; i < u.length; i += 2) t += u[i + 1] - u[i];
  return t;
}

/** Length of the union of two unions, without building it (the same sum as `lengthOf(unite(a, b))`). */
export function unitedLength(a: Union, b: Union): number {
  let i = 0;
  let j = 0;
  let t = 0;
  let cs = NaN;
  let ce = NaN;
  while (i < a.length || j < b.length) {
    let s: number;
    let e: number;
    if (j >= b.length || (i < a.length && a[i] <= b[j])) {
      s = a[i];
      e = a[i + 1];
      i += 2;
    } else {
      s = b[j];
      e = b[j + 1];
      j += 2;
    }
    if (cs === cs && s <= ce) {
      if (e > ce) ce = e;
      continue;
    }
    if (cs === cs) t += ce - cs;
    cs = s;
    ce = e;
  }
  return cs === cs ? t + (ce - cs) : t;
}

/** Union of two unions. */
export function unite(a: Union, b: Union): Float64Array {
  const out = new UnionBuilder(a.length + b.length);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] <= b[j])) {
      out.add(a[i], a[i + 1]);
      i += 2;
    } else {
      out.add(b[j], b[j + 1]);
      j += 2;
    }
  }
  return out.done();
}

/** Intersection of two unions. */
export function intersect(a: Union, b: Union): Float64Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i], b[j]);
    const e = Math.min(a[i + 1], b[j + 1]);
    if (e > s) out.push(s, e);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return Float64Array.from(out);
}

/** Length of the intersection of two unions, without building it. */
export function intersectionLength(a: Union, b: Union): number {
  let i = 0;
  let j = 0;
  let t = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i], b[j]);
    const e = Math.min(a[i + 1], b[j + 1]);
    if (e > s) t += e - s;
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return t;
}

/** The parts of [from, to] not covered by the union `u`. */
export function complement(u: Union, from: number, to: number): Float64Array {
  const out: number[] = [];
  let at = from;
  for (let i = 0; i < u.length; i += 2) {
    const s = Math.max(u[i], from);
    const e = Math.min(u[i + 1], to);
    if (e <= s) continue;
    if (s > at) out.push(at, s);
    at = Math.max(at, e);
  }
  if (to > at) out.push(at, to);
  return Float64Array.from(out);
}

/**
 * Calls `run` for each maximal run of overlapping or touching intervals (each start ≤ its end), in
 * time order, given their starts and their ends each sorted ascending on their own: a sweep with a
 * count of the intervals open (at one time, starts before ends, so touching intervals join). It
 * needs no index array and no comparator sort, which a million intervals make costly.
 */
export function runsOfSorted(starts: ArrayLike<number>, ends: ArrayLike<number>, run: (start: number, end: number) => void): void {
  const n = starts.length;
  let open = 0;
  let from = 0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    // Every interval open has ended once as many ends as starts are passed: those ends are theirs.
    for (; ends[j] < starts[i]; j++) if (--open === 0) run(from, ends[j]);
    if (open++ === 0) from = starts[i];
  }
  for (; j < n; j++) if (--open === 0) run(from, ends[j]);
}
