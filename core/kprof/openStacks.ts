// The open STARTs of every lane while a buffer is decoded, in shared typed arrays.

/**
 * Open STARTs, a stack per lane linked through typed arrays: `take` finds the innermost open START
 * of an event (usually the top), unlinks it and frees its node, which stays readable until the
 * next `push`.
 */
export class OpenStacks {
  event: Int32Array;
  slot: Int32Array;
  time: Uint32Array;
  below: Int32Array;
  private readonly top: Int32Array;
  private free = -1;
  private used = 0;

  constructor(lanes: number) {
    this.top = new Int32Array(lanes).fill(-1);
    const cap = Math.min(1 << 16, 4 * lanes + 16);
    this.event = new Int32Array(cap);
    this.slot = new Int32Array(cap);
    this.time = new Uint32Array(cap);
    this.below = new Int32Array(cap);
  }

  push(lane: number, ev: number, slot: number, t: number): void {
    let k = this.free;
    if (k >= 0) this.free = this.below[k];
    else {
      if (this.used === this.event.length) this.grow();
      k = this.used++;
    }
    this.event[k] = ev;
    this.slot[k] = slot;
    this.time[k] = t;
    this.below[k] = this.top[lane];
    this.top[lane] = k;
  }

  /** The node of the innermost open START of `ev` in `lane`, taken off its stack; -1 when none. */
  take(lane: number, ev: number): number {
    let k = this.top[lane];
    let above = -1;
    while (k >= 0 && this.event[k] !== ev) { above = k; k = this.below[k]; }
    if (k < 0) return -1;
    if (above < 0) this.top[lane] = this.below[k];
    else this.below[above] = this.below[k];
    this.below[k] = this.free;
    this.free = k;
    return k;
  }

  /** The lane's open STARTs as flat triples (event, slot, time), outermost first; the stack is left empty. */
  drain(lane: number): number[] {
    const out: number[] = [];
    for (let k = this.top[lane]; k >= 0; k = this.below[k]) out.push(this.event[k], this.slot[k], this.time[k]);
    this.top[lane] = -1;
    const flat: number[] = [];
    for (let i = out.length - 3; i >= 0; i -= 3) flat.push(out[i], out[i + 1], out[i + 2]);
    return flat;
  }

  private grow(): void {
    const cap = this.event.length * 2;
    const g = <T extends Int32Array | Uint32Array>(x: T): T => { const y = new (x.constructor as new (n: number) => T)(cap); y.set(x); return y; };
    this.event = g(this.event); this.slot = g(this.slot); this.time = g(this.time); this.below = g(this.below);
  }
}
