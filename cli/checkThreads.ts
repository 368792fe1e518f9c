// The worker threads of the parallel trace check (parallelCheck.ts): how many, from what size, and
// the one started before the CLI bundle is loaded. Bundled into dist/cli.js (which starts it) and
// into dist/cliMain.js (which uses it), so the hand-over goes through a process-wide slot.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Below this a plain trace is checked in one thread: a worker costs tens of milliseconds to start,
 * which a file of a few MB does not win back. `.gz` files are always read in one thread (a gzip
 * stream cannot be entered in the middle).
 */
const MIN_BYTES = 32 << 20;

/**
 * Chunk size. Every thread takes the next chunk when it is done with one, so the threads finish
 * within about a chunk of each other; a chunk's summary (the ids it enqueued or issued first, those
 * crossing its ends) waits for the chunks before it, so chunks stay small enough for that to be
 * little memory.
 */
const CHUNK_BYTES = 1 << 20;

/** Past a few workers the disk and the merge are the limit, and each thread costs tens of MB. */
const MAX_WORKERS = 3;

/**
 * Worker threads (the other cores), chunk size and threshold. Tests (many tiny chunks on three
 * workers) set them with `NPU_CHECK_THREADS` (0: the one-thread check), `NPU_CHECK_CHUNK` and
 * `NPU_CHECK_PARALLEL_MIN` (bytes).
 */
export function plan(): { workers: number; chunk: number; minBytes: number } {
  const env = (name: string) => {
    const v = process.env[name];
    return v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
  };
  return {
    workers: env('NPU_CHECK_THREADS') ?? Math.min(availableParallelism() - 1, MAX_WORKERS),
    chunk: Math.max(1, env('NPU_CHECK_CHUNK') ?? CHUNK_BYTES),
    minBytes: env('NPU_CHECK_PARALLEL_MIN') ?? MIN_BYTES,
  };
}

/** The worker bundle: beside the CLI bundle, or in dist/ when this runs from source or from the bench bundle. */
export function workerFile(): string | undefined {
  return [join(__dirname, 'checkWorker.js'), join(__dirname, '..', 'dist', 'checkWorker.js'), join(__dirname, '..', '..', 'dist', 'checkWorker.js')].find(existsSync);
}

/** A worker started early, and whether it has failed or exited since (then it is not used). */
interface Early {
  worker: Worker;
  dead: boolean;
}

const SLOT = Symbol.for('npu-trace.checkWorkers');
const slot = globalThis as { [SLOT]?: Early[] };

/**
 * Called by dist/cli.js before it loads the CLI bundle: when `npu-trace check` (or `stats`) names a plain trace
 * or a `.json` file big enough for the parallel check, its workers start now, booting on the other cores while this
 * thread compiles the bundle (about 40 ms each way on the 1M-event trace). Only a guess from the
 * arguments: a worker nobody takes does not keep the process alive, and the output never depends
 * on it.
 */
export function startCheckWorkersEarly(argv: readonly string[]): void {
  if (argv[0] !== 'check' && argv[0] !== 'stats') return;
  const { workers, minBytes } = plan();
  if (workers < 1) return;
  const big = argv.slice(1).some((a) => {
    // A plain trace, or what may be a Chrome trace (parallelChrome.ts).
    if (!/\.(?:trace\.jsonl|json)$/i.test(a)) return false;
    try {
      return statSync(a).size >= minBytes;
    } catch {
      return false;
    }
  });
  const file = big ? workerFile() : undefined;
  if (!file) return;
  const early: Early[] = (slot[SLOT] = []);
  for (let i = 0; i < workers; i++) {
    const e: Early = { worker: new Worker(file), dead: false };
    // Until taken, a failure only marks it: the check then starts its own worker.
    e.worker.on('error', () => (e.dead = true)).on('exit', () => (e.dead = true)).unref();
    early.push(e);
  }
}

/** A worker started early and still alive, with its listeners removed, or undefined. */
export function takeEarlyWorker(): Worker | undefined {
  const early = slot[SLOT];
  for (let e; (e = early?.pop());) {
    if (e.dead) continue;
    e.worker.removeAllListeners('error').removeAllListeners('exit');
    return e.worker;
  }
  return undefined;
}
