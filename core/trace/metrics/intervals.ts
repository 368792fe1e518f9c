/** Pairs per chunk once a list has grown past its first few small chunks. */
const CHUNK = 4096;

/**
 * A growing list of closed intervals [start, end] on one resource, kept in typed-array chunks of
 * start/end pairs (a 10M-event trace has millions of them: objects would cost ten times the memory,
 * and one array doubled as it grows held up to twice the data plus a copy while growing). Busy time
 * is the length of their union, never their sum: two jobs overlapping on one engine count once.
 * An interval that arrives in order and overlaps or touches the last one is merged into it at once:
 * the union, the only thing read, is the same.
 */
export class Intervals {
  private readonly chunks: Float64Array[] = [];
  private cur = new Float64Array(0);
  /** Numbers used in `cur` (two per pair). */
  private at = 0;
  private n = 0;
  private sorted = true;
  private lastStart = -Infinity;

  /** Pairs stored (after merging). */
  get count(): number {
    return this.n;
  }

  add(start: number, end: number): void {
    if (!(end >= start)) return;
    if (start < this.lastStart) this.sorted = false;
    this.lastStart = start;
    const cur = this.cur;
    const at = this.at;
    // In order and overlapping or touching the last pair (start ≥ its start): one pair.
    if (this.sorted && at > 0 && start <= cur[at - 1]) {
      if (end > cur[at - 1]) cur[at - 1] = end;
      return;
    }
    if (at === cur.length) {
      this.cur = new Float64Array(this.chunks.length < 6 ? (64 << this.chunks.length) * 2 : CHUNK * 2);
      this.chunks.push(this.cur);
      this.at = 0;
    }
    this.cur[this.at++] = start;
    this.cur[this.at++] = end;
    this.n++;
  }

  /**
   * The union as disjoint, ordered [start, end] pairs, clipped to [from, to]. Intervals of length
   * zero add nothing. Out-of-order lists are sorted here, into a copy that lives only for the call.
   */
  union(from = -Infinity, to = Infinity): Float64Array {
    const out = new Merged(2 * this.n);
    if (this.sorted) {
      for (const c of this.chunks) {
        const len = c === this.cur ? this.at : c.length;
        for (let i = 0; i < len; i += 2) out.add(Math.max(c[i], from), Math.min(c[i + 1], to));
      }
      return out.done();
    }
    const s = new Float64Array(this.n);
    const e = new Float64Array(this.n);
    let k = 0;
    for (const c of this.chunks) {
      const len = c === this.cur ? this.at : c.length;
      for (let i = 0; i < len; i += 2, k++) {
        s[k] = c[i];
        e[k] = c[i + 1];
      }
    }
    const idx = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) idx[i] = i;
    idx.sort((a, b) => s[a] - s[b]);
    for (let i = 0; i < this.n; i++) out.add(Math.max(s[idx[i]], from), Math.min(e[idx[i]], to));
    return out.done();
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
  const out = new Merged(a.length + b.length);
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
