// The editor's "Export as Parquet…" without VS Code: the Parquet export, in its worker bundle, of one
// file into a folder, all or nothing (tested against dist/ in test/unit/export/parquetEditor.test.ts).
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportProgress, ParquetExportResult } from '../../protocol/parquetWorker';
import { runOf } from './parquetFile';
import { inWorker } from './parquetThreads';
import { headOf } from '../io/firstLine';
import { detectFormat } from '../../core/detectFormat';

/** Thrown when `signal` stopped the export: nothing was left in the output folder. */
export class ParquetExportCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** The run (directory) name of a file, as the CLI names it without `--run-id`. */
export function parquetRunOf(file: string): string {
  const run = runOf(file);
  return run === '' || run === '.' || run === '..' ? 'trace' : run;
}

/**
 * Exports `file` as `outDir/<run>/<table>.parquet` in the worker thread `workerFile`. The tables are
 * written in a hidden temporary folder inside `outDir` (same disk, so the move is a rename) and moved
 * only once all are complete: a cancelled or failed export leaves `outDir` as it was, and a reader of
 * `outDir/*` never sees a half-written table.
 */
export async function exportParquetInto(workerFile: string, file: string, outDir: string, signal?: AbortSignal, onProgress?: (p: ExportProgress) => void): Promise<ParquetExportResult> {
  const run = parquetRunOf(file);
  const tmp = mkdtempSync(join(outDir, '.npu-trace-parquet-'));
  try {
    const o = await inWorker(workerFile, { i: 0, file, outDir: tmp, run, npu: detectFormat(file, headOf(file))?.parquetTables === 'npu' }, signal, onProgress);
    // A Cancel that comes after the worker finished is too late: its tables are complete and kept.
    if ('error' in o) throw signal?.aborted ? new ParquetExportCancelled() : new Error(o.error);
    const dir = join(outDir, run);
    mkdirSync(dir, { recursive: true });
    for (const t of Object.keys(o.result.rows)) renameSync(join(tmp, run, `${t}.parquet`), join(dir, `${t}.parquet`));
    return { ...o.result, dir };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
