import { BoundedDiagnostics } from '../common/boundedDiagnostics';
import type { Diagnostic } from '../common/diagnostic';
import type { ChunkProblem, ChunkSummary, Span, TPoint } from './chunkChecks';
import { END_FIELDS, OPEN_FIELDS, wordRedo } from './chunkChecks';
import {
  duplicateEnqueue, duplicateIssue, duplicateStart, endBeforeStart, latencyMismatch, metaNotFirst, timeBackwards, unknownCmd, unmatchedEnd,
  unmatchedStart,
} from './crossLineProblems';
import { PAIRINGS } from './eventTypes';
import type { Id } from './line';

/**
 * The chunks of a file joined in file order into what `TraceChecker` finds in one pass: each
 * chunk's own problems (re-worded with the file's line numbers), plus what only the state of the
 * earlier chunks decides — a duplicate of an id enqueued, issued or started there, an END of a
 * START open there, time going back across the boundary, a TRACE_META after an earlier event —
 * and at the end the STARTs never ended and the cmd_ids never enqueued. The work per chunk is its
 * summary's size: the ids it enqueued or issued first and those crossing its boundaries.
 */
/** A START open after the chunks merged so far, on its line in the file. */
interface Open {
  line: number;
  t: number | undefined;
  // Plain numbers, not span arrays: a trace of STARTs without ENDs keeps millions of these.
  idStart: number;
  idEnd: number;
  tStart: number;
  tEnd: number;
}

const num = (v: number) => (Number.isNaN(v) ? undefined : v);

export class ChunkMerger {
  private readonly problems: BoundedDiagnostics;
  private firstEvent = -1;
  private prevT: TPoint | undefined;
  private readonly enqueued = new Map<Id, number>();
  private readonly issued = new Map<Id, number>();
  private readonly open = PAIRINGS.map(() => new Map<Id, Open>());
  private readonly pending = new Map<Id, number[]>();
  private readonly pendingMore = new Map<Id, number>();

  constructor(maxProblems = Infinity) {
    this.problems = new BoundedDiagnostics(maxProblems);
  }

  get dropped(): { count: number; hasError: boolean } {
    return { count: this.problems.dropped, hasError: this.problems.droppedError };
  }

