import type { ChromePart, PartForm } from '../core/chrome/parts';
import type { ChunkProblem, ChunkSummary } from '../core/trace/chunkChecks';
import type { EventRows } from '../core/trace/metrics/eventRows';

// The parallel trace check's worker threads (dist/checkWorker.js, cli/checkWorker.ts): the main
// thread (cli/parallelCheck.ts) posts each a FileJob; a worker posts a CheckWorkerMessage per chunk
// it has checked, or the error that stopped it.

/**
 * One file's check as every thread sees it: the chunks, and two counters all of them share — the
 * next chunk no thread has claimed, and how many the main thread has merged — so a worker takes
 * its next chunk itself, not waiting for the main thread (busy with a chunk of its own) to send it.
 */
export interface FileJob {
  file: string;
  maxProblems: number;
  maxLineBytes: number;
  /** Chunk `k` is bytes `[bounds[k], bounds[k + 1])`. */
  bounds: number[];
  /** Over a SharedArrayBuffer: `[NEXT]`, `[MERGED]`, `[ABORT]` (1: stop claiming). */
  ctl: Int32Array;
  /** Chunks a thread may be ahead of the merge: it waits past that (summaries must not pile up). */
  maxAhead: number;
  /** 'stats': each chunk's events for the metrics (`npu-trace stats`, a StatsChunk), not its check. */
  task?: 'stats';
}

/** Slots of FileJob.ctl: the next chunk to claim, the chunks merged, and 1 when every thread must stop. */
export const NEXT = 0;
export const MERGED = 1;
export const ABORT = 2;

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

/** What a chunk of `npu-trace stats` read: its events, in order, for the one collector. */
export interface StatsChunk {
  /** Lines read, counted as ChunkDone.lines. */
  lines: number;
  rows: EventRows;
  /** Its lines over the line limit (left out of the metrics), from its first line (0). */
  tooLong: number[];
}

/**
 * The parts of a big Chrome trace after its first (cli/parallelChrome.ts): part `k` is bytes
 * `[bounds[k], bounds[k + 1])`, starting at what was guessed to be an event of the events array,
 * read as `form`'s (core/chrome/parts.ts); the last ends the file. Every thread claims the next part
 * from `ctl` (the main thread too, once it has read the first), so none waits while parts are left.
 */
export interface ChromePartsJob {
  chrome: { file: string; form: PartForm; maxProblems: number; bounds: number[]; ctl: Int32Array };
}

/** Slots of ChromePartsJob.chrome.ctl: the next part no thread has claimed, and 1 when every thread must stop. */
export const NEXT_PART = 0;
export const STOP_PARTS = 1;

/** What a worker posts: chunk `job` done (checked, or its events read), Chrome part `index` checked, or why it stopped. */
export type CheckWorkerMessage = { job: number; done: ChunkDone | StatsChunk } | { part: ChromePart; index: number } | { error: string };
