import { BoundedDiagnostics } from '../common/boundedDiagnostics';
import type { Diagnostic } from '../common/diagnostic';
import { lineDiagnostic } from './checker';
import { duplicateEnqueue, duplicateIssue, duplicateStart, endBeforeStart, latencyMismatch, metaNotFirst, timeBackwards, unmatchedEnd } from './crossLineProblems';
import { ID_FIELD, PAIRING_ROLE, PAIRINGS } from './eventTypes';
import type { Id, TraceLine } from './line';
import { ByteLine, packedEnd, packedStart, unpackRange } from './fastBytes';
import { locate, locateIn as rangeOf } from './locate';

/**
 * The cross-line checks of `TraceChecker` on one chunk of a file (a byte range checked by its own
 * thread), with lines numbered from the chunk's first. What the chunk decides alone it reports;
 * what depends on the lines before it goes into a compact summary (`ChunkSummary`) that
 * `ChunkMerger` (chunkMerge.ts) joins, chunk after chunk in file order, into exactly the
 * diagnostics of the one pass.
 */
export type Span = [number, number];

/**
 * A problem whose message or related information names another line. The chunk words it with its
 * own line numbers (its position orders it among the kept problems); the merger words it again
 * from these arguments with the file's numbers, and the first enqueue, issue or event the earlier
 * chunks had.
 */
export type Redo =
  | { k: 'time'; line: number; span: Span; t: number; prevT: number; prevLine: number; prevSpan: Span }
  | { k: 'enqueue' | 'issue'; line: number; span: Span; id: Id; first: number }
  | { k: 'start'; pi: number; line: number; span: Span; id: Id; openLine: number; openSpan: Span }
  | { k: 'order'; pi: number; line: number; span: Span; t: number; startT: number; startLine: number; startSpan: Span }
  | { k: 'latency'; pi: number; line: number; span: Span; latency: number; t: number; startT: number; startLine: number; startSpan: Span }
  | { k: 'meta'; line: number; span: Span; first: number };

/** A problem of a chunk: on a line counted from its first. */
export type ChunkProblem = Diagnostic & { redo?: Redo; tooLong?: number; tooDeep?: true };

/** A point of the file with a `t_cycle`: the line, the value and its span. */
export interface TPoint {
  line: number;
  t: number;
  span: Span;
}

/**
 * Per record of `ChunkSummary.ends`: an END whose id the chunk had not seen before (an earlier
 * chunk's START may be open for it): id, line, its id's span, t_cycle (NaN when none) and span,
 * latency_cycles (NaN when none or not checked) and span. Flat, so a worker posts numbers, not objects.
 */
export const END_FIELDS = 10;

/** Per record of `ChunkSummary.opens`: a START still open at the chunk's end: id, line, t_cycle (NaN when none), id span, t_cycle span. */
export const OPEN_FIELDS = 7;

/** What the chunks after and before this one need to know of it. Lines are the chunk's own. */
export interface ChunkSummary {
  /** First event line, -1 if none. */
  firstEvent: number;
  /** The span of `event_type` when the chunk's first event is a TRACE_META (wrong unless no earlier chunk has an event). */
  metaAtFirst: Span | undefined;
  firstT: TPoint | undefined;
  lastT: TPoint | undefined;
  /** Each cmd_id's first CMD_ENQUEUE in the chunk, and each job_id's first JOB_ISSUE: id, line, span start, span end. */
  enqueues: (Id | number)[];
  issues: (Id | number)[];
  /** References to a cmd_id not enqueued before them in the chunk: id, spans (line, start, end; at most `3 × max`) and the count of the rest. */
  refs: [Id, number[], number][];
  /** Per pairing: each id whose first line in the chunk is a START (id, line, span start, span end), or an END. */
  starts: (Id | number)[][];
  ends: (Id | number)[][];
  opens: (Id | number)[][];
}

/**
 * A START open in the chunk, its ranges packed as the byte scanner packs them (a chunk of starts
 * without ends holds thousands, and a third of a trace's lines are STARTs: no arrays per line);
 * `CLOSED` marks an id whose line(s) here left nothing open.
 */
interface Open {
  line: number;
  t: number | undefined;
  /** The line's text, when its ranges are located only if needed (a line the full parser read). */
  text: string | undefined;
  /** Its id's and its t_cycle's ranges, packed (`unpackRange`; -1: none). */
  id: number;
  tRange: number;
}

const CLOSED: Open = { line: -1, t: undefined, text: undefined, id: -1, tRange: -1 };

function openSpan(o: Open, key: string, which: 'id' | 't'): Span {
  if (o.text !== undefined) return locate(o.text, key);
  return unpackRange(which === 'id' ? o.id : o.tRange) ?? [0, 0];
}

