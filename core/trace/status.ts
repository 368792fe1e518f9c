import type { TraceDocument } from './document';
import { clockOf } from './index';
import type { TraceLine } from './line';

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

/**
 * One pass over the lines the server already parsed: no list grows, whatever the file holds, and
 * the id index is not built for it (the clock is read from the last TRACE_META met on the way).
 */
export function traceStatus(doc: TraceDocument): TraceStatus {
  let events = 0;
  let first = Infinity;
  let last = -Infinity;
  let meta: TraceLine | undefined;
  for (const l of doc.lines) {
    if (l.type === 'TRACE_META') meta = l;
    const t = l.t;
    if (!l.event || t === undefined || !Number.isFinite(t)) continue;
    events++;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const clock = meta?.obj ? clockOf(meta.obj) : undefined;
  return {
    events,
    first: first === Infinity ? null : first,
    last: last === -Infinity ? null : last,
    nsPerCycle: clock && Number.isFinite(clock) ? 1 / clock : null,
  };
}
