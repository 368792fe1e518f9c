// Worker thread of the parallel trace check (dist/checkWorker.js): checks one chunk per message,
// posting its records as transferred buffers, then what it found.
import { parentPort } from 'node:worker_threads';
import { recordBuffers } from '../core/trace/lineRecords';
import { checkChunk, type ChunkJob } from './parallelChunk';

const port = parentPort!;
// A job's reading is synchronous (awaits resolve at once), so the jobs of one worker run one after the other.
port.on('message', (job: ChunkJob & { job: number }) => {
  checkChunk(job, (batch) => port.postMessage({ job: job.job, batch }, recordBuffers(batch))).then(
    (done) => port.postMessage({ job: job.job, done }),
    (e: unknown) => port.postMessage({ job: job.job, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
