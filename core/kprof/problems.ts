import type { Severity } from '../common/diagnostic';

/** Stable codes, documented in the README's kprof table. */
export type KprofCode =
  | 'kprof.no-header' | 'kprof.unmatched-end' | 'kprof.unclosed-start' | 'kprof.not-finalized'
  | 'kprof.after-finalize' | 'kprof.unknown-event' | 'kprof.lane-collision' | 'kprof.buffer-full'
  | 'kprof.bad-group' | 'kprof.too-short' | 'kprof.timer-wrap' | 'kprof.block-mismatch' | 'kprof.sm-spill';

export interface KprofProblem {
  code: KprofCode;
  severity: Severity;
  /** The slot of the buffer the problem is about (0 for the header). */
  slot: number;
  /** The lane, or -1 when the problem is about the whole buffer. */
  block: number;
  group: number;
  message: string;
}

export const SEVERITY: Record<KprofCode, Severity> = {
  'kprof.no-header': 'error',
  'kprof.unmatched-end': 'error',
  'kprof.unclosed-start': 'error',
  'kprof.not-finalized': 'warning',
  'kprof.after-finalize': 'error',
  'kprof.unknown-event': 'warning',
  'kprof.lane-collision': 'error',
  'kprof.buffer-full': 'error',
  'kprof.bad-group': 'error',
  'kprof.too-short': 'information',
  'kprof.timer-wrap': 'information',
  'kprof.block-mismatch': 'warning',
  'kprof.sm-spill': 'information',
};

function compare(a: KprofProblem, b: KprofProblem): number {
  return a.slot - b.slot || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/**
 * Problems kept while they are produced: the first `max` by slot (then code and message) and a
 * count of the rest, so a buffer with millions of broken regions costs `max` objects.
 */
export class BoundedProblems {
  private list: KprofProblem[] = [];
  dropped = 0;
  droppedError = false;

  constructor(readonly max: number) {}

  add(code: KprofCode, slot: number, block: number, group: number, message: string): void {
    this.list.push({ code, severity: SEVERITY[code], slot, block, group, message });
    if (this.list.length >= 2 * this.max + 16) this.trim();
  }

  all(): KprofProblem[] {
    this.trim();
    return this.list;
  }

  private trim(): void {
    this.list.sort(compare);
    for (let i = this.max; i < this.list.length; i++) {
      this.dropped++;
      if (this.list[i].severity === 'error') this.droppedError = true;
    }
    if (this.list.length > this.max) this.list.length = this.max;
  }
}
