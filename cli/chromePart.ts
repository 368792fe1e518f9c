import type { ChromePart, PartForm } from '../core/chrome/parts';
import { partChecker } from '../core/chrome/partsMerge';
import { NEXT_PART, STOP_PARTS, type ChromePartsJob } from '../protocol/checkWorker';
import { forEachText } from '../node/io/lines';

/** One part of a big Chrome trace: bytes `[start, end)`, `last` when it ends the file. */
export interface ChromePartRange {
  file: string;
  start: number;
  end: number;
  form: PartForm;
  last: boolean;
  maxProblems: number;
}

/** Part `k` of a job (cli/parallelChrome.ts). */
export function partRange(job: ChromePartsJob['chrome'], k: number): ChromePartRange {
  return { file: job.file, start: job.bounds[k], end: job.bounds[k + 1], form: job.form, last: k === job.bounds.length - 2, maxProblems: job.maxProblems };
}

/** A part of a big Chrome trace, checked by whichever thread claimed it (cli/parallelChrome.ts). */
export async function checkChromePart(range: ChromePartRange): Promise<ChromePart> {
  const c = partChecker(range.form, { maxProblems: range.maxProblems });
  await forEachText(range.file, (t) => c.feed(t), { range: { start: range.start, end: range.end } });
  return c.result(range.last);
}

/** The next part no thread has claimed, now this thread's; -1 when none is left or the check stopped. */
export function claimPart(job: ChromePartsJob['chrome']): number {
  if (Atomics.load(job.ctl, STOP_PARTS) !== 0) return -1;
  const k = Atomics.add(job.ctl, NEXT_PART, 1);
  return k < job.bounds.length - 1 ? k : -1;
}

/** A worker's share of a job: claims parts until none is left (or the check stopped), posting each when done. */
export async function claimParts(job: ChromePartsJob['chrome'], post: (index: number, part: ChromePart) => void): Promise<void> {
  for (let k; (k = claimPart(job)) >= 0;) post(k, await checkChromePart(partRange(job, k)));
}
