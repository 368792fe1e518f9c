import { entryAnchor, valueRange } from './fields';
import type { CmdqGraph } from './graph';
import type { CmdqEntry, ParsedCmdq } from './model';
import { entryName } from './checks';
import type { RelatedAt, Report } from '../json/report';

/**
 * cmdq.spm-overlap — the rule (also in the README):
 *
 * A DMA_LOAD_TILE writes `num_elements × qbits / 8` bytes (rounded up) at `spm_offset` of bank
 * `spm_bank`. That tile is live from the load until every entry that reads it has finished; the
 * readers are the entries other than DMA loads (which only write SPM) that list the load in their
 * `deps_before` DIRECTLY. Transitive dependents
 * read what those readers produced, not this tile (counting them would keep every tile live until
 * END, as END waits for everything). A later load B whose bytes overlap a live tile A is safe only
 * if B waits, directly or transitively, for every reader of A (for A itself when nothing reads A);
 * otherwise the engines may run B before a reader of A and overwrite its input. Order is taken from
 * deps_before, not from queue positions: engines run concurrently, so queue order alone orders nothing.
 */

interface Tile {
  i: number;
  bank: number;
  lo: number;
  hi: number;
}

/** Live tiles kept per bank; beyond this, the oldest are forgotten (pathological queues only). */
const MAX_ACTIVE = 2048;
/** Entries visited per ordering query before giving up (and assuming order, so no false alarm). */
const VISIT_BUDGET = 20000;

