import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { InferscopeDocument } from '../../core/inferscope/document';
import { hoverAt } from '../../core/inferscope/hover';
import { toRange } from '../offsetModel';

export function inferscopeHover(model: InferscopeDocument, pos: Position): Hover | null {
  const h = hoverAt(model, model.offsetAt(pos));
  return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(model, h.start, h.end) } : null;
}
