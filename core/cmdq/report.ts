import type { Diagnostic, RelatedInformation, Severity } from '../common/diagnostic';
import type { ParsedCmdq } from './model';
import { rangeOf } from './positions';

/** A related location in offsets; converted to a range when the diagnostic is made. */
export type RelatedAt = [start: number, end: number, message: string];

/** Adds a diagnostic located by offsets into the document. */
export type Report = (start: number, end: number, severity: Severity, code: string, message: string, related?: RelatedAt[]) => void;

/** At most this many related locations per diagnostic: a 100k-entry cycle must not explode. */
export const MAX_RELATED = 100;

export function reporter(doc: ParsedCmdq, out: Diagnostic[]): Report {
  // An error at end of file points one past the text; clamp so every range lies in the document.
  const len = doc.text.length;
  const clamp = (a: number, b: number) => rangeOf(doc.lineStarts, Math.min(a, len), Math.min(Math.max(a, b), len));
  return (start, end, severity, code, message, related) => {
    let rel: RelatedInformation[] | undefined;
    if (related?.length) {
      rel = related.slice(0, MAX_RELATED).map(([a, b, m]) => ({ range: clamp(a, b), message: m }));
    }
    out.push({ range: clamp(start, end), severity, code, message, ...(rel ? { related: rel } : {}) });
  };
}

/** "3, 5, 7 and 12 more": long lists stay one line. */
export function listIds(ids: readonly (number | string)[], max = 10): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}
