// Worker thread of `npu-trace export --to parquet` (dist/exportParquetWorker.js): exports the file
// of its one message and posts how far it has read it, then what it wrote, or why it could not.
import { statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { exportParquetFile } from './parquetFile';
import { percentSteps, type ExportProgress } from './progress';

export interface ParquetJob {
  i: number;
  file: string;
  outDir: string;
  run: string;
  /** An NPU trace: exported with a bounded heap. */
  npu: boolean;
}

/** Posted as the file is read, once per whole percent, before the job's result. */
export interface ParquetProgressMessage {
  i: number;
  progress: ExportProgress;
}

const port = parentPort!;
port.on('message', (job: ParquetJob) => {
  const size = statSync(job.file, { throwIfNoEntry: false })?.size ?? 0;
  const onProgress = percentSteps(size, (progress) => port.postMessage({ i: job.i, progress } satisfies ParquetProgressMessage));
  exportParquetFile(job.file, job.outDir, job.run, onProgress).then(
    (result) => port.postMessage({ i: job.i, result }),
    (e: unknown) => port.postMessage({ i: job.i, error: e instanceof Error ? e.message : String(e) }),
  );
});
