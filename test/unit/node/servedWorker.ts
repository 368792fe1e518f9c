// A worker served by node/jobs/serveJobs.ts for runJob.test.ts: each result names its thread and
// how many jobs that thread has run, so a test sees which thread a job ran on.
import { parentPort, threadId } from 'node:worker_threads';
import { serveJobs } from '../../../node/jobs/serveJobs';

let jobs = 0;
let held: number[] | undefined;
serveJobs<{ fail?: boolean; holdMb?: number }>(async (req) => {
  jobs++;
  // Live heap the job leaves behind (a plain array of doubles lives on the V8 heap).
  if (req.holdMb) held = new Array<number>((req.holdMb << 20) / 8).fill(1.5);
  parentPort!.postMessage(req.fail ? { fail: `job ${jobs} failed` } : { done: { thread: threadId, jobs, held: held?.length ?? 0 } });
});