function count(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function tileOf(e: CmdqEntry): Tile | undefined {
  if (e.opcode !== 'DMA_LOAD_TILE' || !e.obj) return undefined;
  const { spm_bank: bank, spm_offset: off, num_elements: n, qbits: q } = e.obj;
  if (!count(bank) || !count(off) || !count(n) || !count(q)) return undefined;
  const bytes = Math.ceil((n * q) / 8);
  if (bytes <= 0) return undefined;
  return { i: e.index, bank, lo: off, hi: off + bytes };
}

/** How far back (in queue positions) `Reach.near` answers without a search. */
const NEAR = 64;

/** Whether one entry waits for another, directly or transitively (exported for its tests). */
export class Reach {
  private readonly mark: Int32Array;
  private epoch = 0;
  private readonly stack: number[] = [];
  /**
   * Per entry, two words of bits: bit k set when it waits, directly or transitively, for the entry
   * k + 1 positions before it (k < NEAR). Undefined when some dependency does not point backwards:
   * then a path may leave the window and only the search answers. A load and the readers it must
   * wait for are mostly a few dozen entries apart, and the search walked the chain between them
   * for each (1.6M visits on a 100k-entry queue).
   */
  readonly near: Int32Array | undefined;

  constructor(private readonly g: CmdqGraph) {
    this.mark = new Int32Array(g.n);
    this.near = nearReach(g);
  }

  /** Whether `from` waits for `target`, directly or transitively. */
  waitsFor(from: number, target: number): boolean {
    const d = from - target - 1;
    const near = this.near;
    // With every dependency pointing backwards a path from `from` to `target` only passes entries
    // between them, all in the window: the bit is the whole answer (and the search, which visits
    // at most those, would never have run out of budget).
    if (near && d >= 0 && d < NEAR) return ((d < 32 ? near[2 * from] >>> d : near[2 * from + 1] >>> (d - 32)) & 1) === 1;
    return this.search(from, target);
  }

  /** The answer by a search of the dependencies, whatever the distance (the tests compare the bits with it). */
  search(from: number, target: number): boolean {
    const g = this.g;
    const ep = ++this.epoch;
    const stack = this.stack;
    stack.length = 0;
    stack.push(from);
    this.mark[from] = ep;
    let budget = VISIT_BUDGET;
    while (stack.length) {
      const v = stack.pop()!;
      if (--budget < 0) return true;
      for (let e = g.edgeStart[v]; e < g.edgeStart[v + 1]; e++) {
        const t = g.targets[e];
        if (t === target) return true;
        // In a well-formed queue deps point backwards, so nothing before `target` can lead to it.
        if (t > target && this.mark[t] !== ep) {
          this.mark[t] = ep;
          stack.push(t);
        }
      }
    }
    return false;
  }
}

/** The `Reach.near` bits of every entry, in queue order; undefined when a dependency does not point backwards. */
function nearReach(g: CmdqGraph): Int32Array | undefined {
  const near = new Int32Array(2 * g.n);
  for (let v = 0; v < g.n; v++) {
    let lo = 0;
    let hi = 0;
    for (let e = g.edgeStart[v]; e < g.edgeStart[v + 1]; e++) {
      const t = g.targets[e];
      if (t < 0) continue;
      if (t >= v) return undefined;
      // What t reaches, seen from v: t's bits moved up by its distance (s = v - t), and t itself at bit s - 1.
      const s = v - t;
      if (s > NEAR) continue;
      const tlo = near[2 * t];
      const thi = near[2 * t + 1];
      if (s < 32) {
        lo |= (tlo << s) | (1 << (s - 1));
        hi |= (thi << s) | (tlo >>> (32 - s));
      } else if (s === 32) {
        lo |= 1 << 31;
        hi |= tlo;
      } else {
        // (A shift by 32 would be one by 0: at s = 64 nothing of t's bits stays in the window.)
        hi |= (s < 64 ? tlo << (s - 32) : 0) | (1 << (s - 33));
      }
    }
    near[2 * v] = lo;
    near[2 * v + 1] = hi;
  }
  return near;
}

export function checkSpm(doc: ParsedCmdq, g: CmdqGraph, report: Report): void {
  const active = new Map<number, Tile[]>();
  const reach = new Reach(g);
  for (const e of doc.entries) {
    const b = tileOf(e);
    if (!b) continue;
    let list = active.get(b.bank);
    if (!list) active.set(b.bank, (list = []));
    // The tiles that stay live, compacted in place (w ≤ x: nothing is overwritten before it is read).
    let w = 0;
    for (let x = 0, n = list.length; x < n; x++) {
      const a = list[x];
      if (a.hi <= b.lo || b.hi <= a.lo) {
        list[w++] = a;
        continue;
      }
      // Loads only write SPM: one listing A (B itself included) is ordered after A but reads nothing of it.
      const readers: number[] = [];
      for (let k = 0, n = g.dependentCount(a.i); k < n; k++) {
        const r = g.dependent(a.i, k);
        if (doc.entries[r].opcode !== 'DMA_LOAD_TILE') readers.push(r);
      }
      const mustWait = readers.length ? readers : [a.i];
      let unordered: number[] | undefined;
      for (const r of mustWait) if (!reach.waitsFor(b.i, r)) (unordered ??= []).push(r);
      if (!unordered) {
        // B replaced A safely; A stays relevant only for bytes B does not cover.
        if (!(b.lo <= a.lo && a.hi <= b.hi)) list[w++] = a;
        continue;
      }
      // B overwrites A all the same: the hazard is reported once, here, and A is gone for the bytes
      // B covers (kept live, every later load of the bank repeated it: 114 warnings per broken
      // chain in a 100k-entry queue, and a quadratic search).
      if (!(b.lo <= a.lo && a.hi <= b.hi)) list[w++] = a;
      if (!report.wants(e.start)) {
        report.count('warning', 'cmdq.spm-overlap');
        continue;
      }
      const [s, t] = valueRange(doc, e, 'spm_offset');
      const ae = doc.entries[a.i];
      const [aa, ab] = valueRange(doc, ae, 'spm_offset');
      const rel: RelatedAt[] = [[aa, ab, `tile of entry ${entryName(doc, a.i)}: bank ${a.bank} bytes [${a.lo}, ${a.hi})`]];
      for (const r of unordered) {
        if (r === a.i) continue;
        const [ra, rb] = entryAnchor(doc, doc.entries[r]);
        rel.push([ra, rb, `entry ${entryName(doc, r)} reads that tile`]);
      }
      const who = unordered.map((r) => entryName(doc, r)).join(', ');
      const why = readers.length
        ? `entry ${entryName(doc, a.i)}'s tile is still being read by ${who}, and this load does not wait for ${unordered.length === 1 ? 'it' : 'them'}`
        : `this load does not wait for entry ${entryName(doc, a.i)} itself`;
      report(s, t, 'warning', 'cmdq.spm-overlap',
        `SPM bank ${b.bank} bytes [${b.lo}, ${b.hi}) overlap bytes [${a.lo}, ${a.hi}) loaded by entry ${entryName(doc, a.i)}, and ${why}: the load can overwrite a live tile`, rel);
    }
    list.length = w;
    list.push(b);
    if (list.length > MAX_ACTIVE) list.splice(0, list.length - MAX_ACTIVE);
  }
}
