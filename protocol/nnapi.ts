/**
 * The custom LSP request behind "NNAPI: Show Timing Summary": the client asks the server for the
 * numbers of the open systrace; the client renders them. Declared once, used by both sides.
 */

export const NNAPI_SUMMARY_METHOD = 'npuTrace/nnapiSummary';

export interface NnapiSummaryParams {
  /** URI of an open `nnapi-systrace` document. */
  uri: string;
}

/** Which numbers a view shows (the reference parser's `--total-times` and `--per-execution`). */
export interface NnapiViewKind {
  totalTimes: boolean;
  perExecution: boolean;
}

export interface NnapiRunView {
  /** `template_inputs` of the reference (ms); null = missing (n/a). */
  values: Record<string, number | null>;
  hasCpu: boolean;
}

export interface NnapiRun {
  index: number;
  /** Text of the run's `[NN_LA_PO]` mark, '' when the trace has none. */
  startingMark: string;
  /** 0-based line of that mark, -1 when none. */
  startLine: number;
  complete: boolean;
  /** Nesting violations in the run (the reference would refuse it). */
  violations: number;
  hasWarmupAndBenchmark: boolean;
  executionCounts: { PO: number; PWU: number; PBM: number };
  /** One entry per `NNAPI_VIEWS` kind, in that order; empty for an incomplete run. */
  views: NnapiRunView[];
}

export const NNAPI_VIEWS: readonly NnapiViewKind[] = [
  { totalTimes: false, perExecution: false },
  { totalTimes: true, perExecution: false },
  { totalTimes: false, perExecution: true },
  { totalTimes: true, perExecution: true },
];

export type NnapiSummaryResult =
  | { ok: true; uri: string; runs: NnapiRun[]; errors: number; warnings: number; noRuntime: boolean }
  | { ok: false; uri: string; reason: string };
