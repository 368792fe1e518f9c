import type { DocumentHighlight, Location, Position } from 'vscode-languageserver';
import type { TraceDocument } from '../../core/trace/document';
import { referencesAt } from '../../core/trace/navigation';

export function traceReferences(model: TraceDocument, uri: string, pos: Position, includeDeclaration: boolean): Location[] {
  return referencesAt(model, pos.line, pos.character, includeDeclaration).map((t) => ({
    uri, range: { start: { line: t.line, character: t.start }, end: { line: t.line, character: t.end } },
  }));
}

const MAX_HIGHLIGHTS = 2000;

/** Highlights are references capped, so a cursor on a busy id does not paint (or even locate) thousands of lines. */
export function traceHighlights(model: TraceDocument, pos: Position): DocumentHighlight[] {
  return referencesAt(model, pos.line, pos.character, true, MAX_HIGHLIGHTS).map((t) => ({
    range: { start: { line: t.line, character: t.start }, end: { line: t.line, character: t.end } },
  }));
}
