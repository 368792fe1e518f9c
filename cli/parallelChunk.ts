import { BoundedDiagnostics } from '../core/common/boundedDiagnostics';
import type { Diagnostic } from '../core/common/diagnostic';
import { lineTooLong } from '../core/common/lines';
import { lineDiagnostic } from '../core/trace/checker';
import { parsedLines, traceFormat } from '../core/trace/format';
import type { TraceLine } from '../core/trace/line';
import { LineRecordWriter, type LineRecords } from '../core/trace/lineRecords';
import { depthBounded } from './jsonLines';
import { forEachLineBytes } from './lines';

/** One byte range of a plain trace, starting after a '\n' (or at 0) and ending after one (or at the end). */
export interface ChunkJob {
  file: string;
  start: number;
  end: number;
  maxProblems: number;
  maxLineBytes: number;
  /** Records per batch (small in tests, to cross batch ends). */
  batch: number;
}

/**
 * A problem of a chunk, on a line counted from the chunk's first. The two whose message names
 * the line say what they are, so the main thread words them again with the line's real number.
 */
export type ChunkProblem = Diagnostic & { tooLong?: number; tooDeep?: true };

/** What a chunk found besides its records. */
export interface ChunkDone {
  /** Lines read, as the reader counts them: one more than the chunk's own when it ends with '\n'. */
  lines: number;
  /** Its first `maxProblems` per-line problems by position (parse, schema, too long, too deep). */
  found: ChunkProblem[];
  dropped: number;
  droppedError: boolean;
}

/**
 * The per-line work of a chunk (read, byte fast path or full parse, schema) with the per-line
 * limits of the one-pass check; the cross-line checks get `onBatch`'s records.
 */
export async function checkChunk(job: ChunkJob, onBatch: (r: LineRecords) => void): Promise<ChunkDone> {
  const problems = new BoundedDiagnostics(job.maxProblems);
  const writer = new LineRecordWriter(job.batch, onBatch);
  const record = (l: TraceLine, n: number) => {
    if (l.local) for (const d of l.local) problems.push(lineDiagnostic(n, d));
    writer.add(l, n);
  };
  const mark = (p: ChunkProblem) => problems.push(p);
  const deep = { push: (d: Diagnostic) => mark({ ...d, tooDeep: true }) };
  const checker = depthBounded({ ...parsedLines(record), finish: () => [] }, traceFormat.lineTooDeep!, deep);
  const lines = await forEachLineBytes(job.file, checker.addBytes!, (l, n) => checker.add(l, n), {
    maxLineBytes: job.maxLineBytes,
    range: { start: job.start, end: job.end },
    onTooLong: (n, len) => mark({ ...lineTooLong(traceFormat.lineTooLong!, n, len, job.maxLineBytes, 'bytes'), tooLong: len }),
  });
  writer.end();
  return { lines, found: problems.all(), dropped: problems.dropped, droppedError: problems.droppedError };
}
