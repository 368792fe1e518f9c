/** A binary min-heap of entry indexes keyed by (time, index): the ready list of the scheduler. */
export class ReadyHeap {
  private readonly items: number[] = [];

  constructor(private readonly key: Float64Array) {}

  get size(): number {
    return this.items.length;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a], kb = this.key[b];
    return ka < kb || (ka === kb && a < b);
  }

  push(i: number): void {
    const h = this.items;
    let c = h.length;
    h.push(i);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (!this.less(h[c], h[p])) break;
      [h[c], h[p]] = [h[p], h[c]];
      c = p;
    }
  }

  pop(): number {
    const h = this.items;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1, r = l + 1;
        let m = p;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === p) break;
        [h[m], h[p]] = [h[p], h[m]];
        p = m;
      }
    }
    return top;
  }
}
