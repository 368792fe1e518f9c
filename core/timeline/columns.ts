import type { ItemColumns } from './model';

type Typed = Float64Array | Float32Array | Uint32Array | Uint8Array;
type Ctor<T extends Typed> = { new (n: number): T };

/** A typed array that grows by doubling, so a builder never holds one JS object per event. */
export class GrowColumn<T extends Typed> {
  data: T;
  length = 0;
  constructor(private readonly ctor: Ctor<T>, capacity = 1024) {
    this.data = new ctor(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new this.ctor(this.data.length * 2);
      d.set(this.data as never);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
  /** Room for `n` values in all, allocated once: a builder that knows its count keeps no doubling slack. */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const d = new this.ctor(n);
    d.set(this.data.subarray(0, this.length) as never);
    this.data = d;
  }
  /** Lets the values go (the column is empty after). */
  release(): void {
    this.data = new this.ctor(0);
    this.length = 0;
  }
  /** A compact copy of the first `length` values, reordered by `order` when given. */
  take(order?: Uint32Array): T {
    const out = new this.ctor(this.length);
    if (order) for (let i = 0; i < order.length; i++) out[i] = this.data[order[i]];
    else out.set(this.data.subarray(0, this.length) as never);
    return out;
  }
}

/** Whether `order` names every place once (`seen`: zeroed, as long as `order`). */
function isPermutation(order: Uint32Array, seen: Uint8Array): boolean {
  for (let k = 0; k < order.length; k++) {
    const j = order[k];
    if (j >= seen.length || seen[j]) return false;
    seen[j] = 1;
  }
  return true;
}

/** `data` reordered in place so that item k is the one that was at `order[k]` (a permutation); returns `data`. */
function permute<T extends Typed>(data: T, order: Uint32Array, visited: Uint8Array): T {
  for (let k = 0; k < order.length; k++) {
    if (visited[k]) continue;
    // Follow the cycle through k: each place takes the value of the place it names.
    const first = data[k];
    let j = k;
    for (;;) {
      visited[j] = 1;
      const next = order[j];
      if (next === k) {
        data[j] = first;
        break;
      }
      data[j] = data[next];
      j = next;
    }
  }
  return data;
}

export class ItemBuffer {
  readonly start = new GrowColumn(Float64Array);
  readonly end = new GrowColumn(Float64Array);
  readonly line = new GrowColumn(Uint32Array);
  readonly endLine = new GrowColumn(Uint32Array);
  readonly name = new GrowColumn(Uint32Array);
  readonly id = new GrowColumn(Float64Array);
  readonly ctx = new GrowColumn(Uint32Array);
  readonly bytes = new GrowColumn(Float32Array);
  readonly kind = new GrowColumn(Uint8Array);
  readonly flags = new GrowColumn(Uint8Array);
  /** Track of each item (not sent: rows replace it). */
  readonly track = new GrowColumn(Uint32Array);

  get length(): number {
    return this.start.length;
  }

  /** Room for `n` items in all (see GrowColumn.reserve). */
  reserve(n: number): void {
    for (const c of [this.start, this.end, this.line, this.endLine, this.name, this.id, this.ctx, this.bytes, this.kind, this.flags, this.track]) c.reserve(n);
  }

  /** The model's columns in `order`; with `release`, each column here is let go once copied (the buffer is empty after). */
  take(order: Uint32Array, release = false): ItemColumns {
    // Columns sized exactly (reserve) are reordered in place when let go: no second copy of them all.
    const n = this.length;
    const visited = release && order.length === n ? new Uint8Array(n) : undefined;
    const inPlace = !!visited && isPermutation(order, visited);
    const take = <T extends Typed>(c: GrowColumn<T>): T => {
      if (!release) return c.take(order);
      const out = inPlace && c.data.length === n ? permute(c.data, order, visited!.fill(0)) : c.take(order);
      c.release();
      return out;
    };
    const out = {
      start: take(this.start), end: take(this.end), line: take(this.line), endLine: take(this.endLine),
      name: take(this.name), id: take(this.id), ctx: take(this.ctx), bytes: take(this.bytes),
      kind: take(this.kind), flags: take(this.flags),
    };
    if (release) this.track.release();
    return out;
  }
}
