import type { Range } from 'vscode-languageserver';
import type { InferscopeDocument } from '../../core/inferscope/document';

export function toRange(model: InferscopeDocument, start: number, end: number): Range {
  return { start: model.positionAt(start), end: model.positionAt(end) };
}
