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
  /** A compact copy of the first `length` values, reordered by `order` when given. */
  take(order?: Uint32Array): T {
    const out = new this.ctor(this.length);
    if (order) for (let i = 0; i < order.length; i++) out[i] = this.data[order[i]];
    else out.set(this.data.subarray(0, this.length) as never);
    return out;
  }
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

  take(order: Uint32Array): ItemColumns {
    return {
      start: this.start.take(order), end: this.end.take(order), line: this.line.take(order), endLine: this.endLine.take(order),
      name: this.name.take(order), id: this.id.take(order), ctx: this.ctx.take(order), bytes: this.bytes.take(order),
      kind: this.kind.take(order), flags: this.flags.take(order),
    };
  }
}
