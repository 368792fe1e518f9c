// Worker thread of `npu-trace diff` (dist/diffWorker.js): reads run B while the main thread reads
// run A, so two files take about the time of one on two cores (protocol/diffWorker.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { FORMATS } from '../core/formats';
import type { DiffJob, DiffWorkerMessage } from '../protocol/diffWorker';
import { diffRunOfFile } from '../node/io/diffOfFile';

const post = (m: DiffWorkerMessage) => parentPort!.postMessage(m);
const job = workerData as DiffJob;
const fmt = FORMATS.find((f) => f.id === job.format);
(fmt ? diffRunOfFile(job.file, fmt) : Promise.reject(new Error(`unknown format ${job.format}`))).then(
  (result) => post({ result }),
  (e: unknown) => post({ error: e instanceof Error ? e.message : String(e) }),
);
