import { MAX_QUOTED } from '../common/escape';
import type { InferscopeDocument } from './document';
import { num, str } from './model';
import { CATEGORIES, type AnalysisResult, type BreakdownEntry, type Category, type Suggestion } from './analysisResult';
import { MAX_CITED, RULES, SUGGESTIONS, type Shares } from './rules';
import { validRange } from './scopeChecks';
import { IntervalList } from './intervals';
import { timesOf, timesReader, type TimeIndex } from './times';
import type { Element } from './model';
import type { TraceLayout } from './document';
import { KeyIndex } from '../common/keyIndex';
import { eventIdOf, I32Column } from './columns';
import { SpanKind } from './profilerLayout';

export const CATEGORY_OF: Record<string, Category> = {
  gpu_kernel: 'gpu_compute', h2d_copy: 'h2d_copy', d2h_copy: 'd2h_copy', cpu_call: 'cpu_preprocessing', cpu_syscall: 'cpu_preprocessing',
};

/**
 * The events a category counts, column-wise: a million of them as objects (and their sweep
 * points as tuples) were most of a streamed trace's analysis peak, and arrays grown by push left
 * their copies behind. A name is held once (its number here); an id is read back from the event
 * when it is cited.
 */
class Spans {
  readonly times: IntervalList;
  readonly cat = new I32Column();
  private readonly nameOf = new I32Column();
  readonly names: string[] = [];
  private readonly nameIds = new KeyIndex((k) => this.names[k]);
  private readonly event = new I32Column();

  constructor(private readonly eventId: (i: number) => unknown, capacity: number) {
    this.times = new IntervalList(capacity);
  }

  get length(): number {
    return this.times.length;
  }

  push(start: number, end: number, cat: number, name: string, event: number): void {
    const i = this.times.length;
    this.times.push(start, end);
    this.cat.set(i, cat);
    const k = this.names.length;
    this.names.push(name);
    const f = this.nameIds.add(k);
    if (f >= 0) this.names.pop();
    this.nameOf.set(i, f >= 0 ? f : k);
    this.event.set(i, event);
  }

  name(i: number): string {
    return this.names[this.nameOf.get(i)];
  }

  /** Span `i`'s event id when it is a string short enough to cite: a huge id would make a huge link. */
  id(i: number): string | undefined {
    const id = str(this.eventId(this.event.get(i)));
    return id !== undefined && id.length <= MAX_QUOTED ? id : undefined;
  }
}

/**
 * Percentages to one decimal that sum to exactly 100: each share rounded down to 0.1, then the
 * missing tenths go to the largest remainders (ties: priority order).
 */
