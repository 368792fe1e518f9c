import { lowerBound, upperBound } from '../common/bounds';
import { GrowColumn } from '../timeline/columns';
import { ATTRS, FLAG, type Links, type TimelineModel } from '../timeline/model';

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
 * there (else the one open there), a slice with `bind_id` and `flow_out`/`flow_in` to itself. Each step that is not a start
 * gets an arrow from the latest start or step of its flow (category and id) before it, so one `s`
 * fans out to many `f`, and a reused id starts a new flow.
 */
export class ChromeFlows {
  /** Flows by category (or bind) and id. */
  private readonly keys = new PairTable();
  /** Threads by pid and tid, each kept as that pair for `links`. */
  private readonly threads = new PairTable();
  private readonly threadPairs: [unknown, unknown][] = [];
  private readonly key = new GrowColumn(Uint32Array);
  /** The thread (ENCLOSING, NEXT) or the item as added (ITEM). */
  private readonly where = new GrowColumn(Uint32Array);
  private readonly ts = new GrowColumn(Float64Array);
  private readonly mode = new GrowColumn(Uint8Array);
  private readonly role = new GrowColumn(Uint8Array);
  /** The event's context (its category is the context's phase) and name, so an arrow keeps them; 0 for a bind_id slice. */
  private readonly ctx = new GrowColumn(Uint32Array);
  private readonly name = new GrowColumn(Uint32Array);

  get length(): number {
    return this.key.length;
  }

  /**
   * An `s`/`t`/`f` event of flow (`cat`, `id`) on thread (`pid`, `tid`) at `ts`; `ctx` (the model
   * context whose phase is its category) and `name` (a string index) label its arrow.
   */
  step(cat: unknown, id: unknown, role: number, pid: unknown, tid: unknown, ts: number, next: boolean, ctx = 0, name = 0): void {
    if (this.length >= MAX_FLOW_STEPS) return;
    const n = this.threadPairs.length;
    const t = this.threads.index(pid, tid);
    if (t === n) this.threadPairs.push([pid, tid]);
    this.push(this.keys.index(cat, id), role, t, ts, next ? NEXT : ENCLOSING, ctx, name);
  }

  /** A slice (the `added`-th item) carrying `bind_id` with `flow_out` (start) or `flow_in`. */
  slice(bindId: unknown, role: number, added: number, ts: number): void {
    if (this.length >= MAX_FLOW_STEPS) return;
    this.push(this.keys.index(BIND, bindId), role, added, ts, ITEM, 0, 0);
  }

  private push(k: number, role: number, where: number, ts: number, mode: number, ctx: number, name: number): void {
    this.ctx.push(ctx);
    this.name.push(name);
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
  links(m: TimelineModel, order: Uint32Array, trackOf: (pid: unknown, tid: unknown) => number): Links | undefined {
    const n = this.length;
    if (!n) return undefined;
    const modelOf = new Uint32Array(order.length);
    for (let k = 0; k < order.length; k++) modelOf[order[k]] = k;
    const tracks = this.threadPairs.map(([p, t]) => trackOf(p, t));
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
    const key = this.key.data;
    const byFlow = stepsByFlow(key, ts, n, this.keys.size);
    const from = new GrowColumn(Uint32Array), to = new GrowColumn(Uint32Array);
    const cat = new GrowColumn(Uint32Array), name = new GrowColumn(Uint32Array);
    const role = this.role.data, ctx = this.ctx.data, names = this.name.data;
    const PHASE = ATTRS.indexOf('phase');
    const catOf = (s: number) => (ctx[s] ? m.ctxAttrs[ctx[s] * ATTRS.length + PHASE] ?? 0 : 0);
    let labelled = false;
    let source = -1, sourceStep = -1, flow = -1;
    for (let j = 0; j < n; j++) {
      const s = byFlow[j];
      if (key[s] !== flow) {
        flow = key[s];
        source = -1;
      }
      if (role[s] !== START && source >= 0 && bound[s] >= 0 && bound[s] !== source) {
        from.push(source);
        to.push(bound[s]);
        // The arrow's own event (the f or t) names it; else the step it comes from.
        const c = catOf(s) || catOf(sourceStep), nm = names[s] || names[sourceStep];
        cat.push(c);
        name.push(nm);
        if (c || nm) labelled = true;
        if (from.length >= MAX_LINKS) break;
      }
      // An end leaves the source as it is, so the next end of the flow comes from the same start;
      // so does a step on no slice (a thread with none there), so the arrow skips it.
      if (role[s] === START || (role[s] === STEP && bound[s] >= 0)) {
        source = bound[s];
        sourceStep = s;
      }
    }
    if (!from.length) return undefined;
    // By the earlier start of their two ends, so a view finds the arrows within it by binary search
    // (flows mostly come in time order already: then there is nothing to sort).
    const start = m.items.start, f = from.data, t = to.data, count = from.length;
    const t0 = new Float64Array(count);
    let sorted = true;
    for (let k = 0; k < count; k++) {
      t0[k] = Math.min(start[f[k]], start[t[k]]);
      if (k && t0[k] < t0[k - 1]) sorted = false;
    }
    if (sorted) return { from: from.take(), to: to.take(), ...(labelled && { cat: cat.take(), name: name.take() }) };
    const byTime = Array.from({ length: count }, (_, k) => k).sort((a, b) => t0[a] - t0[b] || a - b);
    const c = cat.data, nm = name.data;
    return {
      from: Uint32Array.from(byTime, (k) => f[k]), to: Uint32Array.from(byTime, (k) => t[k]),
      ...(labelled && { cat: Uint32Array.from(byTime, (k) => c[k]), name: Uint32Array.from(byTime, (k) => nm[k]) }),
    };
  }
}

/** The category of the newer flow form's slices (`bind_id`): apart from every `cat`. */
const BIND = '\u0001bind';

/**
 * Step indices grouped by flow (in order of first appearance), each flow's steps in time order and
 * file order on ties: a counting sort by flow, then a sort only of a flow whose steps came out of
 * time order (rare: a tracer writes a flow's events as they happen).
 */
function stepsByFlow(key: Uint32Array, ts: Float64Array, n: number, flows: number): Uint32Array {
  const first = new Uint32Array(flows + 1);
  for (let s = 0; s < n; s++) first[key[s] + 1]++;
  for (let k = 0; k < flows; k++) first[k + 1] += first[k];
  const out = new Uint32Array(n), fill = first.slice(0, flows);
  for (let s = 0; s < n; s++) out[fill[key[s]]++] = s;
  for (let k = 0; k < flows; k++) {
    const a = first[k], b = first[k + 1];
    let inOrder = true;
    for (let j = a + 1; j < b && inOrder; j++) if (ts[out[j]] < ts[out[j - 1]]) inOrder = false;
    if (!inOrder) out.set(Array.from(out.subarray(a, b)).sort((x, y) => ts[x] - ts[y] || x - y), a);
  }
  return out;
}

/**
 * Numbers for pairs of JSON values (category and id, pid and tid), keyed as Chrome keys them (`7` and
 * `"7"` are one id) without building a string per event: two levels of maps over the values.
 */
class PairTable {
  private readonly maps = new Map<unknown, Inner>();
  size = 0;
  /** The first value of the last lookup and its table: a file's flows mostly share one category. */
  private lastA: unknown = undefined;
  private lastInner: Inner | undefined;

