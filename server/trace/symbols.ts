import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { TraceDocument } from '../../core/trace/document';
import { documentSymbols } from '../../core/trace/symbols';

/**
 * The outline of the model's current revision: VS Code asks for it from several features
 * (outline, breadcrumbs, sticky scroll) after each edit, and only the first request builds it.
 */
const outlines = new WeakMap<TraceDocument, { revision: number; symbols: DocumentSymbol[] }>();

export function traceSymbols(model: TraceDocument): DocumentSymbol[] {
  const hit = outlines.get(model);
  if (hit?.revision === model.revision) return hit.symbols;
  const symbols = build(model);
  outlines.set(model, { revision: model.revision, symbols });
  return symbols;
}

function build(model: TraceDocument): DocumentSymbol[] {
  return documentSymbols(model).map((s) => ({
    name: s.name,
    detail: s.detail,
    kind: SymbolKind.Event,
    range: { start: { line: s.startLine, character: 0 }, end: { line: s.endLine, character: s.endChar } },
    selectionRange: { start: { line: s.selection.line, character: s.selection.start }, end: { line: s.selection.line, character: s.selection.end } },
  }));
}
