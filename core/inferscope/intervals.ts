/**
 * Intervals in two growable Float64Arrays: the analysis of a million events keeps several lists
 * of them, which as `[start, end]` tuples cost ~10× the bytes and kept a streamed 600 MB trace's
 * analysis above 1 GB of RSS.
 */
export class IntervalList {
  starts: Float64Array;
  ends: Float64Array;
  length = 0;

  /** Room for `capacity` intervals before it grows. */
  constructor(capacity = 1024) {
    this.starts = new Float64Array(Math.max(1, capacity));
    this.ends = new Float64Array(Math.max(1, capacity));
  }

  push(a: number, b: number): void {
    if (this.length === this.starts.length) {
      const grow = (x: Float64Array) => {
        const y = new Float64Array(x.length * 2);
        y.set(x);
        return y;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.starts[this.length] = a;
    this.ends[this.length++] = b;
  }

  /** Indexes by start; equal starts keep their order (as a stable sort of tuples would). */
  order(): Uint32Array {
    const idx = new Uint32Array(this.length);
    for (let i = 0; i < idx.length; i++) idx[i] = i;
    const s = this.starts;
    return idx.sort((x, y) => s[x] - s[y] || x - y);
  }

  /** Total length of the union. */
  unionLength(): number {
    let total = 0;
    let s = -Infinity;
    let e = -Infinity;
    for (const i of this.order()) {
      const a = this.starts[i];
      const b = this.ends[i];
      if (a > e) {
        if (e > s) total += e - s;
        s = a;
        e = b;
      } else if (b > e) e = b;
    }
    if (e > s) total += e - s;
    return total;
  }

  /** Sorted, disjoint intervals covering the same time. */
  merged(): IntervalList {
    const out = new IntervalList();
    for (const i of this.order()) {
      const a = this.starts[i];
      const b = this.ends[i];
      const last = out.length - 1;
      if (last >= 0 && a <= out.ends[last]) out.ends[last] = Math.max(out.ends[last], b);
      else out.push(a, b);
    }
    return out;
  }

  /** This list and `others` in one. */
  concat(...others: IntervalList[]): IntervalList {
    const all = [this, ...others];
    const out = new IntervalList(all.reduce((n, l) => n + l.length, 0));
    for (const l of all) for (let i = 0; i < l.length; i++) out.push(l.starts[i], l.ends[i]);
    return out;
  }
}