  index(a: unknown, b: unknown): number {
    let inner = this.lastInner;
    if (inner === undefined || a !== this.lastA) {
      const ka = norm(a);
      inner = this.maps.get(ka);
      if (!inner) this.maps.set(ka, (inner = new Inner()));
      // Only a primitive is its own key next time (norm maps any object to '').
      this.lastA = typeof a === 'object' ? undefined : a;
      this.lastInner = typeof a === 'object' ? undefined : inner;
    }
    const kb = norm(b);
    let k = inner.get(kb);
    if (k < 0) inner.set(kb, (k = this.size++));
    return k;
  }
}

/**
 * Numbers by second value. Ids are mostly small counters (PyTorch numbers its flows 1, 2, 3…): those
 * index an array, a third of the build's flow cost as a Map; the array grows only up to a few times
 * the entries held, so sparse or huge ids (any file's) go to the Map and memory stays linear.
 */
class Inner {
  private readonly map = new Map<unknown, number>();
  /** Number + 1 by id, 0 for none. */
  private dense = new Uint32Array(0);
  private count = 0;

  get(b: unknown): number {
    if (typeof b === 'number' && b >= 0 && b < this.dense.length && Number.isInteger(b) && this.dense[b]) return this.dense[b] - 1;
    // An id set before the array reached it is in the Map.
    const k = this.map.get(b);
    return k === undefined ? -1 : k;
  }

  set(b: unknown, k: number): void {
    this.count++;
    if (typeof b === 'number' && b >= 0 && Number.isInteger(b) && b < this.count * 4 + 4096) {
      if (b >= this.dense.length) this.grow(b);
      this.dense[b] = k + 1;
      return;
    }
    this.map.set(b, k);
  }

  private grow(b: number): void {
    const d = new Uint32Array(Math.max(b + 1, this.dense.length * 2, 1024));
    d.set(this.dense);
    this.dense = d;
  }
}

/** A key value: a number, a string (one spelling a number as String() does is that number), else ''. */
function norm(v: unknown): unknown {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return '';
  if (v.length === 0 || v.length > 22) return v;
  // String() spells every number starting with a digit, '-', 'I'(nfinity) or 'N'(aN): any other
  // string is itself, without the cost of Number() on it.
  const c = v.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 45 || c === 73 || c === 78)) return v;
  const n = Number(v);
  return String(n) === v ? n : v;
}

/**
 * The innermost slice of track `t` open at `ts`: the latest start, and of slices starting together
 * the one ending first (the child: a file may list it before its parent), or -1.
 */
export function enclosingSlice(m: TimelineModel, t: number, ts: number): number {
  const tr = m.tracks[t];
  const { start, end, flags } = m.items;
  let best = -1;
  for (let r = tr.rowStart; r < tr.rowStart + tr.rowCount; r++) {
    const lo = m.rowItemStart[r];
    let i = upperBound(start, lo, m.rowItemStart[r + 1], ts) - 1;
    for (let back = 0; i >= lo && back < LOOK_BACK; i--, back++) {
      if (flags[i] & FLAG.instant || end[i] < ts) continue;
      if (best < 0 || start[i] > start[best] || (start[i] === start[best] && end[i] <= end[best])) best = i;
      break;
    }
  }
  return best;
}

/** The first slice of track `t` that begins at or after `ts` (of slices starting together the outermost), or -1. */
export function nextSlice(m: TimelineModel, t: number, ts: number): number {
  const tr = m.tracks[t];
  const { start, end, flags } = m.items;
  let best = -1;
  for (let r = tr.rowStart; r < tr.rowStart + tr.rowCount; r++) {
    const hi = m.rowItemStart[r + 1];
    let i = lowerBound(start, m.rowItemStart[r], hi, ts);
    while (i < hi && flags[i] & FLAG.instant) i++;
    if (i < hi && (best < 0 || start[i] < start[best] || (start[i] === start[best] && end[i] > end[best]))) best = i;
  }
  return best;
}
