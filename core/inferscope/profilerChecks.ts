import type { ParsedInferscope } from './model';
import { valueAt } from './eventChecks';
import { readProfiler, type ProfilerSpans } from './profilerLayout';
import type { RelatedAt, Report } from '../json/report';

/**
 * The checks of a trace in the Profiler's layout, whole or streamed: only what is really wrong in
 * it (a return or scope_exit that closes nothing, a call that lost its return, a scope never
 * exited, a negative duration, a time that is not a number), never the data model's ids and
 * versions, which this writer does not write. Streamed (no text), each problem is at its event.
 */
export function profilerChecks(doc: ParsedInferscope, report: Report): ProfilerSpans {
  return readProfiler(doc.events, (f) => {
    const e = doc.events[f.event];
    if (!report.wants(e.start)) {
      report.count(f.severity, f.code);
      return;
    }
    const [a, b] = f.key ? valueAt(doc, e, [f.key]) : [e.start, e.start + 1];
    let related: RelatedAt[] | undefined;
    if (f.related) {
      const r = doc.events[f.related.event];
      const [c, d] = valueAt(doc, r, [f.related.key]);
      related = [[c, d, f.related.message]];
    }
    report(a, b, f.severity, f.code, f.message, related);
  });
}
