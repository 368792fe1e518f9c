import type { Id } from '../line';

/**
 * The STARTs still waiting for their END, as slots of typed arrays reused through a free list: a
 * trace opens a span every other event, and an object per span cost a tenth of the pass in garbage
 * collection. The maps (one per kind, the ids' namespace) hold slot numbers.
 */
export class OpenSpans {
  t = new Float64Array(256);
  /** NaN when the START had no size_bytes. */
  size = new Float64Array(256);
  npu = new Float64Array(256);
  core = new Float64Array(256);
  channel = new Float64Array(256);
  direction: (string | undefined)[] = [];
  cmd: (Id | undefined)[] = [];
  private free: number[] = [];
  private used = 0;

  /** A slot for a new span (its fields are set by the caller). */
  take(): number {
    if (this.free.length) return this.free.pop()!;
    if (this.used === this.t.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.t = grow(this.t);
      this.size = grow(this.size);
      this.npu = grow(this.npu);
      this.core = grow(this.core);
      this.channel = grow(this.channel);
    }
    return this.used++;
  }

  release(slot: number): void {
    this.direction[slot] = undefined;
    this.cmd[slot] = undefined;
    this.free.push(slot);
  }
}
