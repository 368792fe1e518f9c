import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { TraceDocument } from '../../core/trace/document';
import { hoverAt } from '../../core/trace/hover';

export function traceHover(model: TraceDocument, pos: Position): Hover | null {
  const h = hoverAt(model, pos.line, pos.character);
  if (!h) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: h.markdown },
    range: { start: { line: h.line, character: h.start }, end: { line: h.line, character: h.end } },
  };
}
