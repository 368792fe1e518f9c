import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { InferscopeDocument } from '../../core/inferscope/document';
import { outline, type OutlineNode } from '../../core/inferscope/symbols';
import { toRange } from '../offsetModel';

const KIND = { scope: SymbolKind.Namespace, group: SymbolKind.Array, event: SymbolKind.Event } as const;

export function inferscopeSymbols(model: InferscopeDocument): DocumentSymbol[] {
  const conv = (n: OutlineNode): DocumentSymbol => ({
    name: n.name || ' ', detail: n.detail, kind: KIND[n.kind],
    range: toRange(model, n.start, n.end), selectionRange: toRange(model, n.selStart, n.selEnd), children: n.children.map(conv),
  });
  return outline(model).map(conv);
}
