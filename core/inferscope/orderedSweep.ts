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
import { PackedColumn } from './packedColumn';
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
  /** Its key in the heap it is in: its start while it waits, its end while it runs. */
  k: number;
  /** Where it is in its category's running spans. */
  slot: number;
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
  running: RunsColumn;
}

/**
 * Sorted disjoint runs, appended in order, 4 bytes a time where they are whole numbers
 * (`packedColumn.ts`): ten million events in requests are some five million runs.
 */
export class RunsColumn {
  private readonly starts = new PackedColumn();
  private readonly ends = new PackedColumn();
  length = 0;

  push(start: number, end: number): void {
    this.starts.set(this.length, start);
    this.ends.set(this.length++, end);
  }

  /** Calls `run` for each run, in order (as `IntervalList.spendRuns` does for its runs). */
  spendRuns(run: (start: number, end: number) => void): void {
    for (let k = 0; k < this.length; k++) run(this.starts.get(k), this.ends.get(k));
  }
}

/** Intervals of at least this many read between two steps of the sweep. */
export const SWEEP_BLOCK = 1 << 12;

/** A binary heap of spans, least first by their key (`k`) then the order read. */
class SpanHeap {
  private readonly items: Span[] = [];

  push(s: Span): void {
    const h = this.items;
    let k = h.length;
    h.push(s);
    while (k > 0) {
      const p = (k - 1) >> 1;
      const q = h[p];
      if (q.k < s.k || (q.k === s.k && q.i < s.i)) break;
      h[k] = q;
      k = p;
    }
    h[k] = s;
  }

  /** The least, when its key is below `limit`. */
  popBelow(limit: number): Span | undefined {
    const h = this.items;
    if (!h.length || !(h[0].k < limit)) return undefined;
    const top = h[0];
    const last = h.pop()!;
    const n = h.length;
    if (!n) return top;
    let k = 0;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= n) break;
      let m = l;
      const r = l + 1;
      if (r < n && (h[r].k < h[l].k || (h[r].k === h[l].k && h[r].i < h[l].i))) m = r;
      const c = h[m];
      if (last.k < c.k || (last.k === c.k && last.i < c.i)) break;
      h[k] = c;
      k = m;
    }
    h[k] = last;
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
  private readonly waiting = new SpanHeap();
  private readonly running = new SpanHeap();
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
  /** Per category, the spans running (in no order: what is added up over them does not depend on it). */
  private readonly active: Span[][] = CATEGORIES.map(() => []);
  private readonly top: Span[][] = CATEGORIES.map(() => []);
  private gap: { us: number; before: Span | undefined; after: Span | undefined } = { us: 0, before: undefined, after: undefined };
  private lastEnded: Span | undefined;
  private prev = NaN;
  private readonly totals = CATEGORIES.slice(0, 4).map(() => 0);
  private busy = 0;
  private readonly runs = new RunsColumn();
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
    this.waiting.push({ i: this.count++, start, end, cat, name, id, credit: 0, k: start, slot: -1 });
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
    // The starts before `to` in order (time, then the order read), then the ends before it: both
    // come out of their heaps sorted, and merge into the order of `attribute`'s points (at one
    // time, ends first).
    const starts: Span[] = [];
    for (let s = this.waiting.popBelow(to); s; s = this.waiting.popBelow(to)) {
      starts.push(s);
      s.k = s.end;
      this.running.push(s);
    }
    let e = this.running.popBelow(to);
    for (let k = 0; k < starts.length || e;) {
      if (e && (k === starts.length || e.end <= starts[k].start)) {
        this.end(e);
        e = this.running.popBelow(to);
      } else this.start(starts[k++]);
    }
  }

  private start(s: Span): void {
    this.allRuns.add(s.start, s.end);
    if (s.cat < 0) return;
    this.unions[s.cat].add(s.start, s.end);
    if (s.cat < 3) this.busyRuns.add(s.start, s.end);
    const t = s.start;
    this.flush(t);
    if (!this.gap.after && this.gap.us > 0 && t === this.prev) this.gap.after = s;
    const a = this.active[s.cat];
    s.slot = a.length;
    a.push(s);
  }

  private end(s: Span): void {
    if (s.cat < 0) return;
    this.flush(s.end);
    const a = this.active[s.cat];
    const last = a.pop()!;
    if (last !== s) {
      a[s.slot] = last;
      last.slot = s.slot;
    }
    this.lastEnded = s;
    this.offer(s);
  }

  /** The stretch from the last point to `to` goes to the first category running in it, as in `attribute`. */
  private flush(to: number): void {
    if (!(to > this.prev)) return;
    const d = to - this.prev;
    let c = 0;
    while (c < 4 && !this.active[c].length) c++;
    this.exclusive[c] += d;
    if (c === 4 && d > this.gap.us) this.gap = { us: d, before: this.lastEnded, after: undefined };
    if (c < 4) {
      const a = this.active[c];
      for (const s of a) s.credit += d;
      const m = this.byName[c];
      // Several spans of the winning category share the stretch; each name is credited once.
      if (a.length === 1) m.set(a[0].name, (m.get(a[0].name) ?? 0) + d);
      else for (const n of new Set(a.map((s) => s.name))) m.set(n, (m.get(n) ?? 0) + d);
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
