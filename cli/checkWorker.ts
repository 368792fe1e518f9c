// Worker thread of the parallel trace check (dist/checkWorker.js): for each file, claims chunks
// from the counters it shares with the other threads and posts what each found and its summary
// for the merge.
import { parentPort } from 'node:worker_threads';
import { ABORT, type CheckWorkerMessage, type FileJob } from '../protocol/checkWorker';
import { claimChunks } from './parallelChunk';

const port = parentPort!;
// A chunk's reading is synchronous, so one file's chunks keep this thread until none is left.
port.on('message', (f: FileJob) => {
  claimChunks(f, (job, done) => port.postMessage({ job, done } satisfies CheckWorkerMessage)).then(
    () => undefined,
    (e: unknown) => {
      // The others stop claiming: the check fails with this error.
      Atomics.store(f.ctl, ABORT, 1);
      port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies CheckWorkerMessage);
    },
  );
});
