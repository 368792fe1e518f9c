import type { Connection } from 'vscode-languageserver';
import type { DocumentStore } from './documents';

/** Custom requests declared in `protocol/`; each format adds its handlers here. */
export function registerCustomRequests(_connection: Connection, _store: DocumentStore): void {
  // Filled in by the timeline and NNAPI summary features.
}
