/**
 * The sweep of `analyze.ts` (`attribute`, and the unions it sums) run while the events are read,
 * for a trace read streamed: what is behind the watermark is settled and dropped, so what is held
 * is the spans still to come or still running, not every span of the file.
 *
 * The watermark: after each `block` intervals read, the earliest start among them. The sweep goes
 * up to it (strictly before it) on the assumption that no interval read later starts before it: a
 * writer writes its events about in order of time, and here "about" is "never earlier than the
 * earliest of the block before". An interval read later that does start before it (or an event
 * before the first time swept from) breaks the assumption: the sweep stops (`outOfOrder`) and the
 * caller analyzes the trace the kept way. Up to the watermark the points are handled in exactly
 * the order of the whole sweep (time, then ends before starts, then the order read), so every sum
 * is added in the same order and the figures are the same to the last bit.
 */
import { CATEGORIES } from './analysisResult';
import { IntervalList } from './intervals';
import { MAX_CITED } from './rules';

/** An interval of the sweep: `cat` -1 counts in no category, only in the time something runs. */
interface Span {
  /** The order read, among the intervals. */
  readonly i: number;
  readonly start: number;
  readonly end: number;
  readonly cat: number;
  readonly name: string;
  /** Its event's id where it can be cited. */
  readonly id: string | undefined;
  credit: number;
}

/** What the whole sweep gives (`attribute`), with the unions' lengths. */
export interface SweepResult {
  exclusive: number[];
  examples: string[][];
  cited: string[][];
  /** Per category, the length of the union of its spans. */
  totals: number[];
  /** The length of the union of the kernels and copies. */
  busy: number;
  /** The runs of the union of every interval, in order of time. */
  running: IntervalList;
}

/** Intervals of at least this many read between two steps of the sweep. */
export const SWEEP_BLOCK = 1 << 16;

/** A binary heap of spans, least first by `key` then the order read. */
class SpanHeap {
  readonly items: Span[] = [];
  constructor(private readonly key: (s: Span) => number) {}

  private less(a: Span, b: Span): boolean {
    const x = this.key(a);
    const y = this.key(b);
    return x < y || (x === y && a.i < b.i);
  }

  push(s: Span): void {
    const h = this.items;
    let k = h.length;
    h.push(s);
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.less(h[k], h[p])) break;
      [h[k], h[p]] = [h[p], h[k]];
      k = p;
    }
  }

  /** The least, when its key is below `limit`. */
  popBelow(limit: number): Span | undefined {
    const h = this.items;
    if (!h.length || !(this.key(h[0]) < limit)) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let k = 0; ;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === k) break;
        [h[k], h[m]] = [h[m], h[k]];
        k = m;
      }
    }
    return top;
  }
}

/** The runs of a union fed its intervals in order of start: touching intervals join, as `runsOfSorted` joins them. */
class RunsInOrder {
  private from = NaN;
  private to = NaN;
  constructor(private readonly run: (start: number, end: number) => void) {}

  add(start: number, end: number): void {
    if (start <= this.to) {
      if (end > this.to) this.to = end;
      return;
    }
    if (this.from === this.from) this.run(this.from, this.to);
    this.from = start;
    this.to = end;
  }

  close(): void {
    if (this.from === this.from) this.run(this.from, this.to);
    this.from = this.to = NaN;
  }
}

export class OrderedSweep {
  private readonly waiting = new SpanHeap((s) => s.start);
  private readonly running = new SpanHeap((s) => s.end);
  private count = 0;
  private inBlock = 0;
  private blockMin = Infinity;
  /** Every point before it is swept; NaN before the first step. */
  private mark = NaN;
  /** The first time swept from: the window's start then. */
  private from = NaN;
  /** The earliest start so far. */
  private t0 = Infinity;
  outOfOrder = false;

  private readonly exclusive = CATEGORIES.map(() => 0);
  private readonly byName: Map<string, number>[] = CATEGORIES.map(() => new Map());
  private readonly active: Set<Span>[] = CATEGORIES.map(() => new Set());
  private readonly top: Span[][] = CATEGORIES.map(() => []);
  private gap: { us: number; before: Span | undefined; after: Span | undefined } = { us: 0, before: undefined, after: undefined };
  private lastEnded: Span | undefined;
  private prev = NaN;
  private readonly totals = CATEGORIES.slice(0, 4).map(() => 0);
  private busy = 0;
  private readonly runs = new IntervalList();
  private readonly unions = [0, 1, 2, 3].map((c) => new RunsInOrder((s, e) => (this.totals[c] += e - s)));
  private readonly busyRuns = new RunsInOrder((s, e) => (this.busy += e - s));
  private readonly allRuns = new RunsInOrder((s, e) => this.runs.push(s, e));

  constructor(private readonly block = SWEEP_BLOCK) {}

