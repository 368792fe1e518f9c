import type { Location, Position } from 'vscode-languageserver';
import type { TraceDocument } from '../../core/trace/document';
import { definitionAt } from '../../core/trace/navigation';

export function traceDefinition(model: TraceDocument, uri: string, pos: Position): Location | null {
  const t = definitionAt(model, pos.line, pos.character);
  return t ? { uri, range: { start: { line: t.line, character: t.start }, end: { line: t.line, character: t.end } } } : null;
}
