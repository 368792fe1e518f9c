import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { JobStep } from '../../protocol/job';

/** How a job ended when its `signal` fired first: the worker was terminated mid-run. */
export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface JobOptions<M, P, R> {
  /** What each message of the worker means (its protocol in protocol/ says: progress, result or failure). */
  read: (message: M) => JobStep<P, R>;
  /** Terminates the worker at once; the job rejects with JobCancelled. */
  signal?: AbortSignal;
  /** Each progress step, in order, never after the job has settled. */
  onProgress?: (p: P) => void;
  /** Buffers of the request moved to the worker rather than copied (the caller gives them up). */
  transfer?: ArrayBuffer[];
  resourceLimits?: ResourceLimits;
  /** Says which worker stopped without an answer ("the timeline worker"). */
  name: string;
}

/**
 * Runs one request in a worker thread of its own (`workerFile`, a bundle in dist/; the request is its
 * workerData) and settles with its one result. Every one-shot worker of the extension and the CLI
 * runs through here, so all cancel alike: `signal` terminates the thread (parsing stops mid-file)
 * and rejects with JobCancelled; a worker that throws rejects with its error (`code` kept:
 * ERR_WORKER_OUT_OF_MEMORY), one that exits without a result with an error that says so. The thread
 * is terminated as soon as the job settles.
 */
export function runJob<Q, M, P, R>(workerFile: string, request: Q, opts: JobOptions<M, P, R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new JobCancelled());
    const worker = new Worker(workerFile, { workerData: request, transferList: opts.transfer ?? [], resourceLimits: opts.resourceLimits });
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', cancel);
      void worker.terminate();
      f();
    };
    const cancel = () => finish(() => reject(new JobCancelled()));
    opts.signal?.addEventListener('abort', cancel);
    worker.on('message', (m: M) => {
      if (settled) return;
      const step = opts.read(m);
      if ('progress' in step) opts.onProgress?.(step.progress);
      else if ('result' in step) finish(() => resolve(step.result));
      else finish(() => reject(step.error));
    });
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`${capital(opts.name)} stopped (exit code ${code}).`))));
  });
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
