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

/**
 * The first `toLocaleString` of a process loads ICU's number data (20–40 ms): done when a trace
 * is opened, so the first hover does not pay it. The same formats as the hover's.
 */
export function warmHoverFormats(): void {
  (1234).toLocaleString('en-US');
  (1.5).toLocaleString('en-US', { maximumFractionDigits: 3 });
}
