import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../core/common/diagnostic';
import { lineTooDeep, lineTooLong, MAX_JSON_DEPTH } from '../core/common/lines';
import type { LineChecker } from '../core/format';
import { createTraceChecker, traceFormat } from '../core/trace/format';
import { replayRecords, type LineRecords } from '../core/trace/lineRecords';
import { depthBounded } from './jsonLines';
import { forEachLineBytes } from './lines';
import type { ChunkDone, ChunkJob, ChunkProblem } from './parallelChunk';

/**
 * Below this a plain trace is checked in one thread: a worker costs tens of milliseconds to start,
 * which a file of a few MB does not win back. `.gz` files are always read in one thread (a gzip
 * stream cannot be entered in the middle).
 */
const MIN_BYTES = 32 << 20;

/**
 * The file is dealt out in rounds of this many bytes, one chunk per thread each round, so the
 * records waiting for the main thread stay within about two chunks per worker whatever the size.
 * Small rounds measured best (1M events: 32 MB rounds 1.28–1.38 s, 8 MB 1.11–1.25 s, 1 MB
 * 1.03–1.10 s, 256 KB 1.18–1.26 s): records are replayed while still in the cache, and the
 * threads wait less for each other at the end.
 */
const ROUND_BYTES = 1 << 20;

/**
 * The main thread's share of a round: besides its own chunk it runs the cross-line checks over
 * the workers' records, so it takes less than an even share.
 */
const MAIN_SHARE = 0.45;

/** Records per batch a worker posts: about 6 MB of buffers, so the main thread can take them while the worker reads on. */
const BATCH = 1 << 16;

/**
 * The main thread runs the cross-line checks of every line, so past a few workers it is the
 * bottleneck and more threads only cost memory (tens of MB each).
 */
const MAX_WORKERS = 3;

/** How far a split point looks for the next line end before giving up on that split (one huge line). */
const MAX_SEARCH = 16 << 20;

/**
 * Worker threads (the other cores), round size and threshold. Tests (many tiny chunks on three
 * workers, batches of a few records) set them with `NPU_CHECK_THREADS` (0: the one-thread check),
 * `NPU_CHECK_ROUND`, `NPU_CHECK_PARALLEL_MIN` (bytes) and `NPU_CHECK_BATCH` (records).
 */
function plan(): { workers: number; round: number; minBytes: number; batch: number } {
  const env = (name: string) => {
    const v = process.env[name];
    return v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
  };
  return {
    workers: env('NPU_CHECK_THREADS') ?? Math.min(availableParallelism() - 1, MAX_WORKERS),
    round: Math.max(1, env('NPU_CHECK_ROUND') ?? ROUND_BYTES),
    minBytes: env('NPU_CHECK_PARALLEL_MIN') ?? MIN_BYTES,
    batch: Math.max(1, env('NPU_CHECK_BATCH') ?? BATCH),
  };
}

/** The worker bundle: beside the CLI bundle, or in dist/ when this runs from source or from the bench bundle. */
function workerFile(): string | undefined {
  return [join(__dirname, 'checkWorker.js'), join(__dirname, '..', 'dist', 'checkWorker.js'), join(__dirname, '..', '..', 'dist', 'checkWorker.js')].find(existsSync);
}

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

/** Bytes `[start, end)` of the file for one thread: 0 is the main thread, k the k-th worker. */
interface Chunk {
  start: number;
  end: number;
  thread: number;
}

/**
 * Chunks at line starts, round after round: in each, the main thread's share, then each worker's.
 * Cutting only after '\n' keeps a CRLF whole and leaves the reader of each chunk in the state the
 * whole-file reader is in there (nothing pending, no line being skipped). A split point that
 * falls in the line the previous one moved to is dropped: that chunk goes on.
 */
export function splitAtLines(file: string, size: number, workers: number, round: number): Chunk[] {
  const shares = [MAIN_SHARE, ...Array.from({ length: workers }, () => (1 - MAIN_SHARE) / workers)];
  const chunks: Chunk[] = [{ start: 0, end: size, thread: 0 }];
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 16);
  let noLineEndBefore = 0;
  try {
    for (let r = 0; r * round < size; r++) {
      let nominal = r * round;
      for (let t = 0; t < shares.length; t++) {
        const last = chunks[chunks.length - 1];
        const from = Math.floor(nominal);
        nominal += shares[t] * round;
        // Every point that falls in the line of the last split has no line start of its own, nor
        // one before a searched stretch without '\n' (a line of hundreds of MB is read once). The
        // first chunk keeps 3 bytes at least: the reader holds fewer back, looking for a BOM.
        if (from < 3 || from <= last.start || from < noLineEndBefore) continue;
        const at = lineStartFrom(fd, from, size, buf);
        if (at < 0) noLineEndBefore = -at;
        if (at <= last.start || at >= size) continue;
        last.end = at;
        chunks.push({ start: at, end: size, thread: t });
      }
    }
  } finally {
    closeSync(fd);
  }
  return chunks;
}

// Workers are kept for the next file of the same run; idle ones do not keep the process alive.
const idle: Worker[] = [];

interface Reply {
  job: number;
  batch?: LineRecords;
  done?: ChunkDone;
  error?: string;
}

