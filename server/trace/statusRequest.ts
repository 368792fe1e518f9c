import type { Connection } from 'vscode-languageserver';
import { TraceDocument } from '../../core/trace/document';
import { traceStatus } from '../../core/trace/status';
import { TraceStatusRequest, type TraceStatusResult } from '../../protocol/traceStatus';
import type { DocumentStore } from '../documents';

export function registerTraceStatusRequest(connection: Connection, store: DocumentStore): void {
  connection.onRequest(TraceStatusRequest, (p): TraceStatusResult => {
    const uri = typeof p?.uri === 'string' ? p.uri : '';
    const e = store.get(uri);
    if (!e) return { ok: false, uri, reason: 'the document is not open in the language server' };
    if (!(e.model instanceof TraceDocument)) return { ok: false, uri, reason: `the document's language is ${e.doc.languageId}, or it could not be parsed` };
    try {
      return { ok: true, uri, version: e.doc.version, ...traceStatus(e.model) };
    } catch (err) {
      connection.console.error(`trace status failed for ${uri}: ${err instanceof Error ? err.stack : String(err)}`);
      return { ok: false, uri, reason: `the numbers could not be computed: ${err instanceof Error ? err.message : String(err)}` };
    }
  });
}
