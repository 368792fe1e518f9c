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

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
