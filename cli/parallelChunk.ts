import type { Diagnostic } from '../core/common/diagnostic';
import { lineTooLong } from '../core/common/lines';
import { ChunkChecker, type ChunkProblem, type ChunkSummary } from '../core/trace/chunkChecks';
import { parsedLines, traceFormat } from '../core/trace/format';
import { depthBounded } from './jsonLines';
import { forEachLineBytes } from './lines';

/** One byte range of a plain trace, starting after a '\n' (or at 0) and ending after one (or at the end). */
export interface ChunkJob {
  file: string;
  start: number;
  end: number;
  maxProblems: number;
  maxLineBytes: number;
}

/** What a chunk found, on lines counted from its first, and what the merge needs of it. */
export interface ChunkDone {
  /** Lines read, as the reader counts them: one more than the chunk's own when it ends with '\n'. */
  lines: number;
  /** Its first `maxProblems` problems by position, per line and across its lines. */
  found: ChunkProblem[];
  dropped: number;
  droppedError: boolean;
  summary: ChunkSummary;
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