/** The diagnostic of a `Redo`, with `line` mapping a line of it to the file's (and `first` the first-line lookups). */
export function wordRedo(r: Redo, line: (n: number) => number, first: (r: Redo & { first: number }) => number = (x) => line(x.first)): Diagnostic {
  switch (r.k) {
    case 'time': return timeBackwards(line(r.line), r.span, r.t, r.prevT, line(r.prevLine), r.prevSpan);
    case 'enqueue': return duplicateEnqueue(line(r.line), r.span, r.id, first(r), [0, 0]);
    case 'issue': return duplicateIssue(line(r.line), r.span, r.id, first(r), [0, 0]);
    case 'start': return duplicateStart(PAIRINGS[r.pi], line(r.line), r.span, r.id, line(r.openLine), r.openSpan);
    case 'order': return endBeforeStart(PAIRINGS[r.pi], line(r.line), r.span, r.t, r.startT, line(r.startLine), r.startSpan);
    case 'latency': return latencyMismatch(PAIRINGS[r.pi], line(r.line), r.span, r.latency, r.t, r.startT, line(r.startLine), r.startSpan);
    case 'meta': return metaNotFirst(line(r.line), r.span, first(r));
  }
}

const same = (n: number) => n;

/**
 * The chunk's side: `add` every line in order (as `TraceChecker.add`), then `summary()`. Its
 * problems are kept to the first `maxProblems` by position, as the one pass keeps the file's. It
 * keeps no line object past `add` (a ByteLine may be reused for the next line), only a parsed
 * line's text.
 */
export class ChunkChecker {
  readonly problems: BoundedDiagnostics;
  private firstEvent = -1;
  private metaAtFirst: Span | undefined;
  private firstT: TPoint | undefined;
  /**
   * The last line with a t_cycle: its number and value, and its t_cycle span — packed, for a line of
   * the byte scanner (`prevLine` may be an object reused for the next line), or that line.
   */
  private prevLine = -1;
  private prevT = 0;
  private prevPacked = -1;
  private prevParsed: TraceLine | undefined;
  private readonly enqueued = new Map<Id, number>();
  private readonly issued = new Map<Id, number>();
  private readonly enqueues: (Id | number)[] = [];
  private readonly issues: (Id | number)[] = [];
  private readonly refs = new Map<Id, [Id, number[], number]>();
  /**
   * Per pairing, every id with a line in this chunk so far (only the first line of an id can meet
   * an earlier chunk's state): its open START, or CLOSED.
   */
  private readonly open = PAIRINGS.map(() => new Map<Id, Open>());
  private readonly starts: (Id | number)[][] = PAIRINGS.map(() => []);
  private readonly ends: (Id | number)[][] = PAIRINGS.map(() => []);

  constructor(maxProblems = Infinity) {
    this.problems = new BoundedDiagnostics(maxProblems);
  }

  private redo(r: Redo): void {
    this.problems.push(Object.assign(wordRedo(r, same), { redo: r }));
  }

