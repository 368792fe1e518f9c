import type { Diagnostic } from '../core/common/diagnostic';
import { lineTooLong } from '../core/common/lines';
import { ChunkChecker, type ChunkProblem } from '../core/trace/chunkChecks';
import { ABORT, MERGED, NEXT, type ChunkDone, type FileJob, type StatsChunk } from '../protocol/checkWorker';
import { RowsCollector, type EventRows } from '../core/trace/metrics/eventRows';
import { parsedLines, traceFormat } from '../core/trace/descriptor';
import { depthBounded } from './jsonLines';
import { forEachLineBytes } from '../node/io/lines';

/** One byte range of a plain trace, starting after a '\n' (or at 0) and ending after one (or at the end). */
export interface ChunkJob {
  file: string;
  start: number;
  end: number;
  maxProblems: number;
  maxLineBytes: number;
}

/** The shared counters of a new file's check. */
export const newControl = (): Int32Array => new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));

/** Chunk `k` of a file's check as a job. */
export const chunkJob = (f: FileJob, k: number): ChunkJob => ({ file: f.file, start: f.bounds[k], end: f.bounds[k + 1], maxProblems: f.maxProblems, maxLineBytes: f.maxLineBytes });

/**
 * A worker's part of a file's check: claims chunks until none is left, each posted when done.
 * Blocks (this is a worker thread) while the chunk claimed is `maxAhead` past the merge; the
 * thread holding the next chunk to merge never waits, so the merge always goes on.
 */
export async function claimChunks(f: FileJob, post: (job: number, done: ChunkDone | StatsChunk) => void): Promise<void> {
  const ctl = f.ctl;
  const count = f.bounds.length - 1;
  for (;;) {
    if (Atomics.load(ctl, ABORT) !== 0) return;
    const k = Atomics.add(ctl, NEXT, 1);
    if (k >= count) return;
    for (let merged; k >= (merged = Atomics.load(ctl, MERGED)) + f.maxAhead;) {
      if (Atomics.load(ctl, ABORT) !== 0) return;
      // Timed, so an abort (the main thread failed) is seen even if its wake-up is missed.
      Atomics.wait(ctl, MERGED, merged, 100);
    }
    post(k, f.task === 'stats' ? await statsChunk(chunkJob(f, k)) : await checkChunk(chunkJob(f, k)));
  }
}

/**
 * All the work of a chunk — read, byte fast path or full parse, schema, and the cross-line checks
 * as far as the chunk alone decides them — with the per-line limits of the one-pass check. The
 * two problems whose message names the line say what they are, so the merge words them again with
 * the line's real number.
 */
export async function checkChunk(job: ChunkJob): Promise<ChunkDone> {
  const checker = new ChunkChecker(job.maxProblems);
  const problems = checker.problems;
  const deep = { push: (d: Diagnostic) => problems.push({ ...d, tooDeep: true } as ChunkProblem) };
  const lines = depthBounded({ ...parsedLines((l, n) => checker.add(l, n), { reuse: true }), finish: () => [] }, traceFormat.lineTooDeep!, deep);
  const count = await forEachLineBytes(job.file, lines.addBytes!, (l, n) => lines.add(l, n), {
    maxLineBytes: job.maxLineBytes,
    range: { start: job.start, end: job.end },
    onTooLong: (n, len) => problems.push({ ...lineTooLong(traceFormat.lineTooLong!, n, len, job.maxLineBytes, 'bytes'), tooLong: len } as ChunkProblem),
  });
  return { lines: count, found: problems.all(), dropped: problems.dropped, droppedError: problems.droppedError, summary: checker.summary() };
}

/**
 * The events of a chunk for `npu-trace stats`, read as the one-pass stats reads the whole file
 * (node/io/statsOfFile.ts: the same reader, the same line limit), kept in order as rows, in the
 * columns of `reuse` when given (rows already replayed).
 */
export async function statsChunk(job: ChunkJob, reuse?: EventRows): Promise<StatsChunk> {
  // An NPU trace event is 150–250 bytes on its line.
  const rows = new RowsCollector((job.end - job.start) / 150, reuse);
  const tooLong: number[] = [];
  const lines = await forEachLineBytes(job.file, (b, s, e, _n, decode) => rows.addBytes(b, s, e, decode), () => {}, {
    maxLineBytes: job.maxLineBytes,
    range: { start: job.start, end: job.end },
    // At most one per `maxLineBytes` of the chunk: no cap needed.
    onTooLong: (n) => tooLong.push(n),
  });
  return { lines, rows: rows.rows(), tooLong };
}
