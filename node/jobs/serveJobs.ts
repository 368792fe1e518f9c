import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { isNextJob, type Retire } from '../../protocol/job';

/**
 * Above this much heap in use after a job (live or not yet collected), a worker does not stay for
 * the next one: an idle thread allocates nothing, so no collection comes, and what the job left
 * would be held for as long as it waits.
 */
const KEEP_HEAP_MAX = 96 << 20;

/**
 * The worker side of runJob's `keepWarm`: runs the request given as workerData, then each request
 * posted as `{ nextJob }`, one at a time (the host sends the next only after this one's result).
 * After a job that left more than KEEP_HEAP_MAX of heap it posts `{ retire: true }`, after the
 * result, and the host ends the thread rather than keep it (the thread does not end itself: the
 * result might not be delivered before its exit).
 */
export function serveJobs<Q>(run: (req: Q) => Promise<void>): void {
  const port = parentPort!;
  const done = () => {
    if (getHeapStatistics().used_heap_size > KEEP_HEAP_MAX) port.postMessage({ retire: true } satisfies Retire);
  };
  if (workerData !== undefined && workerData !== null) void run(workerData as Q).finally(done);
  port.on('message', (m: unknown) => {
    if (isNextJob<Q>(m)) void run(m.nextJob).finally(done);
  });
}
