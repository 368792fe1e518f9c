/**
 * A map from ids to non-negative int32 values for tables that take and drop an entry per event:
 * the spans still open, by id, of the one-pass metrics (trace/metrics/collector.ts) and of the NPU
 * timeline's builder (trace/timeline.ts), each START set and each END got and deleted. In place of
 * a Map there, one-thread `stats` of the 1M-event trace took 1000 against 1130 ms (CPU 1310
 * against 1470; 15 alternated cold runs), the timeline worker's model of it 1911 against 2107 ms
 * (7 alternated builds); CONTRIBUTING.md (Benchmarks) says where it gained nothing. Int32 keys
 * live in typed arrays (open addressing, linear probing, deletion by shifting back, so no
 * tombstones); any other key (a string, a fraction, a big integer) in a Map beside them, so the
 * keys are those of a Map (SameValueZero: -0 is 0).
 */

/**
 * An odd multiplier of this process's own: the hash only orders the probes, never a result, and
 * ids crafted to fill one probe run cannot be made without knowing it.
 */
const MULT = (Math.floor(Math.random() * 2 ** 31) * 2 + 1) | 0;

export class IntKeyed {
  /** Value + 1 per slot, 0 for an empty one. */
  private vals: Int32Array;
  private keys: Int32Array;
  private shift: number;
  private count = 0;
  private readonly other = new Map<number | string, number>();

  constructor() {
    this.vals = new Int32Array(64);
    this.keys = new Int32Array(64);
    this.shift = 32 - 6;
  }

  get size(): number {
    return this.count + this.other.size;
  }

  get(k: number | string): number | undefined {
    if (typeof k !== 'number' || (k | 0) !== k) return this.other.size === 0 ? undefined : this.other.get(k);
    const s = this.find(k);
    return s < 0 ? undefined : this.vals[s] - 1;
  }

  /** Sets `k` to `v` (0 ≤ v < 2^31 − 1). */
  set(k: number | string, v: number): void {
    if (typeof k !== 'number' || (k | 0) !== k) {
      this.other.set(k, v);
      return;
    }
    const mask = this.vals.length - 1;
    let s = this.home(k);
    for (; this.vals[s] !== 0; s = (s + 1) & mask) {
      if (this.keys[s] === k) {
        this.vals[s] = v + 1;
        return;
      }
    }
    this.keys[s] = k;
    this.vals[s] = v + 1;
    // At most half full: a probe for a key not there ends after ~2.5 slots.
    if (++this.count * 2 > this.vals.length) this.grow();
  }

  delete(k: number | string): void {
    if (typeof k !== 'number' || (k | 0) !== k) {
      if (this.other.size !== 0) this.other.delete(k);
      return;
    }
    let i = this.find(k);
    if (i < 0) return;
    this.count--;
    // Each entry after the hole in its run moves back into it unless its home lies after the hole.
    const mask = this.vals.length - 1;
    for (let j = (i + 1) & mask; this.vals[j] !== 0; j = (j + 1) & mask) {
      const h = this.home(this.keys[j]);
      if (i <= j ? i < h && h <= j : i < h || h <= j) continue;
      this.keys[i] = this.keys[j];
      this.vals[i] = this.vals[j];
      i = j;
    }
    this.vals[i] = 0;
  }

  private home(k: number): number {
    return Math.imul(k ^ (k >>> 16), MULT) >>> this.shift;
  }

  private find(k: number): number {
    const mask = this.vals.length - 1;
    for (let s = this.home(k); this.vals[s] !== 0; s = (s + 1) & mask) if (this.keys[s] === k) return s;
    return -1;
  }

  private grow(): void {
    const vals = this.vals, keys = this.keys;
    this.vals = new Int32Array(vals.length * 2);
    this.keys = new Int32Array(vals.length * 2);
    this.shift--;
    const mask = this.vals.length - 1;
    for (let j = 0; j < vals.length; j++) {
      if (vals[j] === 0) continue;
      let s = this.home(keys[j]);
      while (this.vals[s] !== 0) s = (s + 1) & mask;
      this.keys[s] = keys[j];
      this.vals[s] = vals[j];
    }
  }
}

/**
 * A Map from ids to values, in the order a Map keeps them (a key's place is where it was set
 * while absent), over an IntKeyed index of slots: for tables that take and drop an entry per
 * event and are read in order only at the end (the checker's STARTs still open: trace/checker.ts;
 * on one thread the check of the 1M-event trace took 1000 ms against 1280 with a Map, CPU 1140
 * against 1520, 21 alternated cold runs).
 */
export class IdTable<V> {
  private readonly index = new IntKeyed();
  private readonly vals: (V | undefined)[] = [];
  private readonly keys: (number | string | undefined)[] = [];
  /** When each slot's key was set while absent: the order of `entries`. */
  private readonly since: number[] = [];
  private readonly free: number[] = [];
  private sets = 0;

  get size(): number {
    return this.index.size;
  }

  get(k: number | string): V | undefined {
    const s = this.index.get(k);
    return s === undefined ? undefined : this.vals[s];
  }

  set(k: number | string, v: V): void {
    const s = this.index.get(k);
    if (s !== undefined) {
      this.vals[s] = v;
      return;
    }
    const n = this.free.length > 0 ? this.free.pop()! : this.vals.length;
    this.vals[n] = v;
    this.keys[n] = k;
    this.since[n] = this.sets++;
    this.index.set(k, n);
  }

  delete(k: number | string): void {
    const s = this.index.get(k);
    if (s === undefined) return;
    this.index.delete(k);
    this.vals[s] = undefined;
    this.keys[s] = undefined;
    this.free.push(s);
  }

  /** The entries in a Map's order. */
  entries(): [number | string, V][] {
    const live: number[] = [];
    for (let s = 0; s < this.keys.length; s++) if (this.keys[s] !== undefined) live.push(s);
    live.sort((a, b) => this.since[a] - this.since[b]);
    return live.map((s) => [this.keys[s]!, this.vals[s]!]);
  }
}
