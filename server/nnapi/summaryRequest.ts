import type { Connection } from 'vscode-languageserver';
import { NnapiDocument } from '../../core/nnapi/document';
import { summarize } from '../../core/nnapi/summary';
import { NnapiSummaryRequest, type NnapiSummaryResult } from '../../protocol/nnapi';
import type { DocumentStore } from '../documents';

const toJsonNumber = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null);

/** The numbers of every run of a document, in every view (NaN becomes null on the wire). */
export function nnapiSummary(doc: NnapiDocument, uri: string): NnapiSummaryResult {
  const a = doc.analysis;
  const runs = summarize(a);
  for (const r of runs) for (const v of r.views) for (const k in v.values) v.values[k] = toJsonNumber(v.values[k]);
  const errors = a.diagnostics.filter((d) => d.severity === 'error').length;
  return { ok: true, uri, runs, errors, warnings: a.diagnostics.length - errors, noRuntime: a.noRuntime };
}

export function registerNnapiRequests(connection: Connection, store: DocumentStore): void {
  connection.onRequest(NnapiSummaryRequest, (p) => {
    const uri = typeof p?.uri === 'string' ? p.uri : '';
    const e = store.get(uri);
    if (!e) return { ok: false, uri, reason: 'the document is not open in the language server' };
    if (!(e.model instanceof NnapiDocument)) return { ok: false, uri, reason: `the document's language is ${e.doc.languageId}, not nnapi-systrace` };
    try {
      return nnapiSummary(e.model, uri);
    } catch (err) {
      connection.console.error(`nnapi summary failed for ${uri}: ${err instanceof Error ? err.stack : String(err)}`);
      return { ok: false, uri, reason: `the summary could not be computed: ${err instanceof Error ? err.message : String(err)}` };
    }
  });
}
