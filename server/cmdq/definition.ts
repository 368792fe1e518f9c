import type { Definition, Position } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { definitionAt } from '../../core/cmdq/navigation';
import { toRange } from './range';

export function cmdqDefinition(model: CmdqDocument, uri: string, pos: Position): Definition | null {
  const d = definitionAt(model, model.offsetAt(pos));
  return d ? { uri, range: toRange(model, d.start, d.end) } : null;
}
