// Worker thread of the Parquet export (dist/exportParquetWorker.js), for `npu-trace export --to
// parquet` and the editor's Export as Parquet: exports the file of its workerData and posts how far
// it has read it, then what it wrote, or why it could not (protocol/parquetWorker.ts).
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { ParquetJob, ParquetWorkerMessage } from '../../protocol/parquetWorker';
import { exportParquetFile } from './parquetFile';
import { percentSteps } from './progress';

const post = (m: ParquetWorkerMessage) => parentPort!.postMessage(m);
const job = workerData as ParquetJob;
const size = statSync(job.file, { throwIfNoEntry: false })?.size ?? 0;
const onProgress = percentSteps(size, (progress) => post({ i: job.i, progress }));
exportParquetFile(job.file, job.outDir, job.run, onProgress).then(
  (result) => post({ i: job.i, result }),
  (e: unknown) => post({ i: job.i, error: e instanceof Error ? e.message : String(e) }),
);
