// Worker thread of the parallel trace check (dist/checkWorker.js): checks one chunk per message,
// posting its records as transferred buffers, then what it found.
import { parentPort } from 'node:worker_threads';
import { recordBuffers } from '../core/trace/lineRecords';
import { checkChunk, type ChunkJob } from './parallelChunk';

const port = parentPort!;
port.on('message', (job: ChunkJob) => {
  checkChunk(job, (batch) => port.postMessage({ batch }, recordBuffers(batch))).then(
    (done) => port.postMessage({ done }),
    (e: unknown) => port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
