/**
 * The custom LSP request behind "NNAPI: Show Timing Summary": the client asks the server for the
 * numbers of the open systrace; the client renders them. Declared once, as one `RequestType` that
 * both sides use, so the method, the parameters and the result cannot drift apart.
 */
import { RequestType } from 'vscode-languageserver-protocol';
import type { RunHeader } from '../core/nnapi/summary';

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

/** A run as the CLI's summary describes it (`RunHeader`), with its numbers in every view. */
export interface NnapiRun extends RunHeader {
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

export const NnapiSummaryRequest = new RequestType<NnapiSummaryParams, NnapiSummaryResult, void>(NNAPI_SUMMARY_METHOD);
