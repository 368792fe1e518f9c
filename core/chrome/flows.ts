import type { Position, Range } from '../common/diagnostic';

/**
 * Where each flow's start is, and the flow steps and ends that point at it, so Go to Definition on
 * an `f` or `t` event reaches its `s` (a flow arrow's far end, as Perfetto draws it from there) and
 * Find References on an `s` lists its ends. Events come in document order, so a lookup by position
 * is a binary search.
 */
const MAX_FLOW_EVENTS = 1_000_000;

export class FlowIndex {
  private readonly starts = new Map<string, Range>();
  /** Every flow event (s, t, f) in document order, with its key. */
  private readonly events: { range: Range; key: string; start: boolean }[] = [];

  add(key: string, range: Range, start: boolean): void {
    // A file can hold any number of flows: past this many, later ones get no navigation.
    if (this.events.length >= MAX_FLOW_EVENTS) return;
    if (start && !this.starts.has(key)) this.starts.set(key, range);
    this.events.push({ range, key, start });
  }

  /** The start of the flow of the event at `pos` (itself for an `s`). */
  startAt(pos: Position): Range | undefined {
    const e = this.at(pos);
    return e ? this.starts.get(e.key) : undefined;
  }

  /** Every event of the flow of the event at `pos`, its start first; at most `max`. */
  flowAt(pos: Position, max = 1000): Range[] {
    const e = this.at(pos);
    if (!e) return [];
    const out: Range[] = [];
    for (const x of this.events) {
      if (x.key !== e.key) continue;
      out.push(x.range);
      if (out.length >= max) break;
    }
    return out;
  }

  private at(pos: Position): { range: Range; key: string; start: boolean } | undefined {
    let lo = 0, hi = this.events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.events[mid].range;
      if (before(pos, r.start)) hi = mid - 1;
      else if (before(r.end, pos)) lo = mid + 1;
      else return this.events[mid];
    }
    return undefined;
  }
}

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);

/** What a flow event is to its flow: a start (`s`, `flow_out`), a step (`t`: an end, then a start), an end. */
export type FlowRole = 'start' | 'step' | 'end';

/** A flow event not known to be paired yet. */
export interface Pending {
  ts: number;
  role: FlowRole;
  range: Range;
  /** File order, so events at one time keep it. */
  seq: number;
}

/** Flows read from nothing (`FlowPairs.state`): their events counted, the caps' high marks, paired flows' spans and open flows' events. */
export interface FlowState {
  events: number;
  maxOpen: number;
  maxPaired: number;
  paired: string[];
  /** [earliest start, latest end] of each paired flow, in turn. */
  spans: Float64Array;
  open: [string, Pending[]][];
}

/** An unpaired flow event, found once the whole file is read. */
export interface Orphan {
  key: string;
  role: FlowRole;
  range: Range;
}

/**
 * Flows whose events are still open (no partner yet), and flows known paired; past these many,
 * a new open flow is not checked and the oldest paired flows are forgotten, so a file of millions
 * of flows keeps the checker's memory bounded.
 */
export const MAX_OPEN_FLOWS = 200_000;
export const MAX_PAIRED_FLOWS = 500_000;
/** Events kept per open flow (real flows have two or three): a file repeating one id is not checked past these. */
export const MAX_FLOW_STEPS = 32;

/**
 * Pairs flow events as Chrome and Perfetto bind them: by flow (category and id) over the whole file
 * and by time, not by file order. PyTorch's Kineto writes each `ac2g` kernel's `f` before its
 * launch's `s`; JAX writes its device slices (`flow_in`) before its host ones (`flow_out`). Each end
 * or step pairs with the latest start or step of its flow at or before its time; a start pairs
 * when an end or step follows it in time. Streaming: a flow once paired keeps only its earliest
 * start and latest end.
 */
export class FlowPairs {
  private readonly open = new Map<string, Pending[]>();
  /** Paired flows: [earliest start, latest end] time. */
  private readonly paired = new Map<string, [number, number]>();
  private seq = 0;
  /** Whether paired flows were forgotten (then an end with no start may have had one). */
  private forgot = false;
  /** Whether a flow's event was not kept (a cap reached): its partners may then look alone. */
  private dropped = false;
  /** Flows that reached their cap of events: not reported, their partners may be among the dropped. */
  private readonly full = new Set<string>();
  /** The most flows open, and paired, at once (what a merge of these flows into others must leave room for). */
  private maxOpen = 0;
  private maxPaired = 0;

  add(key: string, role: FlowRole, ts: number, range: Range): void {
    const step: Pending = { ts, role, range, seq: this.seq++ };
    const done = this.paired.get(key);
    let steps = this.open.get(key);
    if (done) {
      // An end after the flow's first start pairs (fan-out, or one more flow of a reused id).
      if (role === 'end' && ts >= done[0]) {
        if (ts > done[1]) done[1] = ts;
        return;
      }
      // Else unfold the flow: its paired part as one start and one end, then this event.
      this.paired.delete(key);
      steps = [
        { ts: done[0], role: 'start', range, seq: -2 },
        { ts: done[1], role: 'end', range, seq: -1 },
      ];
      this.open.set(key, steps);
    }
    if (!steps) {
      if (this.open.size >= MAX_OPEN_FLOWS) {
        this.dropped = true;
        return;
      }
      this.open.set(key, (steps = []));
      if (this.open.size > this.maxOpen) this.maxOpen = this.open.size;
    }
    if (steps.length >= MAX_FLOW_STEPS) {
      this.full.add(key);
      return;
    }
    steps.push(step);
    const span = steps.length === 2 ? pairOfTwo(steps[0], steps[1]) : steps.some((s) => s.role !== 'end') && steps.some((s) => s.role !== 'start') ? pairedSpan(steps) : undefined;
    if (span) {
      this.open.delete(key);
      this.paired.set(key, span);
      if (this.paired.size > this.maxPaired) this.maxPaired = this.paired.size;
      if (this.paired.size > MAX_PAIRED_FLOWS) {
        this.paired.delete(this.paired.keys().next().value as string);
        this.forgot = true;
      }
    }
  }

