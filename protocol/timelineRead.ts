// The reading thread of a timeline built on two threads (node/workers/timelineRead.ts, bundled as
// dist/timelineReadWorker.js): the thread that builds the model (node/workers/timelineText.ts)
// starts it with a TimelineReadJob and replays the batches it posts, in order.

/** What the reading thread reads (passed as workerData). */
export interface TimelineReadJob {
  fileName: string;
  path: string;
  /** Only bytes `[start, end)` of the plain file: a part that starts at one of the format's elements, of that form. */
  part: { start: number; end: number; form: string };
}

/** What it posts: a batch of its format's (buffers moved), with the characters read so far; the end; or why it stopped. */
export type TimelineReadMessage =
  | { batch: unknown; chars: number }
  | { done: true }
  | { error: string };
