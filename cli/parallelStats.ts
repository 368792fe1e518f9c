import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { MetricsCollector, type StatsOptions } from '../core/trace/metrics/collector';
import { replayRows, type EventRows } from '../core/trace/metrics/eventRows';
import type { TraceStats } from '../core/trace/metrics/types';
import type { StatsChunk } from '../protocol/checkWorker';
import { inParallel, parallelJob } from './parallelCheck';
import { chunkJob, statsChunk } from './parallelChunk';

/** Replayed rows kept for reuse: the main thread takes one per chunk it reads. */
const SPARE_ROWS = 2;

/**
 * `npu-trace stats` of a big plain trace on every core: the check's chunks (parallelCheck.ts), each
 * read into rows of events by whichever thread claims it, and one collector on the main thread
 * taking the rows in file order — so the pairing of STARTs and ENDs across chunks, the caps on
 * groups and the first-come orders are those of the one pass (node/io/statsOfFile.ts), whose
 * result this is. Undefined when the file is not worth it (then the one pass runs).
 */
export async function statsInParallel(file: string, opts: StatsOptions, onTooLong: (lineNo: number) => void): Promise<TraceStats | undefined> {
  const job = parallelJob(file, { maxProblems: 0, maxLineBytes: DEFAULT_MAX_LINE_BYTES, task: 'stats' });
  if (!job) return undefined;
  const collector = new MetricsCollector(opts);
  // Rows replayed hold this thread's next chunks: new columns for each chunk (~1 MB) cost page
  // faults and collections (30 ms less CPU with them, 15 alternated cold runs of the 1M-event trace).
  const spare: EventRows[] = [];
  await inParallel<StatsChunk>(job, (j) => statsChunk(chunkJob(job, j), spare.pop()), (chunk, firstLine) => {
    replayRows(chunk.rows, collector);
    if (spare.length < SPARE_ROWS) spare.push(chunk.rows);
    for (const n of chunk.tooLong) onTooLong(firstLine + n);
  });
  return collector.finish();
}
