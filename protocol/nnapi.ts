/**
 * The custom LSP request behind "NNAPI: Show Timing Summary": the client asks the server for the
 * numbers of the open systrace; the client renders them. Declared once, as one `RequestType` that
 * both sides use, so the method, the parameters and the result cannot drift apart.
 */
import { RequestType } from 'vscode-languageserver-protocol';
import type { NnapiRun } from '../core/nnapi/summary';

export const NNAPI_SUMMARY_METHOD = 'npuTrace/nnapiSummary';

export interface NnapiSummaryParams {
  /** URI of an open `nnapi-systrace` document. */
  uri: string;
}

// The run type is the core summary's own, so the CLI, the server and the client cannot drift apart.
export type { NnapiRun, NnapiRunView, NnapiViewKind } from '../core/nnapi/summary';

export type NnapiSummaryResult =
  | { ok: true; uri: string; runs: NnapiRun[]; errors: number; warnings: number; noRuntime: boolean }
  | { ok: false; uri: string; reason: string };

export const NnapiSummaryRequest = new RequestType<NnapiSummaryParams, NnapiSummaryResult, void>(NNAPI_SUMMARY_METHOD);
