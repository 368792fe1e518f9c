import type { TableName } from '../core/export/parquet/schema';
import type { JobStep } from './job';

/** How far the export of a file has read it: bytes read from disk (compressed for a `.gz`) of its size. */
export interface ExportProgress {
  bytesRead: number;
  size: number;
}

/** What the Parquet export's worker thread (dist/exportParquetWorker.js) is asked: one file (its workerData). */
export interface ParquetJob {
  /** The file's place in the CLI's list, for its report line. */
  i: number;
  file: string;
  outDir: string;
  run: string;
  /** An NPU trace: exported with a bounded heap. */
  npu: boolean;
}

/** What one file's export wrote: `OUT/<run>/<table>.parquet`. */
export interface ParquetExportResult {
  dir: string;
  /** Rows per table written. */
  rows: Partial<Record<TableName, number>>;
  bytes: number;
  /** What was left out (lines over the limit, nested too deep), one sentence each; absent when nothing was. */
  notes?: string[];
}

/**
 * What the worker posts: how far it has read the file (once per whole percent), then what it
 * wrote, or why it could not.
 */
export type ParquetWorkerMessage =
  | { i: number; progress: ExportProgress }
  | { i: number; result: ParquetExportResult }
  | { i: number; error: string };

/** Which of the worker's messages is progress, the result or a failure (node/jobs/runJob.ts). */
export function readParquetMessage(m: ParquetWorkerMessage): JobStep<ExportProgress, ParquetExportResult> {
  if ('progress' in m) return { progress: m.progress };
  if ('result' in m) return { result: m.result };
  return { error: new Error(m.error) };
}
