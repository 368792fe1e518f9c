import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { TraceDocument } from '../../core/trace/document';
import { documentSymbols } from '../../core/trace/symbols';

export function traceSymbols(model: TraceDocument): DocumentSymbol[] {
  return documentSymbols(model).map((s) => ({
    name: s.name,
    detail: s.detail,
    kind: SymbolKind.Event,
    range: { start: { line: s.startLine, character: 0 }, end: { line: s.endLine, character: s.endChar } },
    selectionRange: { start: { line: s.selection.line, character: s.selection.start }, end: { line: s.selection.line, character: s.selection.end } },
  }));
}
