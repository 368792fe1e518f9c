import type { ExportProgress, ParquetExportResult, ParquetJob } from '../../protocol/parquetWorker';
import { readParquetMessage } from '../../protocol/parquetWorker';
import { JobCancelled, runJob } from '../jobs/runJob';

/** One file's export: what it wrote, or why not ('cancelled' when its signal stopped it). */
export type Outcome = { result: ParquetExportResult } | { error: string };

/**
 * The heap of a thread exporting an NPU trace: it holds one row group per table, the open STARTs and
 * a record per command, far less; without a limit V8 grows its heap with the garbage of the lines
 * (the 10M-event trace peaked at 503 MB RSS).
 */
const NPU_HEAP_MB = 256;

/**
 * Exports one file in a worker thread of its own (`bundle`: dist/exportParquetWorker.js; a fresh
 * heap per file), `onProgress` hearing how far it has read (once per whole percent); `signal` (the
 * editor's Cancel) terminates the thread at once and settles as an error.
 */
export async function inWorker(bundle: string, job: ParquetJob, signal?: AbortSignal, onProgress?: (p: ExportProgress) => void): Promise<Outcome> {
  try {
    const result = await runJob(bundle, job, {
      read: readParquetMessage, signal, onProgress, name: 'the export thread',
      resourceLimits: job.npu ? { maxOldGenerationSizeMb: NPU_HEAP_MB } : undefined,
    });
    return { result };
  } catch (e) {
    if (e instanceof JobCancelled) return { error: 'cancelled' };
    if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return { error: `the export ran out of its ${NPU_HEAP_MB} MB heap` };
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Exports `threads` files at a time, each in a worker thread; `done` hears of each file as it finishes. */
export async function inWorkers(bundle: string, jobs: ParquetJob[], threads: number, done: (i: number, o: Outcome) => void, progress?: (i: number, p: ExportProgress) => void): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++];
      done(job.i, await inWorker(bundle, job, undefined, progress && ((p) => progress(job.i, p))));
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, jobs.length) }, lane));
}
