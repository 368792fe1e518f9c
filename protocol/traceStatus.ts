/**
 * The custom LSP request behind the trace status-bar item: the numbers come from the model the
 * server already keeps of the open trace, so the extension host never parses the file. Declared
 * once, used by both sides.
 */
import { RequestType } from 'vscode-languageserver-protocol';
import type { TraceStatus } from '../core/trace/status';

export const TRACE_STATUS_METHOD = 'npuTrace/traceStatus';

export interface TraceStatusParams {
  /** URI of an open `npu-trace` document. */
  uri: string;
}

export type { TraceStatus } from '../core/trace/status';

/** `version`: the document version the numbers are for, so a late answer to an old edit can be dropped. */
export type TraceStatusResult =
  | ({ ok: true; uri: string; version: number } & TraceStatus)
  | { ok: false; uri: string; reason: string };

export const TraceStatusRequest = new RequestType<TraceStatusParams, TraceStatusResult, void>(TRACE_STATUS_METHOD);
