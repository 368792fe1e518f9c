import type { TraceDocument } from './document';

/** What the status bar shows of an open trace: how many events, over which cycles, at which clock. */
export interface TraceStatus {
  /** Lines that are JSON objects with a numeric `t_cycle` (so not TRACE_META), as `npu-trace stats` counts them. */
  events: number;
  /** Smallest and largest `t_cycle` of the events; null when none has one. */
  first: number | null;
  last: number | null;
  /** From the clock of the last TRACE_META; null when the trace gives none. */
  nsPerCycle: number | null;
}

/** One pass over the lines the server already parsed: no list grows, whatever the file holds. */
export function traceStatus(doc: TraceDocument): TraceStatus {
  let events = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const l of doc.lines) {
    const t = l.t;
    if (!l.event || t === undefined || !Number.isFinite(t)) continue;
    events++;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const clock = doc.index.clockGhz;
  return {
    events,
    first: first === Infinity ? null : first,
    last: last === -Infinity ? null : last,
    nsPerCycle: clock && Number.isFinite(clock) ? 1 / clock : null,
  };
}
