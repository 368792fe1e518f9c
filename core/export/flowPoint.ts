import { upperBound } from '../common/bounds';
import { FLAG, type TimelineModel } from '../timeline/model';
import type { ThreadMap } from './threads';

/** How far inside its slice a flow end is placed (µs). */
export const FLOW_INSET = 0.001;
/** Children of a slice stepped over to find a moment it is the innermost; past them, the first moment is kept. */
const MAX_HOPS = 64;
/** Items walked back per row from the last one starting at or before a moment (instants, an overflow lane). */
const LOOK_BACK = 8;

/** To the ps (a cycle of a GHz clock is under a ns), so a µs value prints without float noise. */
export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * Where a flow end goes so that Perfetto binds it to its slice: an `s`, and an `f` with `bp: "e"`,
 * bind to the innermost slice open on their thread at their time. 1 ns (at most half the slice)
 * after the slice starts, unless a slice nested in it on the same exported thread is open there
 * (a parent and its first child often start together): then just after that child ends, and so on
 * past its siblings, to the first moment the slice is innermost. A slice covered by its children
 * throughout keeps the first moment (no flow event can bind to it). Never the exact start: a flow
 * read before its slice (equal times keep file order, and an item is written when its last line
 * comes by) would bind to the slice before it or to none.
 */
export class FlowPoints {
  /** Rows written as one thread (a nesting track's lanes): row r's are `groupFrom[r]..groupTo[r]`. */
  private readonly groupFrom: Uint32Array;
  private readonly groupTo: Uint32Array;

  /** `scale`: µs per model time unit, as the exporter writes times (`round(t * scale)`). */
  constructor(private readonly m: TimelineModel, threads: ThreadMap, private readonly rowOf: Uint32Array, private readonly scale: number) {
    const rows = m.rowItemStart.length - 1;
    this.groupFrom = new Uint32Array(Math.max(0, rows));
    this.groupTo = new Uint32Array(Math.max(0, rows));
    for (let r = 0; r < rows;) {
      let e = r + 1;
      while (e < rows && threads.rowTid[e] === threads.rowTid[r] && threads.rowPid[e] === threads.rowPid[r]) e++;
      this.groupFrom.fill(r, r, e);
      this.groupTo.fill(e, r, e);
      r = e;
    }
  }

  /**
   * The moment (µs) inside item j for a flow end bound to it, after `after` when it can be (an
   * arrow's `f` must come after its `s`: readers pair a flow's events in time order).
   */
  at(j: number, after = -Infinity): number {
    const s = round(this.m.items.start[j] * this.scale), e = round(this.m.items.end[j] * this.scale);
    if (!(e - s >= 2e-6)) return s;
    const first = round(s + Math.min(FLOW_INSET, (e - s) / 2));
    // A target that ends before its source's moment: no moment is right, the first one is kept.
    if (after >= s && !(e - after >= 2e-6)) return first;
    let t = after >= s ? round(after + Math.min(FLOW_INSET, (e - after) / 2)) : first;
    const r = this.rowOf[j];
    // One row is one lane: its slices do not nest, so nothing is inside j there.
    if (this.groupTo[r] - this.groupFrom[r] <= 1) return t;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const d = this.childEnd(j, t, s, e);
      if (d < 0) return t;
      if (!(e - d >= 2e-6)) break;
      t = round(d + Math.min(FLOW_INSET, (e - d) / 2));
    }
    return first;
  }

  /**
   * The latest end (µs) of the slices nested in j (within [s, e], not j's own range) open at `t`
   * on j's thread, ends counted as open (the importer's rule, stricter than Perfetto's); -1: none.
   */
  private childEnd(j: number, t: number, s: number, e: number): number {
    const { start, end, flags } = this.m.items;
    const r = this.rowOf[j];
    let best = -1;
    for (let row = this.groupFrom[r]; row < this.groupTo[r]; row++) {
      const lo = this.m.rowItemStart[row];
      // Searched in the model's unit, past every start that rounds to t or before (and maybe one more, skipped below).
      let i = upperBound(start, lo, this.m.rowItemStart[row + 1], (t + 5e-7) / this.scale) - 1;
      for (let back = 0; i >= lo && back < LOOK_BACK; i--, back++) {
        if (i === j || flags[i] & FLAG.instant) continue;
        const a = round(start[i] * this.scale), b = round(end[i] * this.scale);
        if (a > t || b < t || a < s || b > e || (a === s && b === e)) continue;
        if (b > best) best = b;
      }
    }
    return best;
  }
}