  /**
   * The state of these flows, read from nothing (a part of a document, parts.ts), for `merge` into
   * the flows of what comes before it; undefined when a cap was reached (then its events are added
   * one by one).
   */
  state(): FlowState | undefined {
    if (this.dropped || this.forgot || this.full.size > 0) return undefined;
    const paired = [...this.paired.keys()];
    const spans = new Float64Array(2 * paired.length);
    let k = 0;
    for (const [a, b] of this.paired.values()) {
      spans[k++] = a;
      spans[k++] = b;
    }
    return { events: this.seq, maxOpen: this.maxOpen, maxPaired: this.maxPaired, paired, spans, open: [...this.open] };
  }

  /**
   * Adds the flows of the text after what was added here, given as their `state` and their events
   * in order (`replay`, called with the flows whose events must be added one by one: those this
   * one has seen), as adding their events one by one would: a flow this one has not seen starts
   * from nothing either way, so its state is taken as it is. That holds while no cap can be
   * reached; when one could be, every event is replayed. `place` maps the state's ranges.
   */
  merge(s: FlowState | undefined, place: (r: Range) => Range, replay: (only: ReadonlySet<string> | undefined) => void): void {
    const room = s && !this.dropped && !this.forgot
      && this.open.size + this.paired.size + s.maxOpen < MAX_OPEN_FLOWS && this.open.size + this.paired.size + s.maxPaired <= MAX_PAIRED_FLOWS;
    if (!s || !room) return replay(undefined);
    const base = this.seq;
    const seen = new Set<string>();
    const known = (key: string) => this.open.has(key) || this.paired.has(key) || this.full.has(key);
    s.paired.forEach((key, i) => {
      if (known(key)) seen.add(key);
      else this.paired.set(key, [s.spans[2 * i], s.spans[2 * i + 1]]);
    });
    for (const [key, steps] of s.open) {
      if (known(key)) seen.add(key);
      // Unfolded parts of a paired flow keep their negative order (never reported).
      else this.open.set(key, steps.map((p) => ({ ts: p.ts, role: p.role, range: place(p.range), seq: p.seq < 0 ? p.seq : base + p.seq })));
    }
    // Those seen here: their events after these flows' own, in order.
    this.seq = base + s.events;
    if (seen.size) replay(seen);
    if (this.open.size > this.maxOpen) this.maxOpen = this.open.size;
    if (this.paired.size > this.maxPaired) this.maxPaired = this.paired.size;
  }

  /**
   * The events of open flows that have no partner, each flow's in time order. None once events were
   * dropped for the cap on open flows (an event seen after its dropped partner would look alone),
   * none of a flow past its own cap: no warning that may be false.
   */
  orphans(): Orphan[] {
    const out: Orphan[] = [];
    if (this.dropped) return out;
    for (const [key, steps] of this.open) {
      if (this.full.has(key)) continue;
      for (const s of unpaired(steps)) {
        // An end whose start may have been forgotten is not reported.
        if (s.role !== 'start' && this.forgot) continue;
        if (s.seq >= 0) out.push({ key, role: s.role, range: s.range });
      }
    }
    return out;
  }
}

/** Steps in time order, file order on ties, a start before an end at one time (they pair). */
function byTime(steps: Pending[]): Pending[] {
  return steps.slice().sort((a, b) => a.ts - b.ts || (a.role === 'start' ? 0 : 1) - (b.role === 'start' ? 0 : 1) || a.seq - b.seq);
}

/** The flow's events that have no partner: an end or step with no start or step before it, a start with no end or step after it. */
function unpaired(steps: Pending[]): Pending[] {
  const out: Pending[] = [];
  let source: Pending | undefined;
  let used = false;
  for (const s of byTime(steps)) {
    if (s.role !== 'start') {
      if (source) used = true;
      else out.push(s);
    }
    if (s.role !== 'end') {
      if (source && !used && source.role === 'start') out.push(source);
      source = s;
      used = false;
    }
  }
  if (source && !used && source.role === 'start') out.push(source);
  return out;
}

/**
 * `pairedSpan` of a flow's first two events, without sorting: most flows are a start and an end
 * (PyTorch's `ac2g` and `fwdbwd`), paired when the start is at or before the end.
 */
function pairOfTwo(a: Pending, b: Pending): [number, number] | undefined {
  if (a.role === b.role || a.role === 'step' || b.role === 'step') return pairedSpan([a, b]);
  const [s, e] = a.role === 'start' ? [a, b] : [b, a];
  if (s.ts <= e.ts) return [s.ts, e.ts];
  // Not comparable (NaN): as the sort orders them.
  return s.ts > e.ts ? undefined : pairedSpan([a, b]);
}

/** [earliest start, latest end] when every event of the flow has its partner, else undefined. */
function pairedSpan(steps: Pending[]): [number, number] | undefined {
  if (steps.length < 2 || unpaired(steps).length) return undefined;
  let first = Infinity, last = -Infinity;
  for (const s of steps) {
    if (s.role !== 'end' && s.ts < first) first = s.ts;
    if (s.role !== 'start' && s.ts > last) last = s.ts;
  }
  return [first, last];
}
