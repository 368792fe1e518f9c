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
 * The main thread's share of the file: besides its own chunk it runs the cross-line checks over
 * every other chunk's records, after its own, so it takes less than an even share.
 */
const MAIN_SHARE = 0.4;

/** How far a split point looks for the next line end before giving up on that split (one huge line). */
const MAX_SEARCH = 16 << 20;

/**
 * Chunks (one per core), worker threads (the other cores) and threshold. For tests (many tiny
 * chunks on a few workers), `NPU_CHECK_CHUNKS`, `NPU_CHECK_THREADS` and `NPU_CHECK_PARALLEL_MIN`
 * (bytes) override them; `NPU_CHECK_CHUNKS=1` is the one-thread check.
 */
function plan(): { chunks: number; threads: number; minBytes: number } {
  const env = (name: string) => {
    const v = process.env[name];
    return v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
  };
  const cores = availableParallelism();
  const chunks = env('NPU_CHECK_CHUNKS') ?? cores;
  return { chunks, threads: Math.max(1, env('NPU_CHECK_THREADS') ?? Math.min(chunks, cores) - 1), minBytes: env('NPU_CHECK_PARALLEL_MIN') ?? MIN_BYTES };
}

/** The worker bundle: beside the CLI bundle, or in dist/ when this runs from source or from the bench bundle. */
function workerFile(): string | undefined {
  return [join(__dirname, 'checkWorker.js'), join(__dirname, '..', 'dist', 'checkWorker.js'), join(__dirname, '..', '..', 'dist', 'checkWorker.js')].find(existsSync);
}

/** Offset just after the first '\n' at or after `from - 1`, or -1 when none is found soon enough. */
function lineStartFrom(fd: number, from: number, size: number, buf: Buffer): number {
  for (let at = from - 1; at < size && at < from + MAX_SEARCH; at += buf.length) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= 0) break;
    const i = buf.subarray(0, n).indexOf(10);
    if (i >= 0) return at + i + 1;
  }
  return -1;
}

/**
 * Split points at line starts: 0, then one after a '\n' near each nominal point, then the size.
 * Cutting only after '\n' keeps a CRLF whole and leaves the reader of each chunk in the state the
 * whole-file reader is in there (nothing pending, no line being skipped).
 */
export function splitAtLines(file: string, size: number, chunks: number): number[] {
  const bounds = [0];
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(1 << 16);
  try {
    for (let k = 1; k < chunks; k++) {
      const nominal = Math.floor(size * (MAIN_SHARE + ((1 - MAIN_SHARE) * (k - 1)) / (chunks - 1)));
      // Many chunks of a small file: a point inside the previous chunk's last line has no line start of its own.
      if (nominal < bounds[bounds.length - 1]) continue;
      const at = lineStartFrom(fd, Math.max(1, nominal), size, buf);
      if (at > bounds[bounds.length - 1] && at < size) bounds.push(at);
    }
  } finally {
    closeSync(fd);
  }
  bounds.push(size);
  return bounds;
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

/** Runs the jobs on `threads` workers, in turn; a worker checks its chunks one after the other. */
function startJobs(file: string, jobs: ChunkJob[], threads: number): { runs: ChunkRun[]; release(reuse: boolean): void } {
  const runs = jobs.map(() => new ChunkRun());
  const workers = Array.from({ length: Math.min(threads, jobs.length) }, () => idle.pop() ?? new Worker(file));
  workers.forEach((w, i) => {
    w.ref();
    w.on('message', (m: Reply) => runs[m.job].hear(m));
    w.on('error', (e) => {
      for (let j = i; j < jobs.length; j += workers.length) runs[j].fail(e);
    });
  });
  jobs.forEach((job, j) => workers[j % workers.length].postMessage({ ...job, job: j }));
  return {
    runs,
    // After a failure a worker may still be busy with this file's chunks: it is not reused.
    release: (reuse) => {
      for (const w of workers) {
        w.removeAllListeners('message').removeAllListeners('error').unref();
        if (reuse) idle.push(w);
        else void w.terminate();
      }
    },
  };
}

/** A chunk's problem on its line in the file (the chunk starts on line `by`). */
function shifted(d: ChunkProblem, by: number, maxLineBytes: number): Diagnostic {
  const line = d.range.start.line + by;
  if (d.tooLong !== undefined) return lineTooLong(traceFormat.lineTooLong!, line, d.tooLong, maxLineBytes, 'bytes');
  if (d.tooDeep) return lineTooDeep(traceFormat.lineTooDeep!, line, MAX_JSON_DEPTH);
  return { ...d, range: { start: { line, character: d.range.start.character }, end: { line: d.range.end.line + by, character: d.range.end.character } } };
}

/**
 * `npu-trace check` of a big plain trace on every core: the file is cut at line starts, the main
 * thread checks the first chunk as the one pass does and workers do the per-line work of the
 * others, sending compact records of their event lines; the main thread then runs the same
 * cross-line checker over those records in line order. Undefined when the file is not worth it.
 */
export async function checkTraceInParallel(file: string, opts: { maxProblems: number; maxLineBytes: number }): Promise<{ lines: LineChecker; found: Diagnostic[] } | undefined> {
  if (/\.gz$/i.test(file)) return undefined;
  const { chunks, threads, minBytes } = plan();
  const size = statSync(file).size;
  const worker = workerFile();
  if (chunks < 2 || size < minBytes || size === 0 || !worker) return undefined;
  const bounds = splitAtLines(file, size, chunks);
  if (bounds.length < 3) return undefined;
  const jobs: ChunkJob[] = [];
  for (let k = 1; k + 1 < bounds.length; k++) jobs.push({ file, start: bounds[k], end: bounds[k + 1], maxProblems: opts.maxProblems, maxLineBytes: opts.maxLineBytes });
  const { runs, release } = startJobs(worker, jobs, threads);
  const { lines, checker } = createTraceChecker(opts.maxProblems);
  const found: Diagnostic[] = [];
  let ok = false;
  try {
    const first = depthBounded(lines, traceFormat.lineTooDeep!, found);
    const read = await forEachLineBytes(file, first.addBytes!, (l, n) => first.add(l, n), {
      maxLineBytes: opts.maxLineBytes,
      range: { start: 0, end: bounds[1] },
      onTooLong: (n, len) => found.push(lineTooLong(traceFormat.lineTooLong!, n, len, opts.maxLineBytes, 'bytes')),
    });
    // A chunk ends with '\n': its reader counts one last, empty line, which is the next chunk's first.
    let offset = read - 1;
    for (const run of runs) {
      const done = await run.drain((batch) => replayRecords(batch, offset, (l, n) => checker.add(l, n)));
      checker.addFound(done.found.map((d) => shifted(d, offset, opts.maxLineBytes)), done.dropped, done.droppedError);
      offset += done.lines - 1;
    }
    ok = true;
  } finally {
    release(ok);
  }
  return { lines, found };
}
