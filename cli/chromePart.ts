import type { ChromePart } from '../core/chrome/parts';
import { partChecker } from '../core/chrome/partsMerge';
import type { ChromePartJob } from '../protocol/checkWorker';
import { forEachText } from '../node/io/lines';

/** A part of a big Chrome trace, checked by a worker thread (cli/parallelChrome.ts). */
export async function checkChromePart(job: ChromePartJob['chrome']): Promise<ChromePart> {
  const c = partChecker(job.form, { maxProblems: job.maxProblems });
  await forEachText(job.file, (t) => c.feed(t), { range: { start: job.start, end: job.end } });
  return c.result(job.last);
}
