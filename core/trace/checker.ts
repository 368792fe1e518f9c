import { BoundedDiagnostics } from '../common/boundedDiagnostics';
import { IdTable } from '../common/intKeyed';
import { range, type Diagnostic } from '../common/diagnostic';
import {
  duplicateEnqueue, duplicateIssue, duplicateStart, endBeforeStart, latencyMismatch, metaNotFirst, timeBackwards, unknownCmd, unmatchedEnd,
  unmatchedStart,
} from './crossLineProblems';
import { ID_FIELD, PAIRING_ROLE, PAIRINGS } from './eventTypes';
import type { Id, LocalDiagnostic, TraceLine } from './line';
import { locate, locateIn as rangeOf } from './locate';

/**
 * An open START, one per id still open (a trace of starts without ends holds millions): ranges
 * are plain numbers, copied so a streamed line's bytes are not kept alive.
 */
interface Open {
  line: number;
  t: number | undefined;
  idStart: number;
  idEnd: number;
  tStart: number;
  tEnd: number;
  /** The line's text when its ranges are found on demand (a document's lines), else undefined. */
  text: string | undefined;
}

function openRange(o: Open, key: string, which: 'id' | 't'): [number, number] {
  if (o.text !== undefined) return locate(o.text, key);
  return which === 'id' ? [o.idStart, o.idEnd] : [o.tStart, o.tEnd];
}

/** A line's own problem, placed on its line. */
export const lineDiagnostic = (lineNo: number, d: LocalDiagnostic): Diagnostic =>
  ({ range: range(lineNo, d.start, d.end), severity: d.severity, code: d.code, message: d.message });

/**
 * The lines naming a cmd_id not enqueued (yet), as flat numbers: line, start, end of each. All of
 * them become diagnostics or none does, so with at most `max` diagnostics kept only the first
 * `max` can be shown; the rest are only counted (`pendingMore`).
 */
type PendingSpans = number[];

/**
 * The checks that span lines, as one pass over the lines in order. The CLI streams a file through
 * it without keeping the lines; the editor runs it once over a document only read (an edited one
 * keeps the same checks per id: `incrementalChecks.ts`).
 */
export class TraceChecker {
  private readonly problems: BoundedDiagnostics;
  private firstEventLine = -1;
  private prevT: number | undefined;
  private prevTLine = -1;
  private prevTEvent: TraceLine | undefined;
  private readonly enqueued = new Map<Id, number>();
  private readonly issued = new Map<Id, number>();
  private readonly open = PAIRINGS.map(() => new IdTable<Open>());
  private readonly pendingCmdRefs = new Map<Id, PendingSpans>();
  private readonly pendingMore = new Map<Id, number>();

  /**
   * `textOf` gives earlier lines' text, so related information (e.g. the first CMD_ENQUEUE of a
   * duplicate id) can point at the exact token. The editor has every line; the streaming CLI
   * passes nothing, keeps no line texts, and prints no related information anyway. With
   * `maxProblems` only the first that many diagnostics by position are kept (`dropped` counts
   * the rest), and only what they need of the lines naming an unknown cmd_id.
   */
  constructor(private readonly textOf?: (line: number) => string | undefined, maxProblems = Infinity) {
    this.problems = new BoundedDiagnostics(maxProblems);
  }

  /** Problems found but not kept (with `maxProblems`), and whether one of them is an error. */
  get dropped(): { count: number; hasError: boolean } {
    return { count: this.problems.dropped, hasError: this.problems.droppedError };
  }

  /**
   * Problems found elsewhere on lines of this pass (a worker's per-line diagnostics of a chunk,
   * kept to its first `maxProblems`), and the count of those it left out: the first N by position
   * of the whole file can only come from each chunk's first N.
   */
  addFound(found: readonly Diagnostic[], dropped: number, droppedError: boolean): void {
    for (const d of found) this.problems.push(d);
    this.problems.dropped += dropped;
    if (droppedError) this.problems.droppedError = true;
  }

  private earlier(line: number, key: string): [number, number] {
    const text = this.textOf?.(line);
    return text !== undefined ? locate(text, key) : [0, 0];
  }

