import { range, type Diagnostic, type RelatedInformation } from '../common/diagnostic';
import { PAIRING_ROLE, PAIRINGS, type IdKey } from './eventTypes';
import type { Id, TraceLine } from './line';
import { locate } from './locate';

/** An open START: ranges are copied so a streamed line's bytes are not kept alive. */
interface Open {
  line: number;
  t: number | undefined;
  idRange: [number, number] | undefined;
  tRange: [number, number] | undefined;
  text: string | undefined;
}

function rangeOf(l: TraceLine, key: string): [number, number] {
  return l.rangeOf?.(key) ?? locate(l.text, key);
}

function openRange(o: Open, key: string, which: 'id' | 't'): [number, number] {
  const r = which === 'id' ? o.idRange : o.tRange;
  return r ?? (o.text !== undefined ? locate(o.text, key) : [0, 0]);
}

const ID_FIELD: Record<IdKey, 'cmd' | 'job' | 'tx'> = { cmd_id: 'cmd', job_id: 'job', tx_id: 'tx' };

function fmt(id: Id): string {
  return String(id);
}

/**
 * The checks that span lines, as one pass over the lines in order. The editor re-runs it over its
 * cached lines after each edit; the CLI streams a file through it without keeping the lines.
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
      this.emit(l, lineNo, 'event_type', 'trace.meta-not-first', 'error',
        `TRACE_META must be the first line of the trace (the header); here it is line ${lineNo + 1}, after the event on line ${this.firstEventLine + 1}`);
    }
    if (l.t !== undefined) {
      if (this.prevT !== undefined && l.t < this.prevT) {
        this.emit(l, lineNo, 't_cycle', 'trace.time-backwards', 'warning',
          `t_cycle ${l.t} is lower than ${this.prevT} on line ${this.prevTLine + 1}: events should be in time order`, [this.prevTLine, rangeOf(this.prevTEvent!, 't_cycle'), 'previous event']);
      }
      this.prevT = l.t;
      this.prevTLine = lineNo;
      this.prevTEvent = l;
    }
    if (!type) return;
    if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) {
      const first = this.enqueued.get(l.cmd);
      if (first !== undefined) {
        this.emit(l, lineNo, 'cmd_id', 'trace.duplicate-id', 'error', `cmd_id ${fmt(l.cmd)} is enqueued again; it was first enqueued on line ${first + 1}`, [first, this.earlier(first, 'cmd_id'), 'first CMD_ENQUEUE']);
      } else this.enqueued.set(l.cmd, lineNo);
    } else if (l.cmd !== undefined && !this.enqueued.has(l.cmd)) {
      const [start, end] = rangeOf(l, 'cmd_id');
      this.pendingCmdRefs.push({ line: lineNo, start, end, cmd: l.cmd });
    }
    if (type === 'JOB_ISSUE' && l.job !== undefined) {
      const first = this.issued.get(l.job);
      if (first !== undefined) {
        this.emit(l, lineNo, 'job_id', 'trace.duplicate-id', 'error', `job_id ${fmt(l.job)} is issued again; it was first issued on line ${first + 1}`, [first, this.earlier(first, 'job_id'), 'first JOB_ISSUE']);
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
      this.emit(l, lineNo, p.key, 'trace.duplicate-id', 'error',
        `${p.start} for ${p.key} ${fmt(id)} while the ${p.name} started on line ${prev.line + 1} is still open`, [prev.line, openRange(prev, p.key, 'id'), `open ${p.start}`]);
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
      this.emit(l, lineNo, p.key, 'trace.unmatched-end', 'error', `${p.end} for ${p.key} ${fmt(id)} has no open ${p.start} before it`);
      return;
    }
    open.delete(id);
    if (l.t !== undefined && s.t !== undefined) {
      if (l.t < s.t) {
        this.emit(l, lineNo, 't_cycle', 'trace.end-before-start', 'error',
          `${p.end} at cycle ${l.t} is before its ${p.start} at cycle ${s.t} (line ${s.line + 1})`, [s.line, openRange(s, 't_cycle', 't'), p.start]);
      } else if (p.latency) {
        const lat = l.latency;
        if (lat !== undefined && lat !== l.t - s.t) {
          this.emit(l, lineNo, 'latency_cycles', 'trace.latency-mismatch', 'warning',
            `latency_cycles is ${lat} but ${p.end} − ${p.start} is ${l.t} − ${s.t} = ${l.t - s.t} cycles`, [s.line, openRange(s, 't_cycle', 't'), p.start]);
        }
      }
    }
  }

  /** Reports what can only be known at the end of the file. */
  finish(): Diagnostic[] {
    PAIRINGS.forEach((p, i) => {
      for (const [id, s] of this.open[i]) {
        const [a, b] = openRange(s, p.key, 'id');
        this.diagnostics.push({ range: range(s.line, a, b), severity: 'error', code: 'trace.unmatched-start',
          message: `${p.start} for ${p.key} ${fmt(id)} has no ${p.end} after it` });
      }
    });
    // Without any CMD_ENQUEUE the trace simply did not record enqueues; flag only when some exist.
    if (this.enqueued.size > 0) {
      for (const r of this.pendingCmdRefs) {
        if (this.enqueued.has(r.cmd)) continue;
        this.diagnostics.push({ range: range(r.line, r.start, r.end), severity: 'error', code: 'trace.unknown-cmd',
          message: `cmd_id ${fmt(r.cmd)} is never enqueued: no CMD_ENQUEUE in this trace has it` });
      }
    }
    return this.diagnostics;
  }

  private emit(l: TraceLine, lineNo: number, key: string, code: string, severity: Diagnostic['severity'], message: string,
    rel?: [number, [number, number], string]): void {
    const [a, b] = rangeOf(l, key);
    const related: RelatedInformation[] | undefined = rel && [{ range: range(rel[0], rel[1][0], rel[1][1]), message: rel[2] }];
    this.diagnostics.push({ range: range(lineNo, a, b), severity, code, message, related });
  }
}
