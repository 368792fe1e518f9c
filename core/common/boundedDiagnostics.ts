import { compareDiagnostics, type Diagnostic } from './diagnostic';

/**
 * Diagnostics kept while they are produced: the first `max` by position, the way
 * `finalizeDiagnostics` would pick them from the full list, and a count of the rest. A file
 * with millions of problems costs `max` objects, not millions; an error among those left out
 * still shows in `droppedError`, so a run that found one fails.
 */
export class BoundedDiagnostics {
  private list: Diagnostic[] = [];
  dropped = 0;
  droppedError = false;

  constructor(readonly max = Infinity) {}

  push(d: Diagnostic): void {
    this.list.push(d);
    // Trimming to `max` once the list is twice that costs O(log max) per diagnostic.
    if (this.list.length >= 2 * this.max + 16) this.trim();
  }

  /** The kept diagnostics, at most `max`, sorted by position once trimmed. */
  all(): Diagnostic[] {
    if (this.list.length > this.max) this.trim();
    return this.list;
  }

  private trim(): void {
    this.list.sort(compareDiagnostics);
    for (let i = this.max; i < this.list.length; i++) {
      this.dropped++;
      if (this.list[i].severity === 'error') this.droppedError = true;
    }
    this.list.length = this.max;
  }
}
