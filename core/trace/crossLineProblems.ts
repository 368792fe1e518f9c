import { range, type Diagnostic } from '../common/diagnostic';
import type { Pairing } from './eventTypes';
import type { Id } from './line';

/**
 * The diagnostics of the checks that span lines, made in one place for the two checkers that find
 * them: the one pass (`checker.ts`, the CLI's and a document only read) and the per-id checks of an
 * edited document (`incrementalChecks.ts`). Each takes the problem's line and the span of the key
 * on it, and for a problem that names another line, that line and its span.
 */
type Span = [number, number];

function withRelated(line: number, span: Span, code: string, severity: Diagnostic['severity'], message: string,
  rel?: [number, Span, string]): Diagnostic {
  const related = rel && [{ range: range(rel[0], rel[1][0], rel[1][1]), message: rel[2] }];
  return { range: range(line, span[0], span[1]), severity, code, message, related };
}

export const metaNotFirst = (line: number, span: Span, firstEvent: number): Diagnostic =>
  withRelated(line, span, 'trace.meta-not-first', 'error',
    `TRACE_META must be the first line of the trace (the header); here it is line ${line + 1}, after the event on line ${firstEvent + 1}`);

export const timeBackwards = (line: number, span: Span, t: number, prevT: number, prevLine: number, prevSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.time-backwards', 'warning',
    `t_cycle ${t} is lower than ${prevT} on line ${prevLine + 1}: events should be in time order`, [prevLine, prevSpan, 'previous event']);

export const duplicateEnqueue = (line: number, span: Span, cmd: Id, first: number, firstSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.duplicate-id', 'error', `cmd_id ${String(cmd)} is enqueued again; it was first enqueued on line ${first + 1}`,
    [first, firstSpan, 'first CMD_ENQUEUE']);

export const duplicateIssue = (line: number, span: Span, job: Id, first: number, firstSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.duplicate-id', 'error', `job_id ${String(job)} is issued again; it was first issued on line ${first + 1}`,
    [first, firstSpan, 'first JOB_ISSUE']);

export const duplicateStart = (p: Pairing, line: number, span: Span, id: Id, openLine: number, openSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.duplicate-id', 'error',
    `${p.start} for ${p.key} ${String(id)} while the ${p.name} started on line ${openLine + 1} is still open`, [openLine, openSpan, `open ${p.start}`]);

export const unmatchedEnd = (p: Pairing, line: number, span: Span, id: Id): Diagnostic =>
  withRelated(line, span, 'trace.unmatched-end', 'error', `${p.end} for ${p.key} ${String(id)} has no open ${p.start} before it`);

export const endBeforeStart = (p: Pairing, line: number, span: Span, t: number, startT: number, startLine: number, startSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.end-before-start', 'error',
    `${p.end} at cycle ${t} is before its ${p.start} at cycle ${startT} (line ${startLine + 1})`, [startLine, startSpan, p.start]);

export const latencyMismatch = (p: Pairing, line: number, span: Span, latency: number, t: number, startT: number, startLine: number, startSpan: Span): Diagnostic =>
  withRelated(line, span, 'trace.latency-mismatch', 'warning',
    `latency_cycles is ${latency} but ${p.end} − ${p.start} is ${t} − ${startT} = ${t - startT} cycles`, [startLine, startSpan, p.start]);

// Found only at the end of a pass: these never name another line.
export const unmatchedStart = (p: Pairing, line: number, span: Span, id: Id): Diagnostic =>
  ({ range: range(line, span[0], span[1]), severity: 'error', code: 'trace.unmatched-start', message: `${p.start} for ${p.key} ${String(id)} has no ${p.end} after it` });

export const unknownCmd = (line: number, span: Span, cmd: Id): Diagnostic =>
  ({ range: range(line, span[0], span[1]), severity: 'error', code: 'trace.unknown-cmd', message: `cmd_id ${String(cmd)} is never enqueued: no CMD_ENQUEUE in this trace has it` });
