// Worker thread of `npu-trace export --to parquet` (dist/exportParquetWorker.js): exports the file
// of its one message and posts what it wrote, or why it could not.
import { parentPort } from 'node:worker_threads';
import { exportParquetFile } from './exportParquet';

export interface ParquetJob {
  i: number;
  file: string;
  outDir: string;
  run: string;
  /** An NPU trace: exported with a bounded heap. */
  npu: boolean;
}

const port = parentPort!;
port.on('message', (job: ParquetJob) => {
  exportParquetFile(job.file, job.outDir, job.run).then(
    (result) => port.postMessage({ i: job.i, result }),
    (e: unknown) => port.postMessage({ i: job.i, error: e instanceof Error ? e.message : String(e) }),
  );
});
