import { Worker, type ResourceLimits } from 'node:worker_threads';
import { isRetire, type JobStep, type NextJob } from '../../protocol/job';

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
  /**
   * After a result the thread is kept, loaded and JIT-warm, for the next job of the same bundle
   * (the worker serves jobs with node/jobs/serveJobs.ts): a rebuild after an edit, a second
   * timeline. A cancelled or failed job's thread is terminated all the same.
   */
  keepWarm?: boolean;
}

/**
 * Runs one request in a worker thread of its own (`workerFile`, a bundle in dist/; the request is its
 * workerData) and settles with its one result. Every one-shot worker of the extension and the CLI
 * runs through here, so all cancel alike: `signal` terminates the thread (parsing stops mid-file)
 * and rejects with JobCancelled; a worker that throws rejects with its error (`code` kept:
 * ERR_WORKER_OUT_OF_MEMORY), one that exits without a result with an error that says so. The thread
 * is terminated as soon as the job settles, unless `keepWarm` keeps it for the next job after a result.
 */
export function runJob<Q, M, P, R>(workerFile: string, request: Q, opts: JobOptions<M, P, R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new JobCancelled());
    const kept = opts.keepWarm ? takeIdle(workerFile) : undefined;
    const worker = kept ?? new Worker(workerFile, { workerData: request, transferList: opts.transfer ?? [], resourceLimits: opts.resourceLimits });
    if (kept) kept.postMessage({ nextJob: request } satisfies NextJob<Q>, opts.transfer ?? []);
    let settled = false;
    const finish = (f: () => void, keep = false) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', cancel);
      if (keep) {
        // Its next job (or its idle time) listens from now on.
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        putIdle(workerFile, worker);
      } else {
        // The listeners stay, settled: an error the thread raises while it ends is still heard.
        void worker.terminate();
      }
      f();
    };
    const cancel = () => finish(() => reject(new JobCancelled()));
    opts.signal?.addEventListener('abort', cancel);
    const onMessage = (m: M) => {
      if (settled) return;
      if (isRetire(m)) {
        retired.add(worker);
        return;
      }
      const step = opts.read(m);
      if ('progress' in step) opts.onProgress?.(step.progress);
      else if ('result' in step) finish(() => resolve(step.result), opts.keepWarm === true);
      else finish(() => reject(step.error));
    };
    const onError = (e: Error) => finish(() => reject(e));
    const onExit = (code: number) => finish(() => reject(new Error(`${capital(opts.name)} stopped (exit code ${code}).`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** How long a kept worker waits for its next job before its thread is ended. */
const IDLE_MS = 60_000;

interface Idle {
  worker: Worker;
  timer: NodeJS.Timeout;
  /** Ends it: on its exit or error, at the idle time. */
  end: () => void;
  /** Its message listener while idle: a retire message ends it. */
  heard: (m: unknown) => void;
}

/** One idle worker per bundle, at most: a second job at once needs a thread of its own anyway. */
const idle = new Map<string, Idle>();
/** Workers that said, after a result, not to keep them (serveJobs: too much heap left). */
const retired = new WeakSet<Worker>();

/**
 * Starts a worker of `file` ahead of its first job and keeps it idle (as after a result), unless one
 * is idle already: the first `keepWarm` job then finds the bundle loaded (the worker serves jobs
 * with serveJobs). The extension starts the timeline worker when a trace editor becomes active.
 */
export function prestartWorker(file: string): void {
  if (idle.has(file)) return;
  putIdle(file, new Worker(file, { workerData: null }));
}

/** Whether a worker of `file` is kept, waiting for a job (tests wait on it). */
export const hasIdleWorker = (file: string): boolean => idle.has(file);

function takeIdle(file: string): Worker | undefined {
  const w = idle.get(file);
  if (!w) return undefined;
  idle.delete(file);
  clearTimeout(w.timer);
  w.worker.off('exit', w.end).off('error', w.end).off('message', w.heard);
  w.worker.ref();
  return w.worker;
}

function putIdle(file: string, worker: Worker): void {
  void takeIdle(file)?.terminate();
  if (retired.has(worker)) {
    void worker.terminate();
    return;
  }
  const end = () => {
    if (idle.get(file)?.worker === worker) takeIdle(file);
    void worker.terminate();
  };
  const heard = (m: unknown) => {
    if (isRetire(m)) end();
  };
  const timer = setTimeout(end, IDLE_MS);
  timer.unref();
  worker.on('exit', end).on('error', end).on('message', heard);
  // An idle thread does not keep the process alive (after the listeners: a message listener refs it again).
  worker.unref();
  idle.set(file, { worker, timer, end, heard });
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
