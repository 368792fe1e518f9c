import { range, type Diagnostic } from '../common/diagnostic';
import {
  duplicateEnqueue, duplicateIssue, duplicateStart, endBeforeStart, latencyMismatch, metaNotFirst, timeBackwards, unknownCmd, unmatchedEnd,
  unmatchedStart,
} from './crossLineProblems';
import { ID_FIELD, PAIRING_ROLE, PAIRINGS } from './eventTypes';
import type { Id, TraceLine } from './line';
import { locate, locateIn as rangeOf } from './locate';

/** An open START: ranges are copied so a streamed line's bytes are not kept alive. */
interface Open {
  line: number;
  t: number | undefined;
  idRange: [number, number] | undefined;
  tRange: [number, number] | undefined;
  text: string | undefined;
}

function openRange(o: Open, key: string, which: 'id' | 't'): [number, number] {
  const r = which === 'id' ? o.idRange : o.tRange;
  return r ?? (o.text !== undefined ? locate(o.text, key) : [0, 0]);
}

/**
 * The checks that span lines, as one pass over the lines in order. The CLI streams a file through
 * it without keeping the lines; the editor runs it once over a document only read (an edited one
 * keeps the same checks per id: `incrementalChecks.ts`).
 */
export class TraceChecker {
  readonly diagnostics: Diagnostic[] = [];
  private firstEventLine = -1;
  private prevT: number | undefined;
  private prevTLine = -1;
  private prevTEvent: TraceLine | undefined;
  private readonly enqueued = new Map<Id, number>();
  private readonly issued = new Map<Id, number>();
  private readonly open = PAIRINGS.map(() => new Map<Id, Open>());
  private readonly pendingCmdRefs: { line: number; start: number; end: number; cmd: Id }[] = [];

  /**
   * `textOf` gives earlier lines' text, so related information (e.g. the first CMD_ENQUEUE of a
   * duplicate id) can point at the exact token. The editor has every line; the streaming CLI
   * passes nothing, keeps no line texts, and prints no related information anyway.
   */
  constructor(private readonly textOf?: (line: number) => string | undefined) {}

  private earlier(line: number, key: string): [number, number] {
    const text = this.textOf?.(line);
    return text !== undefined ? locate(text, key) : [0, 0];
  }

  add(l: TraceLine, lineNo: number): void {
    if (l.local) {
      for (const d of l.local) this.diagnostics.push({ range: range(lineNo, d.start, d.end), severity: d.severity, code: d.code, message: d.message });
    }
    if (!l.event) return;
    const type = l.type;
    if (this.firstEventLine < 0) this.firstEventLine = lineNo;
    if (type === 'TRACE_META' && lineNo !== this.firstEventLine) {
      this.diagnostics.push(metaNotFirst(lineNo, rangeOf(l, 'event_type'), this.firstEventLine));
    }
    if (l.t !== undefined) {
      if (this.prevT !== undefined && l.t < this.prevT) {
        this.diagnostics.push(timeBackwards(lineNo, rangeOf(l, 't_cycle'), l.t, this.prevT, this.prevTLine, rangeOf(this.prevTEvent!, 't_cycle')));
      }
      this.prevT = l.t;
      this.prevTLine = lineNo;
      this.prevTEvent = l;
    }
    if (!type) return;
    if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) {
      const first = this.enqueued.get(l.cmd);
      if (first !== undefined) {
        this.diagnostics.push(duplicateEnqueue(lineNo, rangeOf(l, 'cmd_id'), l.cmd, first, this.earlier(first, 'cmd_id')));
      } else this.enqueued.set(l.cmd, lineNo);
    } else if (l.cmd !== undefined && !this.enqueued.has(l.cmd)) {
      const [start, end] = rangeOf(l, 'cmd_id');
      this.pendingCmdRefs.push({ line: lineNo, start, end, cmd: l.cmd });
    }
    if (type === 'JOB_ISSUE' && l.job !== undefined) {
      const first = this.issued.get(l.job);
      if (first !== undefined) {
        this.diagnostics.push(duplicateIssue(lineNo, rangeOf(l, 'job_id'), l.job, first, this.earlier(first, 'job_id')));
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
      this.diagnostics.push(duplicateStart(p, lineNo, rangeOf(l, p.key), id, prev.line, openRange(prev, p.key, 'id')));
    }
    const fast = l.rangeOf !== undefined;
    open.set(id, {
      line: lineNo, t: l.t, text: fast ? undefined : l.text,
      idRange: fast ? rangeOf(l, p.key) : undefined, tRange: fast ? l.rangeOf!('t_cycle') : undefined,
    });
  }

  private end(pi: number, l: TraceLine, lineNo: number): void {
    const p = PAIRINGS[pi];
    const id = l[ID_FIELD[p.key]];
    if (id === undefined) return;
    const open = this.open[pi];
    const s = open.get(id);
    if (!s) {
      this.diagnostics.push(unmatchedEnd(p, lineNo, rangeOf(l, p.key), id));
      return;
    }
    open.delete(id);
    if (l.t !== undefined && s.t !== undefined) {
      if (l.t < s.t) {
        this.diagnostics.push(endBeforeStart(p, lineNo, rangeOf(l, 't_cycle'), l.t, s.t, s.line, openRange(s, 't_cycle', 't')));
      } else if (p.latency) {
        const lat = l.latency;
        if (lat !== undefined && lat !== l.t - s.t) {
          this.diagnostics.push(latencyMismatch(p, lineNo, rangeOf(l, 'latency_cycles'), lat, l.t, s.t, s.line, openRange(s, 't_cycle', 't')));
        }
      }
    }
  }

  /** Reports what can only be known at the end of the file. */
  finish(): Diagnostic[] {
    PAIRINGS.forEach((p, i) => {
      for (const [id, s] of this.open[i]) this.diagnostics.push(unmatchedStart(p, s.line, openRange(s, p.key, 'id'), id));
    });
    // Without any CMD_ENQUEUE the trace simply did not record enqueues; flag only when some exist.
    if (this.enqueued.size > 0) {
      for (const r of this.pendingCmdRefs) {
        if (!this.enqueued.has(r.cmd)) this.diagnostics.push(unknownCmd(r.line, [r.start, r.end], r.cmd));
      }
    }
    return this.diagnostics;
  }
}
