/**
 * A growing list of closed intervals [start, end] on one resource, kept as two typed arrays (a 10M
 * event trace has millions of them; objects would cost ten times the memory). Busy time is the
 * length of their union, never their sum: two jobs overlapping on one engine count once.
 */
export class Intervals {
  private s = new Float64Array(64);
  private e = new Float64Array(64);
  private n = 0;
  private sorted = true;

  get count(): number {
    return this.n;
  }

  add(start: number, end: number): void {
    if (!(end >= start)) return;
    if (this.n === this.s.length) {
      const s = new Float64Array(this.n * 2);
      const e = new Float64Array(this.n * 2);
      s.set(this.s);
      e.set(this.e);
      this.s = s;
      this.e = e;
    }
    if (this.n > 0 && start < this.s[this.n - 1]) this.sorted = false;
    this.s[this.n] = start;
    this.e[this.n] = end;
    this.n++;
  }

  /**
   * The union as disjoint, ordered [start, end] pairs, clipped to [from, to]. Intervals of length
   * zero add nothing. Sorting happens once, on first use.
   */
  union(from = -Infinity, to = Infinity): Float64Array {
    this.sort();
    const out = new Merged();
    for (let i = 0; i < this.n; i++) out.add(Math.max(this.s[i], from), Math.min(this.e[i], to));
    return out.done();
  }

  private sort(): void {
    if (this.sorted) return;
    const idx = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) idx[i] = i;
    const s = this.s;
    idx.sort((a, b) => s[a] - s[b]);
    const ns = new Float64Array(this.s.length);
    const ne = new Float64Array(this.e.length);
    for (let i = 0; i < this.n; i++) {
      ns[i] = this.s[idx[i]];
      ne[i] = this.e[idx[i]];
    }
    this.s = ns;
    this.e = ne;
    this.sorted = true;
  }
}

/** Total length of a union given as disjoint ordered pairs. */
export function lengthOf(u: Float64Array): number {
  let t = 0;
  for (let i = 0; i < u.length; i += 2) t += u[i + 1] - u[i];
  return t;
}

/** Union of two unions (disjoint ordered pairs each), as disjoint ordered pairs. */
export function unite(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Merged();
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

/** Disjoint ordered pairs built from intervals fed in order of their starts; empty ones add nothing. */
class Merged {
  private readonly out: number[] = [];
  private cs = NaN;
  private ce = NaN;

  add(s: number, e: number): void {
    if (!(e > s)) return;
    if (this.cs === this.cs && s <= this.ce) {
      if (e > this.ce) this.ce = e;
      return;
    }
    if (this.cs === this.cs) this.out.push(this.cs, this.ce);
    this.cs = s;
    this.ce = e;
  }

  done(): Float64Array {
    if (this.cs === this.cs) this.out.push(this.cs, this.ce);
    return Float64Array.from(this.out);
  }
}

/** The parts of [from, to] not covered by `u` (disjoint ordered pairs), as disjoint ordered pairs. */
export function complement(u: Float64Array, from: number, to: number): Float64Array {
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

/** Length of the overlap of two unions. */
export function overlapLength(a: Float64Array, b: Float64Array): number {
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
