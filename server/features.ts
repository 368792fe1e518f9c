import type { Connection } from 'vscode-languageserver';
import type { DocumentStore, OpenDocument } from './documents';
import type { FormatService } from './formatService';

/**
 * Routes each LSP feature to the format service of the document. A feature a format lacks answers
 * empty; an exception in one format is logged and answered empty rather than killing the server.
 */
export function registerFeatures(connection: Connection, store: DocumentStore): void {
  function run<T>(uri: string, empty: T, f: (s: FormatService, e: OpenDocument) => T | undefined): T {
    const e = store.get(uri);
    if (!e?.service || e.model === undefined) return empty;
    try {
      return f(e.service, e) ?? empty;
    } catch (err) {
      connection.console.error(`request failed for ${uri}: ${err instanceof Error ? err.stack : String(err)}`);
      return empty;
    }
  }
  connection.onHover((p) => run(p.textDocument.uri, null, (s, e) => s.hover?.(e.model, e.doc, p.position)));
  connection.onDefinition((p) => run(p.textDocument.uri, null, (s, e) => s.definition?.(e.model, e.doc, p.position)));
  connection.onReferences((p) =>
    run(p.textDocument.uri, null, (s, e) => s.references?.(e.model, e.doc, p.position, p.context.includeDeclaration)));
  connection.onDocumentSymbol((p) => run(p.textDocument.uri, [], (s, e) => s.documentSymbols?.(e.model, e.doc)));
  connection.onDocumentHighlight((p) =>
    run(p.textDocument.uri, null, (s, e) => s.documentHighlights?.(e.model, e.doc, p.position)));
  connection.onCompletion((p) => run(p.textDocument.uri, null, (s, e) => s.completion?.(e.model, e.doc, p.position)));
  connection.onCodeAction((p) => run(p.textDocument.uri, [], (s, e) => s.codeActions?.(e.model, e.doc, p)));
  connection.onCodeLens((p) => run(p.textDocument.uri, [], (s, e) => s.codeLenses?.(e.model, e.doc)));
  connection.onFoldingRanges((p) => run(p.textDocument.uri, [], (s, e) => s.foldingRanges?.(e.model, e.doc)));
}
