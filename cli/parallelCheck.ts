import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../core/common/diagnostic';
import { lineTooDeep, lineTooLong, MAX_JSON_DEPTH } from '../core/common/lines';
import { checkResult } from '../core/common/settings';
import type { LineChecker } from '../core/formatDescriptor';
import type { ChunkProblem } from '../core/trace/chunkChecks';
import { ChunkMerger } from '../core/trace/chunkMerge';
import { traceFormat } from '../core/trace/descriptor';
import { plan, takeEarlyWorker, workerFile } from './checkThreads';
import { ABORT, MERGED, NEXT, type CheckWorkerMessage, type ChunkDone, type FileJob, type StatsChunk } from '../protocol/checkWorker';
import { checkChunk, chunkJob, newControl } from './parallelChunk';

/**
 * Chunks done but not merged (waiting for an earlier one another thread is still on) after which a
 * thread waits instead of taking more: a slow chunk must not let summaries pile up for the whole
 * file. Tests set it with `NPU_CHECK_AHEAD` (1: every thread waits for the merge of the chunk before).
 */
const MAX_AHEAD = 32;
const aheadOf = () => {
  const v = process.env.NPU_CHECK_AHEAD;
  return v !== undefined && /^[1-9]\d{0,5}$/.test(v) ? Number(v) : MAX_AHEAD;
};

/** How far a split point looks for the next line end before giving up on that split (one huge line). */
const MAX_SEARCH = 16 << 20;

/**
 * Offset just after the first '\n' at or after `from - 1`, or minus the offset the search gave up
 * at (no '\n' before it: within one huge line, or at the end of the file).
 */
function lineStartFrom(fd: number, from: number, size: number, buf: Buffer): number {
  let at = from - 1;
  for (; at < size && at < from + MAX_SEARCH; at += buf.length) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= 0) break;
    const i = buf.subarray(0, n).indexOf(10);
    if (i >= 0) return at + i + 1;
  }
  return -Math.min(at, size);
}

/** Bytes `[start, end)` of the file. */
interface Chunk {
  start: number;
  end: number;
}

/**
 * Chunks of about `chunk` bytes at line starts. Cutting only after '\n' keeps a CRLF whole and
 * leaves the reader of each chunk in the state the whole-file reader is in there (nothing pending,
 * no line being skipped). A split point that falls in the line the previous one moved to is
 * dropped: that chunk goes on.
 */
export function splitAtLines(file: string, size: number, chunk: number): Chunk[] {
  const chunks: Chunk[] = [{ start: 0, end: size }];
  const fd = openSync(file, 'r');
  // A line is a few hundred bytes: one page mostly holds the next line end (64 KB a split point
  // read 13 MB of the 1M-event trace before any chunk could start).
  const buf = Buffer.allocUnsafe(1 << 12);
  let noLineEndBefore = 0;
  try {
    for (let from = chunk; from < size; from += chunk) {
      const last = chunks[chunks.length - 1];
      // Every point that falls in the line of the last split has no line start of its own, nor
      // one before a searched stretch without '\n' (a line of hundreds of MB is read once). The
      // first chunk keeps 3 bytes at least: the reader holds fewer back, looking for a BOM.
      if (from < 3 || from <= last.start || from < noLineEndBefore) continue;
      const at = lineStartFrom(fd, from, size, buf);
      if (at < 0) noLineEndBefore = -at;
      if (at <= last.start || at >= size) continue;
      last.end = at;
      chunks.push({ start: at, end: size });
    }
  } finally {
    closeSync(fd);
  }
  return chunks;
}

// Workers are kept for the next file of the same run; idle ones do not keep the process alive.
const idle: Worker[] = [];

/**
 * The workers of one file's check: each is sent the file once and claims its chunks itself (the
 * counters in `FileJob.ctl`), posting what each found; the main thread claims from the same counter.
 */
