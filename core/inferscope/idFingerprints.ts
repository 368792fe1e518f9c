/**
 * The first event of each id, for a check that holds no ids: each id is known by two 32-bit hashes
 * of it (a 64-bit fingerprint), and an id whose fingerprint an earlier one has is taken for that
 * id. Ten million ids held as strings (or read back from events kept for it) were most of the
 * streamed check's 2 GB; a fingerprint and where its event starts take 12 bytes and a slot. Two different ids are taken for one only when both hashes collide: for n ids, about
 * n² / 2^65 (3 in a million for ten million ids). The hashes start from this process's own random
 * states (`keyIndex.ts`), so no file can be built to collide, or to fill one probe run, on purpose.
 */
import { hashKey } from '../common/keyIndex';
import { I32Column } from './columns';
import { PackedColumn } from './packedColumn';

const SEED = Math.floor(Math.random() * 2 ** 32) >>> 0;

/** A hash of another make than FNV-1a (multiply, shift, and a final mix), from its own seed. */
function hash2(k: string | number): number {
  const s = typeof k === 'number' ? (k === 0 ? '0' : String(k)) : k;
  // The number 1 and the string "1" are two ids.
  let h = (SEED ^ Math.imul(s.length, 0x9e3779b1) ^ (typeof k === 'number' ? 0x27d4eb2f : 0)) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class IdFingerprints {
  /** Entry + 1, 0 for an empty slot; linear probing on the first hash, at most three quarters full. */
  private slots = new Int32Array(1 << 12);
  private mask = this.slots.length - 1;
  private count = 0;
  private readonly h1 = new I32Column();
  private readonly h2 = new I32Column();
  /**
   * The event of entry i is i + the difference of the last change at or before i: it changes only
   * at an event with no id or a repeated one, so a trace whose events all have their own ids
   * keeps no event numbers at all.
   */
  private readonly changeAt = new I32Column();
  private readonly changeTo = new I32Column();
  private changes = 0;
  private lastDiff = 0;
  private readonly offset = new PackedColumn();

  /**
   * Event `event` (starting at `offset`) has id `k` (a string or a finite number): the entry of the
   * earlier event with that id (by fingerprint), else -1 and the event is its id's first.
   */
  add(k: string | number, event: number, offset: number): number {
    const a = hashKey(k) | 0;
    const b = hash2(k) | 0;
    let s = a & this.mask;
    for (let v = this.slots[s]; v !== 0; s = (s + 1) & this.mask, v = this.slots[s]) {
      if (this.h1.get(v - 1) === a && this.h2.get(v - 1) === b) return v - 1;
    }
    const i = this.count++;
    this.h1.set(i, a);
    this.h2.set(i, b);
    if (event - i !== this.lastDiff) {
      this.lastDiff = event - i;
      this.changeAt.set(this.changes, i);
      this.changeTo.set(this.changes++, this.lastDiff);
    }
    this.offset.set(i, offset);
    this.slots[s] = i + 1;
    if (this.count * 4 > this.slots.length * 3) this.grow();
    return -1;
  }

  /** The event of entry `f`, and where it starts. */
  eventOf(f: number): number {
    let lo = 0;
    let hi = this.changes - 1;
    let diff = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.changeAt.get(mid) <= f) {
        diff = this.changeTo.get(mid);
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return f + diff;
  }

  offsetOf(f: number): number {
    return this.offset.get(f);
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.mask = this.slots.length - 1;
    for (let i = 0; i < this.count; i++) {
      let s = this.h1.get(i) & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = i + 1;
    }
  }
}
