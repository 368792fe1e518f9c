import { lengthOf, UnionBuilder, unionSweep } from '../../common/intervals';

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
  /** While in order: the length of every pair but the last (which may still grow), summed in order. */
  private closed = 0;

  /** Pairs stored (after merging). */
  get count(): number {
    return this.n;
  }

  add(start: number, end: number): void {
    if (!(end >= start)) return;
    if (start < this.lastStart) this.sorted = false;
    this.lastStart = start;
    // A point adds nothing to the union, in order or not: in order, the pairs kept are then the
    // union itself (disjoint, each longer than zero, in order), which `union` copies as it is.
    if (end === start) return;
    const cur = this.cur;
    const at = this.at;
    // In order and overlapping or touching the last pair (start ≥ its start): one pair.
    if (this.sorted && at > 0 && start <= cur[at - 1]) {
      if (end > cur[at - 1]) cur[at - 1] = end;
      return;
    }
    if (at > 0) this.closed += cur[at - 1] - cur[at - 2];
    if (at === cur.length) {
      this.cur = new Float64Array(this.chunks.length < 6 ? (64 << this.chunks.length) * 2 : CHUNK * 2);
      this.chunks.push(this.cur);
      this.at = 0;
    }
    this.cur[this.at++] = start;
    this.cur[this.at++] = end;
    this.n++;
  }

  /** In order (the pairs kept are the union itself) and every pair inside [from, to]; only for a list not empty. */
  private inOrderWithin(from: number, to: number): boolean {
    return this.sorted && this.chunks[0][0] >= from && this.cur[this.at - 1] <= to;
  }

  /**
   * The length of the union clipped to [from, to], as `lengthOf(this.union(from, to))` gives it:
   * summed as the pairs came when they came in order inside the window, with nothing copied (the
   * finish of `stats` of 1M events read hundreds of thousands of pairs for the channels and groups).
   */
  length(from = -Infinity, to = Infinity): number {
    if (this.n === 0) return 0;
    if (this.inOrderWithin(from, to)) return this.closed + (this.cur[this.at - 1] - this.cur[this.at - 2]);
    return lengthOf(this.union(from, to));
  }

  /**
   * The union as disjoint, ordered [start, end] pairs, clipped to [from, to]. Intervals of length
   * zero add nothing. Out-of-order lists are clipped into a copy that lives only for the call, and
   * its starts and ends sorted apart (`unionSweep`).
   */
  union(from = -Infinity, to = Infinity): Float64Array {
    // In order and inside the window (the whole trace's, for `stats` without --from/--to): the
    // pairs as they are, copied natively. The loops below run once per list, in code V8 has not
    // optimized yet: about 3× the time they take warm (the finish of `stats` of 1M events).
    if (this.n > 0 && this.inOrderWithin(from, to)) {
      const out = new Float64Array(2 * this.n);
      let k = 0;
      for (const c of this.chunks) {
        const part = c === this.cur ? c.subarray(0, this.at) : c;
        out.set(part, k);
        k += part.length;
      }
      return out;
    }
    if (this.sorted) {
      const out = new UnionBuilder(2 * this.n);
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
      for (let i = 0; i < len; i += 2) {
        const a = Math.max(c[i], from);
        const b = Math.min(c[i + 1], to);
        if (!(b > a)) continue;
        s[k] = a;
        e[k++] = b;
      }
    }
    return unionSweep(s.subarray(0, k), e.subarray(0, k));
  }
}
