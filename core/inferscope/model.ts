import type { ArrayElement, Span, SyntaxProblem } from '../json/spans';

export type { Span, SyntaxProblem };

/** Which InferScope document a file is (inferscope-data-model §2.1, §3.1, §3.2). */
export type InferscopeKind = 'trace' | 'analysis' | 'report';

/** A top-level `"key": value` with its ranges; `value` is undefined for the big arrays (see `events`). */
export interface TopField {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** JSON kind of the value: object, array, string, number, boolean, null. */
  kind: string;
  value: unknown;
}

/** One element of `events` or `relationships.scopes`. */
export interface Element extends ArrayElement {
  /** 0-based line it starts on, when read streamed (no text is held to compute it from). */
  line?: number;
}

export interface ParsedInferscope {
  text: string;
  lineStarts: number[];
  /** Kind of the top-level value, undefined when there is none. */
  rootKind: string | undefined;
  rootSpan: Span;
  /** Top-level fields by key (the last one of a repeated key, as JSON.parse keeps). */
  fields: Map<string, TopField>;
  events: Element[];
  /** The `scopes` key inside `relationships`, when there is one, and the JSON kind of its value. */
  scopesKey: Span | undefined;
  scopesKind: string | undefined;
  scopes: Element[];
  syntax: SyntaxProblem[];
}

/** What the top-level keys say the document is; undefined when none of the marker keys is there. */
export function kindOf(doc: ParsedInferscope): InferscopeKind | undefined {
  const f = doc.fields;
  if (f.has('report_type')) return 'report';
  if (f.has('analysis_version')) return 'analysis';
  if (f.has('format_version') || f.has('events')) return 'trace';
  return undefined;
}

export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
