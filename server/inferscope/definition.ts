import type { Definition, Position } from 'vscode-languageserver';
import type { InferscopeDocument } from '../../core/inferscope/document';
import { definitionAt } from '../../core/inferscope/navigation';
import { toRange } from './range';

export function inferscopeDefinition(model: InferscopeDocument, uri: string, pos: Position): Definition | null {
  const d = definitionAt(model, model.offsetAt(pos));
  return d ? { uri, range: toRange(model, d.start, d.end) } : null;
}
