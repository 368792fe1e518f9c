import { percentOf } from '../../node/export/progress';
import type { ExportProgress } from '../../protocol/parquetWorker';

/** A step of a progress notification: VS Code adds up the increments, so each is the percent gained since the last. */
export interface ProgressStep {
  increment: number;
  message: string;
}

const MB = (n: number) => (n / (1 << 20)).toFixed(1);

/** Turns the worker's progress into notification steps: increments that add up to the percent read, never past 100. */
export function progressSteps(): (p: ExportProgress) => ProgressStep | undefined {
  let done = 0;
  return (p) => {
    const pct = percentOf(p);
    if (pct <= done) return undefined;
    const step = { increment: pct - done, message: `${pct}% (${MB(p.bytesRead)} of ${MB(p.size)} MB)` };
    done = pct;
    return step;
  };
}