  add(l: TraceLine, lineNo: number): void {
    if (l.local) {
      for (const d of l.local) this.problems.push(lineDiagnostic(lineNo, d));
    }
    if (!l.event) return;
    const type = l.type;
    if (this.firstEventLine < 0) this.firstEventLine = lineNo;
    if (type === 'TRACE_META' && lineNo !== this.firstEventLine) {
      this.problems.push(metaNotFirst(lineNo, rangeOf(l, 'event_type'), this.firstEventLine));
    }
    if (l.t !== undefined) {
      if (this.prevT !== undefined && l.t < this.prevT) {
        this.problems.push(timeBackwards(lineNo, rangeOf(l, 't_cycle'), l.t, this.prevT, this.prevTLine, rangeOf(this.prevTEvent!, 't_cycle')));
      }
      this.prevT = l.t;
      this.prevTLine = lineNo;
      this.prevTEvent = l;
    }
    if (!type) return;
    if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) {
      const first = this.enqueued.get(l.cmd);
      if (first !== undefined) {
        this.problems.push(duplicateEnqueue(lineNo, rangeOf(l, 'cmd_id'), l.cmd, first, this.earlier(first, 'cmd_id')));
      } else this.enqueued.set(l.cmd, lineNo);
    } else if (l.cmd !== undefined && !this.enqueued.has(l.cmd)) {
      const [start, end] = rangeOf(l, 'cmd_id');
      const spans = this.pendingCmdRefs.get(l.cmd);
      if (!spans) this.pendingCmdRefs.set(l.cmd, [lineNo, start, end]);
      else if (spans.length < 3 * this.problems.max) spans.push(lineNo, start, end);
      else this.pendingMore.set(l.cmd, (this.pendingMore.get(l.cmd) ?? 0) + 1);
    }
    if (type === 'JOB_ISSUE' && l.job !== undefined) {
      const first = this.issued.get(l.job);
      if (first !== undefined) {
        this.problems.push(duplicateIssue(lineNo, rangeOf(l, 'job_id'), l.job, first, this.earlier(first, 'job_id')));
      } else this.issued.set(l.job, lineNo);
    }
    const role = PAIRING_ROLE.get(type);
    if (role && role.start >= 0) this.start(role.start, l, lineNo);
    if (role && role.end >= 0) this.end(role.end, l, lineNo);
  }

  private start(pi: number, l: TraceLine, lineNo: number): void {
    const p = PAIRINGS[pi];
    const id = l[ID_FIELD[p.key]];
    if (id === undefined) return;
    const open = this.open[pi];
    const prev = open.get(id);
    if (prev && p.start !== 'JOB_ISSUE') {
      this.problems.push(duplicateStart(p, lineNo, rangeOf(l, p.key), id, prev.line, openRange(prev, p.key, 'id')));
    }
    if (l.rangeOf === undefined) {
      open.set(id, { line: lineNo, t: l.t, text: l.text, idStart: 0, idEnd: 0, tStart: 0, tEnd: 0 });
    } else {
      const [idStart, idEnd] = rangeOf(l, p.key);
      const [tStart, tEnd] = l.rangeOf('t_cycle') ?? [0, 0];
      open.set(id, { line: lineNo, t: l.t, text: undefined, idStart, idEnd, tStart, tEnd });
    }
  }

  private end(pi: number, l: TraceLine, lineNo: number): void {
    const p = PAIRINGS[pi];
    const id = l[ID_FIELD[p.key]];
    if (id === undefined) return;
    const open = this.open[pi];
    const s = open.get(id);
    if (!s) {
      this.problems.push(unmatchedEnd(p, lineNo, rangeOf(l, p.key), id));
      return;
    }
    open.delete(id);
    if (l.t !== undefined && s.t !== undefined) {
      if (l.t < s.t) {
        this.problems.push(endBeforeStart(p, lineNo, rangeOf(l, 't_cycle'), l.t, s.t, s.line, openRange(s, 't_cycle', 't')));
      } else if (p.latency) {
        const lat = l.latency;
        if (lat !== undefined && lat !== l.t - s.t) {
          this.problems.push(latencyMismatch(p, lineNo, rangeOf(l, 'latency_cycles'), lat, l.t, s.t, s.line, openRange(s, 't_cycle', 't')));
        }
      }
    }
  }

  /** Reports what can only be known at the end of the file. */
  finish(): Diagnostic[] {
    PAIRINGS.forEach((p, i) => {
      for (const [id, s] of this.open[i].entries()) this.problems.push(unmatchedStart(p, s.line, openRange(s, p.key, 'id'), id));
    });
    // Without any CMD_ENQUEUE the trace simply did not record enqueues; flag only when some exist.
    if (this.enqueued.size > 0) {
      const found: [number, number, number, Id][] = [];
      for (const [cmd, spans] of this.pendingCmdRefs) {
        if (this.enqueued.has(cmd)) continue;
        for (let i = 0; i < spans.length; i += 3) found.push([spans[i], spans[i + 1], spans[i + 2], cmd]);
        const more = this.pendingMore.get(cmd) ?? 0;
        this.problems.dropped += more;
        if (more > 0) this.problems.droppedError = true;
      }
      // In line order, as they were found before the refs were grouped by cmd_id.
      found.sort((a, b) => a[0] - b[0]);
      for (const [line, start, end, cmd] of found) this.problems.push(unknownCmd(line, [start, end], cmd));
    }
    return this.problems.all();
  }
}
