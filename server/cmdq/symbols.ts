import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { layerSymbols } from '../../core/cmdq/symbols';
import { toRange } from '../offsetModel';

export function cmdqSymbols(model: CmdqDocument): DocumentSymbol[] {
  return layerSymbols(model).map((l) => {
    const range = toRange(model, l.start, l.end);
    return {
      name: l.layer, detail: l.entries.length ? `${l.entries.length} ${l.entries.length === 1 ? 'entry' : 'entries'}` : '', kind: SymbolKind.Namespace,
      range, selectionRange: toRange(model, l.start, l.start + 1),
      children: l.entries.map((e) => ({
        name: e.name, detail: e.detail, kind: SymbolKind.Event,
        range: toRange(model, e.start, e.end), selectionRange: toRange(model, e.selStart, e.selEnd),
      })),
    };
  });
}
