import { GrowColumn } from './columns';
import { FLAG, type Links, type TimelineModel } from './model';

/**
 * Flow events kept for binding (a file can hold any number: further ones are not drawn), and arrows
 * drawn at most; both bound so a file of flows alone cannot grow the model without limit.
 */
export const MAX_FLOW_STEPS = 2_000_000;
export const MAX_LINKS = 1_000_000;

/** What a step is in its flow: a start (`s`, `flow_out`), a step (`t`: an end, then the next start), an end. */
export const START = 0, STEP = 1, END = 2;
/** How a flow step finds its slice. */
const ENCLOSING = 0, NEXT = 1, ITEM = 2;
/** Walked back per row from the last item starting at or before a step's time (instants, lane overflow). */
const LOOK_BACK = 8;

/**
 * The flows of a Chrome trace as arrows between slices. Steps are collected while the file streams
 * (the slices they bind to may come later: files need not be sorted) and bound when the model is
 * laid out, as Chrome and Perfetto bind them: an `s` or `t` (and an `f` with `"bp": "e"`) to the
 * innermost slice open on its thread at its time, an `f` without it to the next slice that begins
 * there, a slice with `bind_id` and `flow_out`/`flow_in` to itself. Each step that is not a start
 * gets an arrow from the latest start or step of its flow (category and id) before it, so one `s`
 * fans out to many `f`, and a reused id starts a new flow.
 */
export class ChromeFlows {
  private readonly keys = new Map<string, number>();
  private readonly threads = new Map<string, number>();
  readonly threadKeys: string[] = [];
  private readonly key = new GrowColumn(Uint32Array);
  /** The thread key (ENCLOSING, NEXT) or the item as added (ITEM). */
  private readonly where = new GrowColumn(Uint32Array);
  private readonly ts = new GrowColumn(Float64Array);
  private readonly mode = new GrowColumn(Uint8Array);
  private readonly role = new GrowColumn(Uint8Array);

  get length(): number {
    return this.key.length;
  }

  /** An `s`/`t`/`f` event on thread `thread` (its pid and tid key) at `ts`. */
  step(key: string, role: number, thread: string, ts: number, next: boolean): void {
    let t = this.threads.get(thread);
    if (t === undefined) {
      if (this.length >= MAX_FLOW_STEPS) return;
      t = this.threadKeys.length;
      this.threads.set(thread, t);
      this.threadKeys.push(thread);
    }
    this.push(key, role, t, ts, next ? NEXT : ENCLOSING);
  }

  /** A slice (the `added`-th item) carrying `bind_id` with `flow_out` (start) or `flow_in`. */
  slice(key: string, role: number, added: number, ts: number): void {
    this.push(key, role, added, ts, ITEM);
  }

  private push(key: string, role: number, where: number, ts: number, mode: number): void {
    if (this.length >= MAX_FLOW_STEPS) return;
    let k = this.keys.get(key);
    if (k === undefined) {
      k = this.keys.size;
      this.keys.set(key, k);
    }
    this.key.push(k);
    this.where.push(where);
    this.ts.push(ts);
    this.mode.push(mode);
    this.role.push(role);
  }

  /**
   * The arrows over model `m`; `order` is the assembler's (model item → item as added), `trackOf`
   * gives the model track of a thread key (-1 when it has none). Undefined when there are none.
   */
  links(m: TimelineModel, order: Uint32Array, trackOf: (thread: string) => number): Links | undefined {
    const n = this.length;
    if (!n) return undefined;
    const modelOf = new Uint32Array(order.length);
    for (let k = 0; k < order.length; k++) modelOf[order[k]] = k;
    const tracks = this.threadKeys.map(trackOf);
    const bound = new Int32Array(n);
    const mode = this.mode.data, where = this.where.data, ts = this.ts.data;
    for (let s = 0; s < n; s++) {
      if (mode[s] === ITEM) bound[s] = where[s] < modelOf.length ? modelOf[where[s]] : -1;
      else {
        const t = tracks[where[s]];
        bound[s] = t < 0 ? -1 : mode[s] === NEXT ? nextSlice(m, t, ts[s]) : enclosingSlice(m, t, ts[s]);
        if (bound[s] < 0 && mode[s] === NEXT && t >= 0) bound[s] = enclosingSlice(m, t, ts[s]);
      }
    }
    // Steps of each flow in time order (file order on ties): a stable sort by key, then time.
    const byFlow = Array.from({ length: n }, (_, s) => s);
    const key = this.key.data;
    byFlow.sort((a, b) => key[a] - key[b] || ts[a] - ts[b] || a - b);
    const from = new GrowColumn(Uint32Array), to = new GrowColumn(Uint32Array);
    const role = this.role.data;
    let source = -1, flow = -1;
    for (const s of byFlow) {
      if (key[s] !== flow) {
        flow = key[s];
        source = -1;
      }
      if (role[s] !== START && source >= 0 && bound[s] >= 0 && bound[s] !== source) {
        from.push(source);
        to.push(bound[s]);
        if (from.length >= MAX_LINKS) break;
      }
      // An end leaves the source as it is, so the next end of the flow comes from the same start;
      // so does a step on no slice (a thread with none there), so the arrow skips it.
      if (role[s] === START || (role[s] === STEP && bound[s] >= 0)) source = bound[s];
    }
    if (!from.length) return undefined;
    // By the earlier start of their two ends, so a view finds the arrows within it by binary search.
    const start = m.items.start, f = from.data, t = to.data;
    const t0 = (k: number) => Math.min(start[f[k]], start[t[k]]);
    const byTime = Array.from({ length: from.length }, (_, k) => k).sort((a, b) => t0(a) - t0(b) || a - b);
    return { from: Uint32Array.from(byTime, (k) => f[k]), to: Uint32Array.from(byTime, (k) => t[k]) };
  }
}

/** The innermost slice of track `t` open at `ts` (latest start; the deeper lane on ties), or -1. */
export function enclosingSlice(m: TimelineModel, t: number, ts: number): number {
  const tr = m.tracks[t];
  const { start, end, flags } = m.items;
  let best = -1;
  for (let r = tr.rowStart; r < tr.rowStart + tr.rowCount; r++) {
    const lo = m.rowItemStart[r];
    let i = upperBound(start, lo, m.rowItemStart[r + 1], ts) - 1;
    for (let back = 0; i >= lo && back < LOOK_BACK; i--, back++) {
      if (flags[i] & FLAG.instant || end[i] < ts) continue;
      if (best < 0 || start[i] >= start[best]) best = i;
      break;
    }
  }
  return best;
}

/** The first slice of track `t` that begins at or after `ts` (the outer lane on ties), or -1. */
export function nextSlice(m: TimelineModel, t: number, ts: number): number {
  const tr = m.tracks[t];
  const { start, flags } = m.items;
  let best = -1;
  for (let r = tr.rowStart; r < tr.rowStart + tr.rowCount; r++) {
    const hi = m.rowItemStart[r + 1];
    let i = lowerBound(start, m.rowItemStart[r], hi, ts);
    while (i < hi && flags[i] & FLAG.instant) i++;
    if (i < hi && (best < 0 || start[i] < start[best])) best = i;
  }
  return best;
}

/** First index in [lo, hi) whose value is at least `x`. */
function lowerBound(a: Float64Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose value is above `x`. */
function upperBound(a: Float64Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