  /**
   * The next chunk, whose first line is line `off` of the file: its kept problems (`plain` places
   * those that name no other line), the count of those it left out, and its summary.
   */
  merge(s: ChunkSummary, found: readonly ChunkProblem[], dropped: number, droppedError: boolean, off: number, plain: (d: ChunkProblem) => Diagnostic): void {
    const line = (n: number) => n + off;
    // Re-worded against the earlier chunks only: this chunk's own firsts are merged below.
    for (const d of found) {
      this.problems.push(d.redo ? wordRedo(d.redo, line, (r) => {
        const earlier = r.k === 'enqueue' ? this.enqueued.get(r.id) : r.k === 'issue' ? this.issued.get(r.id) : this.firstEvent >= 0 ? this.firstEvent : undefined;
        return earlier ?? line(r.first);
      }) : plain(d));
    }
    this.problems.dropped += dropped;
    if (droppedError) this.problems.droppedError = true;
    if (s.firstEvent >= 0) {
      if (this.firstEvent < 0) this.firstEvent = line(s.firstEvent);
      else if (s.metaAtFirst) this.problems.push(metaNotFirst(line(s.firstEvent), s.metaAtFirst, this.firstEvent));
    }
    if (s.firstT) {
      const p = this.prevT;
      if (p && s.firstT.t < p.t) this.problems.push(timeBackwards(line(s.firstT.line), s.firstT.span, s.firstT.t, p.t, p.line, p.span));
      this.prevT = { ...s.lastT!, line: line(s.lastT!.line) };
    }
    const max = this.problems.max;
    for (const [cmd, spans, more] of s.refs) {
      if (this.enqueued.has(cmd)) continue;
      let kept = this.pending.get(cmd);
      let extra = more;
      for (let i = 0; i < spans.length; i += 3) {
        if (!kept) this.pending.set(cmd, (kept = []));
        else if (kept.length >= 3 * max) {
          extra++;
          continue;
        }
        kept.push(line(spans[i]), spans[i + 1], spans[i + 2]);
      }
      if (extra > 0) this.pendingMore.set(cmd, (this.pendingMore.get(cmd) ?? 0) + extra);
    }
    this.firsts(s.enqueues, this.enqueued, off, duplicateEnqueue);
    this.firsts(s.issues, this.issued, off, duplicateIssue);
    PAIRINGS.forEach((p, pi) => {
      const open = this.open[pi];
      const starts = s.starts[pi];
      for (let i = 0; i < starts.length; i += 4) {
        const id = starts[i] as Id;
        const g = open.get(id);
        if (!g) continue;
        if (p.start !== 'JOB_ISSUE') this.problems.push(duplicateStart(p, line(starts[i + 1] as number), [starts[i + 2] as number, starts[i + 3] as number], id, g.line, [g.idStart, g.idEnd]));
        open.delete(id);
      }
      const ends = s.ends[pi];
      for (let i = 0; i < ends.length; i += END_FIELDS) {
        const id = ends[i] as Id;
        const at = line(ends[i + 1] as number);
        const g = open.get(id);
        if (!g) {
          this.problems.push(unmatchedEnd(p, at, [ends[i + 2] as number, ends[i + 3] as number], id));
          continue;
        }
        open.delete(id);
        const t = num(ends[i + 4] as number), latency = num(ends[i + 7] as number);
        if (t === undefined || g.t === undefined) continue;
        if (t < g.t) this.problems.push(endBeforeStart(p, at, [ends[i + 5] as number, ends[i + 6] as number], t, g.t, g.line, [g.tStart, g.tEnd]));
        else if (p.latency && latency !== undefined && latency !== t - g.t) {
          this.problems.push(latencyMismatch(p, at, [ends[i + 8] as number, ends[i + 9] as number], latency, t, g.t, g.line, [g.tStart, g.tEnd]));
        }
      }
      const opens = s.opens[pi];
      for (let i = 0; i < opens.length; i += OPEN_FIELDS) {
        const o = opens as number[];
        open.set(opens[i] as Id, { line: line(o[i + 1]), t: num(o[i + 2]), idStart: o[i + 3], idEnd: o[i + 4], tStart: o[i + 5], tEnd: o[i + 6] });
      }
    });
  }

  private firsts(list: (Id | number)[], seen: Map<Id, number>, off: number, dup: (line: number, span: Span, id: Id, first: number, firstSpan: Span) => Diagnostic): void {
    for (let i = 0; i < list.length; i += 4) {
      const id = list[i] as Id;
      const line = (list[i + 1] as number) + off;
      const first = seen.get(id);
      if (first !== undefined) this.problems.push(dup(line, [list[i + 2] as number, list[i + 3] as number], id, first, [0, 0]));
      else seen.set(id, line);
    }
  }

  /** As `TraceChecker.finish`: what only the end of the file tells. */
  finish(): Diagnostic[] {
    PAIRINGS.forEach((p, i) => {
      for (const [id, o] of this.open[i]) this.problems.push(unmatchedStart(p, o.line, [o.idStart, o.idEnd], id));
    });
    if (this.enqueued.size > 0) {
      const found: [number, number, number, Id][] = [];
      for (const [cmd, spans] of this.pending) {
        if (this.enqueued.has(cmd)) continue;
        for (let i = 0; i < spans.length; i += 3) found.push([spans[i], spans[i + 1], spans[i + 2], cmd]);
        const more = this.pendingMore.get(cmd) ?? 0;
        this.problems.dropped += more;
        if (more > 0) this.problems.droppedError = true;
      }
      found.sort((a, b) => a[0] - b[0]);
      for (const [l, start, end, cmd] of found) this.problems.push(unknownCmd(l, [start, end], cmd));
    }
    return this.problems.all();
  }
}