export function percentages(durations: readonly number[], total: number): number[] {
  if (total <= 0) return durations.map((_, i) => (i === durations.length - 1 ? 100 : 0));
  const tenths = durations.map((d) => (d / total) * 1000);
  const base = tenths.map(Math.floor);
  let missing = 1000 - base.reduce((a, b) => a + b, 0);
  const order = tenths.map((t, i) => [t - Math.floor(t), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; missing > 0 && k < order.length; k++, missing--) base[order[k][1]]++;
  return base.map((b) => b / 10);
}

/**
 * What every event with times adds, in the order read, whatever keeps the spans: the window, and
 * the copies' and kernels' figures. `add` gives the category it counts in (-1: none) and the name
 * it counts under.
 */
export class Tally {
  t0 = Infinity;
  t1 = -Infinity;
  readonly copies: Shares['copies'] = { h2d: 0, pageable: 0, bytes: 0, gbps: { sum: 0, n: 0 } };
  readonly kernels: Shares['kernels'] = new Map();
  name = '';

  add(start: number, end: number, type: string | undefined, name: string | undefined, m: Record<string, unknown>): number {
    this.t0 = Math.min(this.t0, start);
    this.t1 = Math.max(this.t1, end);
    const cat = type !== undefined && Object.hasOwn(CATEGORY_OF, type) ? CATEGORIES.indexOf(CATEGORY_OF[type]) : -1;
    if (cat < 0 || end === start) return -1;
    this.name = name ??= type!;
    if (type === 'h2d_copy') {
      const copies = this.copies;
      copies.h2d++;
      if (m.kind === 'pageable') copies.pageable++;
      copies.bytes += num(m.bytes) ?? 0;
      const g = num(m.throughput_gbps);
      if (g !== undefined) {
        copies.gbps.sum += g;
        copies.gbps.n++;
      }
    }
    if (type === 'gpu_kernel') {
      const k = this.kernels.get(name) ?? { us: 0, occ: { sum: 0, n: 0 } };
      k.us += end - start;
      const o = num(m.occupancy);
      if (o !== undefined) {
        k.occ.sum += o;
        k.occ.n++;
      }
      this.kernels.set(name, k);
    }
    return cat;
  }
}

/** What one pass over the events gathers; the big lists are dropped as soon as they are used. */
interface Gathered {
  spans: Spans | undefined;
  byCat: IntervalList[];
  tally: Tally;
}

function gather(doc: InferscopeDocument): Gathered {
  const n = doc.parsed.events.length;
  // Sized once for every event: grown by doubling, the copies they leave were garbage at the peak.
  const spans = new Spans(eventIdOf(doc.parsed.events), n);
  const byCat = CATEGORIES.map(() => new IntervalList());
  const tally = new Tally();
  const add = (start: number, end: number, type: string | undefined, name: string | undefined, m: Record<string, unknown>, index: number) => {
    const cat = tally.add(start, end, type, name, m);
    if (cat < 0) return;
    spans.push(start, end, cat, tally.name, index);
    byCat[cat].push(start, end);
  };
  if (doc.layout === 'profiler') {
    // Calls, kernels and copies as paired and placed by `profilerLayout.ts`; scopes only widen the window.
    const p = doc.profiler;
    for (let i = 0; i < p.length; i++) add(p.start[i], p.end[i], PROFILER_TYPE[p.kind[i]], p.name[i], { bytes: p.bytes[i] }, p.first[i]);
    return { spans, byCat, tally };
  }
  for (const e of doc.parsed.events) {
    const t = timesOf(e);
    if (t.start !== t.start || t.end !== t.end || t.end < t.start) continue;
    add(t.start, t.end, str(e.obj?.type), str(e.obj?.name), metadataOf(e), e.index);
  }
  return { spans, byCat, tally };
}

/** An event's metadata as the analysis reads it. */
export const metadataOf = (e: Element): Record<string, unknown> => (e.obj?.metadata ?? {}) as Record<string, unknown>;

/** The data-model type a Profiler span counts as (its scopes and instants count in no category). */
export const PROFILER_TYPE: Record<number, string | undefined> = {
  [SpanKind.Call]: 'cpu_call', [SpanKind.Cpu]: 'cpu_call', [SpanKind.Kernel]: 'gpu_kernel', [SpanKind.H2D]: 'h2d_copy', [SpanKind.D2H]: 'd2h_copy',
};

/**
 * The §3.1 analysis of a trace: per-category totals as interval unions, an exclusive attribution of
 * every µs of [first start, last end] by CATEGORIES priority, and the bottleneck and suggestions of
 * `rules.ts`. Memory events and instants widen the window but count in no category.
 */
export function analyze(doc: InferscopeDocument): AnalysisResult {
  const g = gather(doc);
  const { t0, t1 } = g.tally;
  const busy = IntervalList.unionLength(g.byCat[0], g.byCat[1], g.byCat[2]);
  const totals = g.byCat.map((iv) => iv.unionLength());
  g.byCat = [];
  const { exclusive, examples, cited } = attribute(g.spans!, t0, t1);
  g.spans = undefined;
  // Before the time index it builds: the lists above are garbage by then, not live.
  const overhead = frameworkOverhead(doc, t0, t1);
  return analysisOf(doc.layout, { tally: g.tally, busy, totals, exclusive, examples, cited, overhead });
}

/** The figures the result is made of, however the events were read (kept: `analyze`; as they came: `arrivalAnalysis.ts`). */
export interface Figures {
  tally: Tally;
  /** The union of the kernels and copies. */
  busy: number;
  /** Per category, the union of its spans. */
  totals: number[];
  exclusive: number[];
  examples: string[][];
  cited: string[][];
  overhead: number;
}

/** The result of the analysis from its figures: the shares, the bottleneck and suggestions of `rules.ts`. */
export function analysisOf(layout: TraceLayout, f: Figures): AnalysisResult {
  const { t0, t1, copies, kernels } = f.tally;
  const { busy, totals, exclusive, examples, cited, overhead } = f;
  const window = t1 > t0 ? t1 - t0 : 0;
  const pct = percentages(exclusive, window);
  const breakdown: BreakdownEntry[] = CATEGORIES.map((category, i) => ({ category, duration_us: round(exclusive[i]), percentage: pct[i], examples: examples[i] }));
  const shares: Shares = {
    gpu: pct[0], h2d: pct[1], d2h: pct[2], cpu: pct[3], idle: pct[4], window, exclusive, breakdown,
    gpuIdlePct: window > 0 ? Math.round(((window - busy) / window) * 1000) / 10 : 0,
    copies, kernels, cited,
  };
  const rule = RULES.find((r) => r.when(shares))!;
  const evidence = rule.evidence(shares);
  const suggestions: Suggestion[] = [];
  for (const s of SUGGESTIONS) {
    if (!s.when(shares, rule.type)) continue;
    const est = Math.max(1, Math.round(s.estimate(shares)));
    suggestions.push({ priority: est >= 10 ? 'high' : est >= 5 ? 'medium' : 'low', action: s.action(shares), rationale: s.rationale(shares), estimated_improvement_percent: est, evidence: s.evidence(shares), event_ids: s.cites(shares) });
  }
  suggestions.sort((a, b) => b.estimated_improvement_percent - a.estimated_improvement_percent);
  return {
    analysis_version: '1.0',
    trace_layout: layout,
    summary: {
      end_to_end_latency_us: round(window), total_cpu_time_us: round(totals[3]), total_gpu_time_us: round(totals[0]),
      total_h2d_us: round(totals[1]), total_d2h_us: round(totals[2]), total_idle_us: round(window - busy),
      framework_overhead_us: round(overhead),
    },
    timeline_breakdown: breakdown,
    bottleneck: { type: rule.type, primary_cause: rule.cause(shares), confidence: Math.round(rule.confidence(shares) * 100) / 100, evidence, event_ids: rule.cites(shares) },
    suggestions,
  };
}

/**
 * `framework_overhead_us`, which §3.1 names without defining: the time inside scopes (an inference,
 * a request) during which no event of any kind runs, i.e. what the framework itself (Python,
 * dispatch, launches) spends between the operations it traced. Gaps outside every scope (between
 * requests) are the application's idle, not the framework's. A trace without scopes is one scope:
 * its whole window.
 */
function frameworkOverhead(doc: InferscopeDocument, t0: number, t1: number): number {
  const n = doc.parsed.events.length;
  if (doc.layout === 'profiler') {
    const p = doc.profiler;
    const scoped = new IntervalList();
    const running = new IntervalList(p.length);
    for (let i = 0; i < p.length; i++) {
      if (p.kind[i] === SpanKind.Scope) {
        if (p.end[i] > p.start[i]) scoped.push(p.start[i], p.end[i]);
      } else if (p.end[i] > p.start[i]) running.push(p.start[i], p.end[i]);
    }
    if (!scoped.length && t1 > t0) scoped.push(t0, t1);
    return uncovered(scoped.merged(), running);
  }
  const inside = scopedRuns(doc.parsed.scopes, n, doc.times, t0, t1);
  // Every event that runs a while, its times read again (from the columns when read streamed):
  // not kept from the first pass, where it was 15 MB live through the sweep.
  const running = new IntervalList(n);
  const read = timesReader(doc.parsed.events);
  const t = new Float64Array(2);
  for (let i = 0; i < n; i++) {
    read(i, t);
    if (t[1] > t[0]) running.push(t[0], t[1]);
  }
  return uncovered(inside, running);
}

/** The time inside the scopes of a data-model trace of `n` events, as sorted disjoint runs (no scope: the window). */
export function scopedRuns(scopes: readonly Element[], n: number, times: TimeIndex, t0: number, t1: number): IntervalList {
  const scoped = new IntervalList(scopes.length);
  for (const s of scopes) {
    const r = validRange(s, n);
    if (!r) continue;
    const [a, b] = times.range(r[0], r[1]);
    if (b > a) scoped.push(a, b);
  }
  if (!scopes.length && t1 > t0) scoped.push(t0, t1);
  return scoped.merged();
}

/** Time of the disjoint, sorted runs `inside` that no interval of `running` covers. */
export function uncovered(inside: IntervalList, running: Pick<IntervalList, 'spendRuns'>): number {
  // Each scope run's length, less its overlap with each run of events: in the order of a loop over
  // the scope runs with one over the event runs inside it (pairs that overlap come in the same
  // order either way, both lists being sorted and disjoint), so the sum is the same to the last bit.
  let total = 0;
  let added = 0;
  let lo = 0;
  running.spendRuns((s, e) => {
    while (lo < inside.length && inside.ends[lo] <= s) lo++;
    for (let i = lo; i < inside.length && inside.starts[i] < e; i++) {
      for (; added <= i; added++) total += inside.ends[added] - inside.starts[added];
      total -= Math.min(inside.ends[i], e) - Math.max(inside.starts[i], s);
    }
  });
  for (; added < inside.length; added++) total += inside.ends[added] - inside.starts[added];
  return Math.max(0, total);
}

function round(us: number): number {
  return Math.round(us * 1000) / 1000;
}

/**
 * Sweeps the span boundaries once: each stretch goes to the highest-priority category running in it
 * (idle when none), and to each running span's name of that category, for the examples.
 */
function attribute(spans: Spans, t0: number, t1: number): { exclusive: number[]; examples: string[][]; cited: string[][] } {
  const exclusive = CATEGORIES.map(() => 0);
  const byName: Map<string, number>[] = CATEGORIES.map(() => new Map());
  const credit = new Float64Array(spans.length);
  // The longest stretch with nothing running, and the spans that end before and start after it.
  let gap = { us: 0, before: -1, after: -1 };
  let lastEnded = -1;
  if (!(t1 > t0)) return { exclusive, examples: CATEGORIES.map(() => []), cited: CATEGORIES.map(() => []) };
  // Point 2i is span i's start, 2i + 1 its end; at one time ends come first, then the order spans came in.
  const { starts, ends } = spans.times;
  const at = (p: number) => (p & 1 ? ends[p >> 1] : starts[p >> 1]);
  const points = new Uint32Array(2 * spans.length);
  for (let p = 0; p < points.length; p++) points[p] = p;
  points.sort((p, q) => at(p) - at(q) || (q & 1) - (p & 1) || p - q);
  const active: Set<number>[] = CATEGORIES.map(() => new Set());
  let prev = t0;
  const flush = (to: number) => {
    if (to <= prev) return;
    const c = active.findIndex((s) => s.size > 0);
    const cat = c < 0 ? 4 : c;
    exclusive[cat] += to - prev;
    if (c < 0 && to - prev > gap.us) gap = { us: to - prev, before: lastEnded, after: -1 };
    if (c >= 0) {
      for (const i of active[c]) credit[i] += to - prev;
      // Several spans of the winning category share the stretch; each name is credited once.
      const names = new Set<string>();
      for (const i of active[c]) names.add(spans.name(i));
      for (const n of names) byName[c].set(n, (byName[c].get(n) ?? 0) + to - prev);
    }
    prev = to;
  };
  for (const p of points) {
    const t = at(p);
    const i = p >> 1;
    flush(t);
    if (!(p & 1)) {
      if (gap.after < 0 && gap.us > 0 && t === prev) gap.after = i;
      active[spans.cat.get(i)].add(i);
    } else {
      active[spans.cat.get(i)].delete(i);
      lastEnded = i;
    }
  }
  flush(t1);
  const examples = byName.map((m) => [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map(([n]) => n));
  const cited = topCredited(spans, credit).map((top) => top.map((i) => spans.id(i)!));
  for (const i of [gap.before, gap.after]) {
    const id = i >= 0 ? spans.id(i) : undefined;
    if (id !== undefined) cited[4].push(id);
  }
  return { exclusive, examples, cited };
}

/**
 * Per category, the MAX_CITED spans with an id that got the most credit (ties: the earlier span),
 * most first: what sorting every credited span and taking each category's first ones gave, without
 * an array of all of them.
 */
function topCredited(spans: Spans, credit: Float64Array): number[][] {
  const top: number[][] = CATEGORIES.map(() => []);
  for (let i = 0; i < credit.length; i++) {
    if (!(credit[i] > 0)) continue;
    const t = top[spans.cat.get(i)];
    // Spans come in index order, so a tie never goes before one already held.
    if (t.length === MAX_CITED && credit[t[MAX_CITED - 1]] >= credit[i]) continue;
    if (spans.id(i) === undefined) continue;
    let k = t.length === MAX_CITED ? MAX_CITED - 1 : t.length;
    while (k > 0 && credit[t[k - 1]] < credit[i]) {
      t[k] = t[k - 1];
      k--;
    }
    t[k] = i;
  }
  return top;
}