  /**
   * An event with times (`start` ≤ `end`), in the order read. Those that run a while are the
   * sweep's intervals; `cat` ≥ 0 with a `name` makes it a span of that category.
   */
  add(start: number, end: number, cat: number, name: string, id: string | undefined): void {
    if (this.outOfOrder) return;
    if (start < this.from || (end > start && start < this.mark)) {
      this.outOfOrder = true;
      return;
    }
    if (start < this.t0) this.t0 = start;
    if (!(end > start)) return;
    this.waiting.push({ i: this.count++, start, end, cat, name, id, credit: 0 });
    if (start < this.blockMin) this.blockMin = start;
    if (++this.inBlock < this.block) return;
    this.inBlock = 0;
    const to = this.blockMin;
    this.blockMin = Infinity;
    this.advance(to);
  }

  /**
   * After the last event: the sweep's figures over the window [t0, t1] (t0: the earliest start of
   * the events added); undefined when the events came out of order.
   */
  finish(t1: number): SweepResult | undefined {
    if (this.outOfOrder) return undefined;
    const t0 = this.t0;
    this.advance(Infinity);
    this.flush(t1);
    for (const u of this.unions) u.close();
    this.busyRuns.close();
    this.allRuns.close();
    const examples = this.byName.map((m) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([n]) => n));
    const cited = this.top.map((t) => t.map((s) => s.id!));
    for (const s of [this.gap.before, this.gap.after]) if (s?.id !== undefined) cited[4].push(s.id);
    if (!(t1 > t0)) return { exclusive: CATEGORIES.map(() => 0), examples: CATEGORIES.map(() => []), cited: CATEGORIES.map(() => []), totals: this.totals, busy: this.busy, running: this.runs };
    return { exclusive: this.exclusive, examples, cited, totals: this.totals, busy: this.busy, running: this.runs };
  }

  /** Sweeps every point before `to`, the first time from the window's start so far. */
  private advance(to: number): void {
    if (this.prev !== this.prev) this.prev = this.from = this.t0;
    this.mark = to;
    // Point 2k is span k's start, 2k + 1 its end, as in `attribute`.
    const points: Span[] = [];
    const ends: boolean[] = [];
    for (let s = this.waiting.popBelow(to); s; s = this.waiting.popBelow(to)) {
      points.push(s);
      ends.push(false);
      this.running.push(s);
    }
    for (let s = this.running.popBelow(to); s; s = this.running.popBelow(to)) {
      points.push(s);
      ends.push(true);
    }
    const order = points.map((_, k) => k);
    const at = (k: number) => (ends[k] ? points[k].end : points[k].start);
    order.sort((p, q) => at(p) - at(q) || +ends[q] - +ends[p] || points[p].i - points[q].i);
    for (const k of order) {
      const s = points[k];
      const t = at(k);
      if (!ends[k]) {
        this.allRuns.add(s.start, s.end);
        if (s.cat < 0) continue;
        this.unions[s.cat].add(s.start, s.end);
        if (s.cat < 3) this.busyRuns.add(s.start, s.end);
      } else if (s.cat < 0) continue;
      this.flush(t);
      if (!ends[k]) {
        if (!this.gap.after && this.gap.us > 0 && t === this.prev) this.gap.after = s;
        this.active[s.cat].add(s);
      } else {
        this.active[s.cat].delete(s);
        this.lastEnded = s;
        this.offer(s);
      }
    }
  }

  /** The stretch from the last point to `to` goes to the first category running in it, as in `attribute`. */
  private flush(to: number): void {
    if (!(to > this.prev)) return;
    const d = to - this.prev;
    const c = this.active.findIndex((s) => s.size > 0);
    this.exclusive[c < 0 ? 4 : c] += d;
    if (c < 0 && d > this.gap.us) this.gap = { us: d, before: this.lastEnded, after: undefined };
    if (c >= 0) {
      for (const s of this.active[c]) s.credit += d;
      const names = new Set<string>();
      for (const s of this.active[c]) names.add(s.name);
      const m = this.byName[c];
      for (const n of names) m.set(n, (m.get(n) ?? 0) + d);
    }
    this.prev = to;
  }

  /** A span whose credit is settled (its end swept): among its category's MAX_CITED most credited with an id (ties: the earlier). */
  private offer(s: Span): void {
    if (!(s.credit > 0) || s.id === undefined) return;
    const t = this.top[s.cat];
    const worse = (a: Span, b: Span) => a.credit < b.credit || (a.credit === b.credit && a.i > b.i);
    if (t.length === MAX_CITED && !worse(t[MAX_CITED - 1], s)) return;
    let k = t.length === MAX_CITED ? MAX_CITED - 1 : t.length;
    while (k > 0 && worse(t[k - 1], s)) {
      t[k] = t[k - 1];
      k--;
    }
    t[k] = s;
  }
}
