// Worker thread of the parallel trace check (dist/checkWorker.js): checks one chunk per message and
// posts what it found and its summary for the merge.
import { parentPort } from 'node:worker_threads';
import { checkChunk, type ChunkJob } from './parallelChunk';

const port = parentPort!;
// A job's reading is synchronous (awaits resolve at once), so the jobs of one worker run one after the other.
port.on('message', (job: ChunkJob & { job: number }) => {
  checkChunk(job).then(
    (done) => port.postMessage({ job: job.job, done }),
    (e: unknown) => port.postMessage({ job: job.job, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
