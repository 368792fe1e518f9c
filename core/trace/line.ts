import type { Severity } from '../common/diagnostic';

/** A problem on one line, in characters of that line, so it survives lines moving after edits. */
export interface LocalDiagnostic {
  start: number;
  end: number;
  code: string;
  severity: Severity;
  message: string;
  /** JSON text that replaces `start..end` to fix it (the value a "did you mean" names); the quick fix. */
  replacement?: string;
}

/** An id as the index keys it: a safe integer, or the exact source digits of a larger one. */
export type Id = number | string;

/** What the checker and the index keep of one line; positions are recomputed from `text` when needed. */
export interface TraceLine {
  text: string;
  /** Whether the line is a JSON object, i.e. an event (valid or not). */
  event: boolean;
  /** The parsed object; left out by the streaming fast path, which keeps only the fields below. */
  obj: Record<string, unknown> | undefined;
  /** `event_type` when it names a known type. */
  type: string | undefined;
  t: number | undefined;
  cmd: Id | undefined;
  job: Id | undefined;
  tx: Id | undefined;
  latency: number | undefined;
  local: LocalDiagnostic[] | undefined;
  /** Ranges of t_cycle, cmd_id, job_id, tx_id and latency_cycles when the parser already knows them. */
  rangeOf?(key: string): [number, number] | undefined;
}