class Pool {
  private readonly workers: Worker[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(file: string, count: number, private readonly job: FileJob, done: (j: number, d: ChunkDone | StatsChunk) => void) {
    for (let w = 0; w < count; w++) {
      const worker = idle.pop() ?? takeEarlyWorker() ?? new Worker(file);
      worker.ref();
      worker.on('message', (m: CheckWorkerMessage) => {
        if ('done' in m) done(m.job, m.done);
        else this.failure ??= new Error('error' in m ? m.error : 'a worker of the trace check posted a Chrome part');
        this.wake?.();
      });
      worker.on('error', (e) => {
        this.failure ??= e;
        this.wake?.();
      });
      worker.postMessage(job);
      this.workers.push(worker);
    }
  }

  /** Until `until()` holds, letting the workers' messages in; throws a worker's failure. */
  async wait(until: () => boolean): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (until()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** After a failure a worker may still be busy with this file's chunks: it is told to stop and not reused. */
  release(reuse: boolean): void {
    if (!reuse) {
      Atomics.store(this.job.ctl, ABORT, 1);
      Atomics.notify(this.job.ctl, MERGED);
    }
    for (const w of this.workers) {
      w.removeAllListeners('message').removeAllListeners('error').unref();
      if (reuse) idle.push(w);
      else void w.terminate();
    }
  }
}

/** A chunk's problem on its line in the file (the chunk starts on line `by`). */
function shifted(d: ChunkProblem, by: number, maxLineBytes: number): Diagnostic {
  const line = d.range.start.line + by;
  if (d.tooLong !== undefined) return lineTooLong(traceFormat.lineTooLong!, line, d.tooLong, maxLineBytes, 'bytes');
  if (d.tooDeep) return lineTooDeep(traceFormat.lineTooDeep!, line, MAX_JSON_DEPTH);
  return { ...d, range: { start: { line, character: d.range.start.character }, end: { line: d.range.end.line + by, character: d.range.end.character } } };
}

/**
 * A plain trace's chunks on every core (`job`, from `parallelJob`): every thread, the main one too,
 * claims the next chunk and does all its work; `merge` is called on the main thread with each
 * chunk's result in file order, and with the number of the chunk's first line in the file.
 */
export async function inParallel<D extends ChunkDone | StatsChunk>(job: FileJob, own: (k: number) => Promise<D>, merge: (d: D, firstLine: number) => void): Promise<void> {
  const { workers } = plan();
  const count = job.bounds.length - 1;
  const ctl = job.ctl;
  // Chunks done out of order wait here for those before them; lines are numbered from 0 in each
  // chunk, `offset` is the number of the next one to merge's first line.
  const waiting = new Map<number, D>();
  let merged = 0;
  let offset = 0;
  const done = (j: number, d: D) => {
    waiting.set(j, d);
    const before = merged;
    for (let next; (next = waiting.get(merged)); merged++) {
      waiting.delete(merged);
      merge(next, offset);
      // A chunk ends with '\n': its reader counts one last, empty line, which is the next chunk's first.
      offset += next.lines - 1;
    }
    if (merged !== before) {
      Atomics.store(ctl, MERGED, merged);
      Atomics.notify(ctl, MERGED);
    }
  };
  const pool = new Pool(workerFile()!, Math.min(workers, count - 1), job, (j, d) => done(j, d as D));
  let ok = false;
  try {
    for (;;) {
      const j = Atomics.add(ctl, NEXT, 1);
      if (j >= count) break;
      await pool.wait(() => j < merged + job.maxAhead);
      done(j, await own(j));
      // Lets the workers' messages in: their chunks are merged while this thread does one.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await pool.wait(() => merged === count);
    ok = true;
  } finally {
    pool.release(ok);
  }
}

/**
 * The job of a plain trace's work on every core: the file cut at line starts into chunks.
 * Undefined when the file is not worth it (then the one pass runs): gzipped, small, one chunk.
 */
export function parallelJob(file: string, opts: { maxProblems: number; maxLineBytes: number; task?: 'stats' }): FileJob | undefined {
  if (/\.gz$/i.test(file)) return undefined;
  const { workers, chunk, minBytes } = plan();
  const size = statSync(file).size;
  if (workers < 1 || size < minBytes || size === 0 || !workerFile()) return undefined;
  const chunks = splitAtLines(file, size, chunk);
  if (chunks.length < 2) return undefined;
  return {
    file, maxProblems: opts.maxProblems, maxLineBytes: opts.maxLineBytes,
    bounds: [...chunks.map((c) => c.start), size], ctl: newControl(), maxAhead: aheadOf(), ...(opts.task ? { task: opts.task } : {}),
  };
}

/**
 * `npu-trace check` of a big plain trace on every core: the file is cut at line starts into
 * chunks; every thread, the main one too, takes the next chunk and does all its work, the
 * cross-line checks included as far as the chunk alone decides them; the main thread merges the
 * chunks' problems and summaries in file order (`ChunkMerger`) into what the one pass finds.
 * Undefined when the file is not worth it (then the one pass runs).
 */
export async function checkTraceInParallel(file: string, opts: { maxProblems: number; maxLineBytes: number }): Promise<{ lines: LineChecker; found: Diagnostic[] } | undefined> {
  const job = parallelJob(file, opts);
  if (!job) return undefined;
  const merger = new ChunkMerger(opts.maxProblems);
  await inParallel<ChunkDone>(job, async (j) => checkChunk(chunkJob(job, j)), (next, at) => {
    merger.merge(next.summary, next.found, next.dropped, next.droppedError, at, (p) => shifted(p, at, opts.maxLineBytes));
  });
  return { lines: { add: () => undefined, finish: () => merger.finish(), finishCapped: (settings, extra) => checkResult(merger.finish().concat(extra), settings, merger.dropped) }, found: [] };
}
