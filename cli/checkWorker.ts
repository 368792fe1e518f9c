// Worker thread of the parallel trace check and stats (dist/checkWorker.js): for each file, claims
// chunks from the counters it shares with the other threads and posts what each found and its
// summary for the merge (for stats: each chunk's events, for the one collector); or claims the parts
// of a big Chrome trace the same way (cli/parallelChrome.ts).
import { parentPort } from 'node:worker_threads';
import { ABORT, STOP_PARTS, type CheckWorkerMessage, type ChromePartsJob, type FileJob } from '../protocol/checkWorker';
import { claimParts } from './chromePart';
import { partBuffers } from '../core/chrome/parts';
import { rowBuffers } from '../core/trace/metrics/eventRows';
import { claimChunks } from './parallelChunk';

const port = parentPort!;
// A chunk's reading is synchronous, so one file's chunks keep this thread until none is left.
port.on('message', (f: FileJob | ChromePartsJob) => {
  if ('chrome' in f) {
    claimParts(f.chrome, (index, part) => port.postMessage({ part, index } satisfies CheckWorkerMessage, partBuffers(part))).then(
      () => undefined,
      (e: unknown) => {
        Atomics.store(f.chrome.ctl, STOP_PARTS, 1);
        port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies CheckWorkerMessage);
      },
    );
    return;
  }
  // A stats chunk's rows are moved, not copied.
  claimChunks(f, (job, done) => port.postMessage({ job, done } satisfies CheckWorkerMessage, 'rows' in done ? rowBuffers(done.rows) : [])).then(
    () => undefined,
    (e: unknown) => {
      // The others stop claiming: the check fails with this error.
      Atomics.store(f.ctl, ABORT, 1);
      port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies CheckWorkerMessage);
    },
  );
});
