import type { Connection } from 'vscode-languageserver';
import type { DocumentStore } from './documents';
import { registerCmdqTraceJoin } from './cmdq/traceJoin';
import { registerNnapiRequests } from './nnapi/summaryRequest';
import { registerTraceStatusRequest } from './trace/statusRequest';

/** Custom requests declared in `protocol/`; each format adds its handlers here. */
export function registerCustomRequests(connection: Connection, store: DocumentStore): void {
  // Filled in by the timeline and NNAPI summary features.
  registerNnapiRequests(connection, store);
  registerTraceStatusRequest(connection, store);
  registerCmdqTraceJoin(connection, store);
}
