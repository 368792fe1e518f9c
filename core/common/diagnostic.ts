/** 0-based, like LSP, so adapters never shift positions. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RelatedInformation {
  range: Range;
  message: string;
}

export interface Diagnostic {
  range: Range;
  severity: Severity;
  /** Stable code such as `trace.unmatched-end`; documented in the README. */
  code: string;
  message: string;
  related?: RelatedInformation[];
}

export function range(line: number, start: number, end: number, endLine = line): Range {
  return { start: { line, character: start }, end: { line: endLine, character: end } };
}

/**
 * Document order, then end, code and message: a total order, so two checkers that find the same
 * problems in a different order (the editor's incremental checks, the CLI's one pass) list them
 * alike, also where a cap cuts the list.
 */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character
    || a.range.end.line - b.range.end.line || a.range.end.character - b.range.end.character
    || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
