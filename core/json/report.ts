import type { Diagnostic, RelatedInformation, Severity } from '../common/diagnostic';
import { compareDiagnostics } from '../common/diagnostic';
import type { DiagnosticSettings } from '../common/settings';
import { rangeOf } from './positions';

/** A related location in offsets; converted to a range when the diagnostic is made. */
export type RelatedAt = [start: number, end: number, message: string];

/**
 * Adds a diagnostic located by offsets into the document. The checks ask `wants(offset)` before
 * they locate a problem: when the cap is already filled with problems before `offset`, they only
 * `count` it, so a million problems cost a counter, not a million messages, ranges and sorts.
 */
export interface Report {
  (start: number, end: number, severity: Severity, code: string, message: string, related?: RelatedAt[]): void;
  /** Whether a problem starting at or after `offset` could still be shown. */
  wants(offset: number): boolean;
  /** Counts `n` problems of `code` that will not be shown (severity before overrides). */
  count(severity: Severity, code: string, n?: number): void;
  /** Counts one entry that has at least one schema problem, without translating its errors. */
  countAtLeastOne(severity: Severity, codes: readonly string[]): boolean;
  /**
   * A problem past a per-field cap: not listed, but said by a summary diagnostic of its own, so it
   * is not one of the further problems; it fails the run when it is an error. Returns false when
   * the settings turn `code` off (the summary must not count it).
   */
  unlisted(severity: Severity, code: string): boolean;
}

/** At most this many related locations per diagnostic: a 100k-entry cycle must not explode. */
export const MAX_RELATED = 100;

interface Kept {
  at: number;
  d: Diagnostic;
}

/**
 * Keeps the first `max` diagnostics by position while the checks produce them, and only counts the
 * rest. The checks run one after the other, each in position order: once `max` problems are held,
 * anything after the last of them is counted, not built; what still arrives before it goes into a
 * buffer that is sorted and cut back to `max` whenever it doubles. Severity overrides apply as problems arrive, so the count
 * and the error flag (the CLI's exit status) see what the user configured.
 */
export class BoundedDiagnostics {
  private buf: Kept[] = [];
  /** Offset after which a problem cannot be among the first `max`. */
  private threshold = Infinity;
  private dropped = 0;
  private lowerBound = false;
  /** Whether any error was produced, shown or not. */
  hasError = false;

  constructor(private readonly settings: DiagnosticSettings) {}

  private severity(code: string, s: Severity): Severity | undefined {
    const o = this.settings.severity[code];
    return o === 'off' ? undefined : o ?? s;
  }

  add(at: number, d: Diagnostic): void {
    const s = this.severity(d.code, d.severity);
    if (s === undefined) return;
    if (s === 'error') this.hasError = true;
    if (at > this.threshold) {
      this.dropped++;
      return;
    }
    this.buf.push({ at, d: s === d.severity ? d : { ...d, severity: s } });
    const max = this.settings.maxProblems;
    if (this.buf.length === max && this.threshold === Infinity) {
      // Full for the first time: nothing after the last of these can be among the first `max`.
      let last = 0;
      for (const k of this.buf) if (k.at > last) last = k.at;
      this.threshold = last;
    }
    if (this.buf.length >= 2 * max && this.buf.length >= 64) this.compact();
  }

  wants(offset: number): boolean {
    return offset <= this.threshold;
  }

  count(severity: Severity, code: string, n = 1): void {
    const s = this.severity(code, severity);
    if (s === undefined || n <= 0) return;
    if (s === 'error') this.hasError = true;
    this.dropped += n;
  }

  /**
   * One uncounted problem or more, of one of `codes` (which one is not known without translating).
   * Returns false, counting nothing, when an override makes the outcome depend on which code it is.
   */
  countAtLeastOne(severity: Severity, codes: readonly string[]): boolean {
    if (codes.some((c) => this.settings.severity[c] !== undefined)) return false;
    if (severity === 'error') this.hasError = true;
    this.dropped++;
    this.lowerBound = true;
    return true;
  }

  unlisted(severity: Severity, code: string): boolean {
    const s = this.severity(code, severity);
    if (s === 'error') this.hasError = true;
    return s !== undefined;
  }

  private compact(): void {
    const max = this.settings.maxProblems;
    this.buf.sort((a, b) => a.at - b.at || compareDiagnostics(a.d, b.d));
    if (this.buf.length > max) {
      this.dropped += this.buf.length - max;
      this.buf.length = max;
      this.threshold = this.buf[max - 1].at;
    }
  }

  /** The kept diagnostics in position order, after one summary of the rest when there is a rest. */
  result(): Diagnostic[] {
    this.compact();
    const shown = this.buf.map((k) => k.d);
    if (this.dropped === 0) return shown;
    const max = this.settings.maxProblems;
    shown.unshift({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'information',
      code: 'too-many-problems',
      message: `${this.lowerBound ? 'at least ' : ''}${this.dropped} further problems not shown (limit ${max}, setting npuTrace.diagnostics.maxProblems)`,
    });
    return shown;
  }
}

/** The reporter over any document held as text and line starts: problems capped while produced. */
export function reporter(doc: { text: string; lineStarts: ArrayLike<number> }, out: BoundedDiagnostics): Report {
  // An error at end of file points one past the text; clamp so every range lies in the document.
  const len = doc.text.length;
  const clamp = (a: number, b: number) => rangeOf(doc.lineStarts, Math.min(a, len), Math.min(Math.max(a, b), len));
  const report = ((start, end, severity, code, message, related) => {
    const at = Math.min(start, len);
    if (!out.wants(at)) {
      out.count(severity, code);
      return;
    }
    let rel: RelatedInformation[] | undefined;
    if (related?.length) {
      rel = related.slice(0, MAX_RELATED).map(([a, b, m]) => ({ range: clamp(a, b), message: m }));
    }
    out.add(at, { range: clamp(start, end), severity, code, message, ...(rel ? { related: rel } : {}) });
  }) as Report;
  report.wants = (offset) => out.wants(Math.min(offset, len));
  report.count = (severity, code, n) => out.count(severity, code, n);
  report.countAtLeastOne = (severity, codes) => out.countAtLeastOne(severity, codes);
  report.unlisted = (severity, code) => out.unlisted(severity, code);
  return report;
}
