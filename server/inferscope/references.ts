import type { Location, Position } from 'vscode-languageserver';
import type { InferscopeDocument } from '../../core/inferscope/document';
import { referencesAt } from '../../core/inferscope/navigation';
import { toRange } from '../offsetModel';

export function inferscopeReferences(model: InferscopeDocument, uri: string, pos: Position, includeDeclaration: boolean): Location[] {
  return referencesAt(model, model.offsetAt(pos), includeDeclaration).map((s) => ({ uri, range: toRange(model, s.start, s.end) }));
}