/** One chunk on a worker: its record batches as they arrive, then what it found. */
class ChunkRun {
  private readonly batches: LineRecords[] = [];
  private done: ChunkDone | undefined;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  hear(m: Reply): void {
    if (m.batch) this.batches.push(m.batch);
    else if (m.done) this.done = m.done;
    else this.failure ??= new Error(m.error);
    this.wake?.();
  }

  fail(e: Error): void {
    this.failure ??= e;
    this.wake?.();
  }

  /** Hands each batch to `take` in order (and lets it go), then returns what the chunk found. */
  async drain(take: (r: LineRecords) => void): Promise<ChunkDone> {
    for (;;) {
      while (this.batches.length) take(this.batches.shift()!);
      if (this.failure) throw this.failure;
      if (this.done) return this.done;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

/**
 * The workers and their chunks, in file order. A worker's chunk after next is posted when the
 * main thread comes to wait for its current one, so no worker gets more than two chunks ahead of
 * the main thread and the records in flight stay bounded.
 */
class Workers {
  private readonly workers: Worker[] = [];
  private readonly queues: number[][];
  private readonly runs = new Map<number, ChunkRun>();
  private readonly failed: (Error | undefined)[] = [];

  constructor(file: string, private readonly jobs: (ChunkJob | undefined)[], count: number, thread: (j: number) => number) {
    this.queues = Array.from({ length: count }, () => []);
    jobs.forEach((job, j) => job && this.queues[thread(j) - 1].push(j));
    this.queues.forEach((q, w) => {
      if (!q.length) return;
      const worker = idle.pop() ?? new Worker(file);
      worker.ref();
      worker.on('message', (m: Reply) => this.runs.get(m.job)?.hear(m));
      worker.on('error', (e) => {
        this.failed[w] = e;
        for (const j of q) this.runs.get(j)?.fail(e);
      });
      this.workers[w] = worker;
      // Two at first: a worker always has its next chunk queued and never waits for the main thread.
      this.post(w);
      this.post(w);
    });
  }

  /** Posts worker `w`'s next chunk, if any. */
  post(w: number): void {
    const j = this.queues[w].shift();
    if (j === undefined) return;
    const run = new ChunkRun();
    if (this.failed[w]) run.fail(this.failed[w]);
    this.runs.set(j, run);
    this.workers[w].postMessage({ ...this.jobs[j], job: j });
  }

  /** The run of chunk `j` (worker `w`'s current one), once its next one is on its way. */
  take(j: number, w: number): ChunkRun {
    this.post(w);
    return this.runs.get(j)!;
  }

  /** After a failure a worker may still be busy with this file's chunks: it is not reused. */
  release(reuse: boolean): void {
    for (const w of this.workers) {
      if (!w) continue;
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
 * `npu-trace check` of a big plain trace on every core: the file is cut at line starts into
 * chunks dealt out round by round; the main thread checks its own chunks as the one pass does,
 * workers do the per-line work of theirs and send compact records of their event lines, and the
 * main thread runs the same cross-line checker over those records, everything in line order.
 * Undefined when the file is not worth it (then the one pass runs).
 */
export async function checkTraceInParallel(file: string, opts: { maxProblems: number; maxLineBytes: number }): Promise<{ lines: LineChecker; found: Diagnostic[] } | undefined> {
  if (/\.gz$/i.test(file)) return undefined;
  const { workers, round, minBytes, batch } = plan();
  const size = statSync(file).size;
  const bundle = workerFile();
  if (workers < 1 || size < minBytes || size === 0 || !bundle) return undefined;
  const chunks = splitAtLines(file, size, workers, round);
  if (chunks.length < 2) return undefined;
  const jobs = chunks.map((c) => (c.thread === 0 ? undefined : { file, start: c.start, end: c.end, maxProblems: opts.maxProblems, maxLineBytes: opts.maxLineBytes, batch }));
  const pool = new Workers(bundle, jobs, workers, (j) => chunks[j].thread);
  const { lines, checker } = createTraceChecker(opts.maxProblems);
  const found: Diagnostic[] = [];
  const mine = depthBounded(lines, traceFormat.lineTooDeep!, found);
  let ok = false;
  try {
    // Lines are numbered from 0 in each chunk; `offset` is the number of the chunk's first line.
    let offset = 0;
    for (const [j, c] of chunks.entries()) {
      const at = offset;
      let read;
      if (c.thread === 0) {
        read = await forEachLineBytes(file, (b, s, e, n, decode) => mine.addBytes!(b, s, e, n + at, decode), (l, n) => mine.add(l, n + at), {
          maxLineBytes: opts.maxLineBytes,
          range: { start: c.start, end: c.end },
          onTooLong: (n, len) => found.push(lineTooLong(traceFormat.lineTooLong!, n + at, len, opts.maxLineBytes, 'bytes')),
        });
      } else {
        const done = await pool.take(j, c.thread - 1).drain((batch) => replayRecords(batch, at, (l, n) => checker.add(l, n)));
        checker.addFound(done.found.map((d) => shifted(d, at, opts.maxLineBytes)), done.dropped, done.droppedError);
        read = done.lines;
      }
      // A chunk ends with '\n': its reader counts one last, empty line, which is the next chunk's first.
      offset += read - 1;
    }
    ok = true;
  } finally {
    pool.release(ok);
  }
  return { lines, found };
}
