/**
 * An exact index from keys to the first numbered entry that has them, in one Int32Array: the keys
 * are not copied in, they are read back from wherever the entries already hold them (`keyOf`). A
 * Map of a million ids costs ~40 MB of heap plus the garbage of its growth, never collected
 * before the peak of a streamed check; this costs 8 MB, allocated once when the count is known.
 * Open addressing with linear probing on a 32-bit hash; a hash match is only a candidate, the
 * keys are compared, so two keys are never taken for one.
 */

/**
 * A start state of this process's own: FNV-1a is not keyed, so ids crafted to collide (published
 * pairs such as "costarring" / "liquid", or a file built to fill one probe run) would make a hostile
 * trace's duplicate check quadratic. Results never depend on it: a hash only orders the probes.
 */
const SEED = (0x811c9dc5 ^ Math.floor(Math.random() * 2 ** 32)) >>> 0;

/** FNV-1a over a string's UTF-16 code units (lone surrogates included, as any other unit), from this process's seed. */
export function hashString(s: string): number {
  let h = SEED;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A string or number key's hash; the number 1 and the string "1" usually differ, and are compared anyway. */
export function hashKey(k: string | number): number {
  // SameValueZero, as a Map: -0 is 0, and NaN is one key.
  if (typeof k === 'number') return (hashString(k === 0 ? '0' : String(k)) ^ 0x5bd1e995) >>> 0;
  return hashString(k);
}

/** Key equality as a Map has it (SameValueZero): a string is never a number. */
export const sameKey = (a: string | number, b: string | number): boolean => a === b || (a !== a && b !== b);

/**
 * Open-addressed slots of entry numbers. `hashOf(i)` must give entry `i`'s hash again (used when
 * the table grows); the callers compare keys themselves.
 */
export class HashSlots {
  /** Entry + 1, 0 for an empty slot. */
  private slots: Int32Array;
  private mask: number;
  private count = 0;

  constructor(private readonly hashOf: (i: number) => number, expected = 0) {
    let cap = 16;
    // At most half full: an absent key is found absent after ~2.5 probes.
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  /** An entry inserted with hash `h` for which `same` holds (the callers insert each key once), else -1. */
  find(h: number, same: (i: number) => boolean): number {
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const v = this.slots[s];
      if (v === 0) return -1;
      if (same(v - 1)) return v - 1;
    }
  }

  /** Puts entry `i` (a non-negative int32 below 2^31 − 1) with hash `h`; whether its key is new is the caller's to know. */
  insert(h: number, i: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    this.put(h, i);
    this.count++;
  }

  private put(h: number, i: number): void {
    let s = h & this.mask;
    while (this.slots[s] !== 0) s = (s + 1) & this.mask;
    this.slots[s] = i + 1;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (let s = 0; s < old.length; s++) if (old[s] !== 0) this.put(this.hashOf(old[s] - 1), old[s] - 1);
  }
}

/**
 * The first entry of each string or number key, entries numbered 0, 1, 2 … and read by `keyOf`
 * (undefined: the entry has no key). Exact as a Map: "1" and 1 are two keys.
 */
export class KeyIndex {
  private readonly slots: HashSlots;

  constructor(private readonly keyOf: (i: number) => string | number | undefined, expected = 0, private readonly hash: (k: string | number) => number = hashKey) {
    this.slots = new HashSlots((i) => this.hash(this.keyOf(i)!), expected);
  }

  get size(): number {
    return this.slots.size;
  }

  /** The first entry added with key `k`, else -1. */
  get(k: string | number): number {
    return this.slots.find(this.hash(k), (i) => sameKey(this.keyOf(i)!, k));
  }

  /** Adds entry `i` under its key when no entry has that key yet: returns that earlier entry, else -1. */
  add(i: number): number {
    const k = this.keyOf(i);
    if (k === undefined) return -1;
    const h = this.hash(k);
    const f = this.slots.find(h, (j) => sameKey(this.keyOf(j)!, k));
    if (f < 0) this.slots.insert(h, i);
    return f;
  }
}
