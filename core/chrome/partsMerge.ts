import type { Diagnostic, Position } from '../common/diagnostic';
import type { DiagnosticSettings } from '../common/settings';
import type { CheckerOptions } from '../formatDescriptor';
import { ChromeChecker } from './checks';
import { shiftPosition, type ChromePart, type PartForm } from './parts';

/** A part's checker: fed the part's text in pieces, then its result (parts.ts). */
export function partChecker(form: PartForm, opts: CheckerOptions = {}): { feed(piece: string): void; result(last: boolean): ChromePart } {
  const c = new ChromeChecker({ ...opts, part: form });
  return { feed: (piece) => c.addText(piece), result: (last) => c.partResult(last) };
}

/** What the checker of the whole does with the next part: merged, or the rest read by it, or all read again. */
export type PartOutcome = 'merged' | 'read-on' | 'again';

/**
 * The checker of a whole Chrome trace whose first part it reads itself and whose other parts
 * (read by `partChecker`s) it merges in order. A part is merged when the text before it ended
 * between two events of the array it was read in, and it ends so itself (or ends the document),
 * nothing of it over a cap. When the first other part cannot be, this checker reads the rest of
 * the text itself ('read-on': nothing was merged, it stands where that part starts); a later one
 * cannot be read on from ('again': the parts before it were merged, not read here).
 */
export class PartsMerge {
  readonly checker: ChromeChecker;
  private at: Position | undefined;
  private expect: PartForm | undefined;
  private merged = 0;

  constructor(opts: CheckerOptions = {}) {
    this.checker = new ChromeChecker(opts);
  }

  /** The first part's text. */
  feed(piece: string): void {
    this.checker.addText(piece);
  }

  /** The next part's result, in document order. */
  merge(p: ChromePart): PartOutcome {
    if (this.merged === 0 && this.at === undefined) {
      this.expect = this.checker.atEventBoundary();
      this.at = this.checker.endPosition();
    }
    const usable = !p.overflow && p.form === this.expect && (p.last !== undefined || p.boundary !== undefined);
    if (!usable) return this.merged === 0 ? 'read-on' : 'again';
    this.checker.mergePart(p, this.at!);
    this.merged++;
    this.expect = p.boundary;
    this.at = shiftPosition(p.endAt, this.at!, p.prefix);
    return 'merged';
  }

  /** Read on after 'read-on' (the text from the first other part's start on). */
  readOn(piece: string): void {
    this.checker.addText(piece);
  }

  finishCapped(settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean } {
    this.checker.endText(false);
    return this.checker.finishCapped(settings);
  }
}