  add(l: TraceLine, lineNo: number): void {
    if (l.local) for (const d of l.local) this.problems.push(lineDiagnostic(lineNo, d));
    if (!l.event) return;
    const type = l.type;
    if (this.firstEvent < 0) {
      this.firstEvent = lineNo;
      if (type === 'TRACE_META') this.metaAtFirst = rangeOf(l, 'event_type');
    } else if (type === 'TRACE_META') this.redo({ k: 'meta', line: lineNo, span: rangeOf(l, 'event_type'), first: this.firstEvent });
    if (l.t !== undefined) {
      if (this.prevLine < 0) this.firstT = { line: lineNo, t: l.t, span: rangeOf(l, 't_cycle') };
      else if (l.t < this.prevT) {
        this.redo({ k: 'time', line: lineNo, span: rangeOf(l, 't_cycle'), t: l.t, prevT: this.prevT, prevLine: this.prevLine, prevSpan: this.prevSpan() });
      }
      this.prevLine = lineNo;
      this.prevT = l.t;
      if (l instanceof ByteLine) {
        this.prevPacked = l.rT;
        this.prevParsed = undefined;
      } else this.prevParsed = l;
    }
    if (!type) return;
    if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) this.first(this.enqueued, this.enqueues, 'enqueue', l, l.cmd, 'cmd_id', lineNo);
    else if (l.cmd !== undefined && !this.enqueued.has(l.cmd)) {
      const [start, end] = rangeOf(l, 'cmd_id');
      const r = this.refs.get(l.cmd);
      if (!r) this.refs.set(l.cmd, [l.cmd, [lineNo, start, end], 0]);
      else if (r[1].length < 3 * this.problems.max) r[1].push(lineNo, start, end);
      else r[2]++;
    }
    if (type === 'JOB_ISSUE' && l.job !== undefined) this.first(this.issued, this.issues, 'issue', l, l.job, 'job_id', lineNo);
    const role = PAIRING_ROLE.get(type);
    if (role && role.start >= 0) this.start(role.start, l, lineNo);
    if (role && role.end >= 0) this.end(role.end, l, lineNo);
  }

  /** An enqueue or issue: the chunk's first of its id goes to the summary, a later one is a duplicate (of a first the merger knows). */
  private first(seen: Map<Id, number>, list: (Id | number)[], k: 'enqueue' | 'issue', l: TraceLine, id: Id, key: string, lineNo: number): void {
    const first = seen.get(id);
    if (first !== undefined) this.redo({ k, line: lineNo, span: rangeOf(l, key), id, first });
    else {
      seen.set(id, lineNo);
      const [s, e] = rangeOf(l, key);
      list.push(id, lineNo, s, e);
    }
  }

  private start(pi: number, l: TraceLine, lineNo: number): void {
    const p = PAIRINGS[pi];
    const id = l[ID_FIELD[p.key]];
    if (id === undefined) return;
    const open = this.open[pi];
    const prev = open.get(id);
    const packed = l instanceof ByteLine ? l.packedRange(p.key) : -1;
    let idStart: number, idEnd: number;
    if (packed !== -1) {
      idStart = packedStart(packed);
      idEnd = packedEnd(packed);
    } else [idStart, idEnd] = rangeOf(l, p.key);
    if (prev === undefined) this.starts[pi].push(id, lineNo, idStart, idEnd);
    else if (prev !== CLOSED && p.start !== 'JOB_ISSUE') {
      this.redo({ k: 'start', pi, line: lineNo, span: [idStart, idEnd], id, openLine: prev.line, openSpan: openSpan(prev, p.key, 'id') });
    }
    if (packed !== -1) open.set(id, { line: lineNo, t: l.t, text: undefined, id: packed, tRange: (l as ByteLine).rT });
    else open.set(id, { line: lineNo, t: l.t, text: l.text, id: -1, tRange: -1 });
  }

  private end(pi: number, l: TraceLine, lineNo: number): void {
    const p = PAIRINGS[pi];
    const id = l[ID_FIELD[p.key]];
    if (id === undefined) return;
    const open = this.open[pi];
    const s = open.get(id);
    if (s === undefined || s === CLOSED) {
      if (s === CLOSED) this.problems.push(unmatchedEnd(p, lineNo, rangeOf(l, p.key), id));
      else {
        open.set(id, CLOSED);
        const t = l.t, latency = p.latency ? l.latency : undefined;
        const [s0, e0] = rangeOf(l, p.key);
        const [ts, te] = t !== undefined ? rangeOf(l, 't_cycle') : [0, 0];
        const [ls, le] = latency !== undefined ? rangeOf(l, 'latency_cycles') : [0, 0];
        this.ends[pi].push(id, lineNo, s0, e0, t ?? NaN, ts, te, latency ?? NaN, ls, le);
      }
      return;
    }
    open.set(id, CLOSED);
    if (l.t !== undefined && s.t !== undefined) {
      if (l.t < s.t) {
        this.redo({ k: 'order', pi, line: lineNo, span: rangeOf(l, 't_cycle'), t: l.t, startT: s.t, startLine: s.line, startSpan: openSpan(s, 't_cycle', 't') });
      } else if (p.latency) {
        const lat = l.latency;
        if (lat !== undefined && lat !== l.t - s.t) {
          this.redo({ k: 'latency', pi, line: lineNo, span: rangeOf(l, 'latency_cycles'), latency: lat, t: l.t, startT: s.t, startLine: s.line, startSpan: openSpan(s, 't_cycle', 't') });
        }
      }
    }
  }

  private prevSpan(): Span {
    return this.prevParsed ? rangeOf(this.prevParsed, 't_cycle') : unpackRange(this.prevPacked)!;
  }

  summary(): ChunkSummary {
    return {
      firstEvent: this.firstEvent,
      metaAtFirst: this.metaAtFirst,
      firstT: this.firstT,
      lastT: this.prevLine < 0 ? undefined : { line: this.prevLine, t: this.prevT, span: this.prevSpan() },
      enqueues: this.enqueues,
      issues: this.issues,
      refs: [...this.refs.values()],
      starts: this.starts,
      ends: this.ends,
      opens: this.open.map((m, pi) => {
        const list: (Id | number)[] = [];
        for (const [id, o] of m) {
          if (o === CLOSED) continue;
          const [is, ie] = openSpan(o, PAIRINGS[pi].key, 'id');
          const [ts, te] = o.t !== undefined ? openSpan(o, 't_cycle', 't') : [0, 0];
          list.push(id, o.line, o.t ?? NaN, is, ie, ts, te);
        }
        return list;
      }),
    };
  }
}
