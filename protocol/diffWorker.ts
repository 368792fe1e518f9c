import type { DiffRun } from '../core/diff/types';
import type { JobStep } from './job';

/** What `npu-trace diff`'s worker thread (dist/diffWorker.js) is asked: one run to read (its workerData). */
export interface DiffJob {
  file: string;
  /** The format's id (both files are of it: the CLI checked). */
  format: string;
}

/** What the worker posts: the run read, or why it could not be. */
export type DiffWorkerMessage = { result: DiffRun } | { error: string };

/** Which of the worker's messages is the result or a failure (node/jobs/runJob.ts). */
export function readDiffMessage(m: DiffWorkerMessage): JobStep<never, DiffRun> {
  return 'result' in m ? { result: m.result } : { error: new Error(m.error) };
}
