import type { RelatedInformation, Severity } from '../common/diagnostic';
import { BoundedDiagnostics, MAX_RELATED, type RelatedAt, type Report } from '../cmdq/report';
import { rangeOf } from '../cmdq/positions';

export { BoundedDiagnostics, type RelatedAt, type Report };

/** The CMDQ reporter over any document held as text and line starts: problems capped while produced. */
export function reporter(doc: { text: string; lineStarts: number[] }, out: BoundedDiagnostics): Report {
  // An error at end of file points one past the text; clamp so every range lies in the document.
  const len = doc.text.length;
  const clamp = (a: number, b: number) => rangeOf(doc.lineStarts, Math.min(a, len), Math.min(Math.max(a, b), len));
  const report = ((start: number, end: number, severity: Severity, code: string, message: string, related?: RelatedAt[]) => {
    const at = Math.min(start, len);
    if (!out.wants(at)) {
      out.count(severity, code);
      return;
    }
    let rel: RelatedInformation[] | undefined;
    if (related?.length) rel = related.slice(0, MAX_RELATED).map(([a, b, m]) => ({ range: clamp(a, b), message: m }));
    out.add(at, { range: clamp(start, end), severity, code, message, ...(rel ? { related: rel } : {}) });
  }) as Report;
  report.wants = (offset) => out.wants(Math.min(offset, len));
  report.count = (severity, code, n) => out.count(severity, code, n);
  report.countAtLeastOne = (severity, codes) => out.countAtLeastOne(severity, codes);
  return report;
}
