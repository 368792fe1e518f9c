import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { chromeParts } from '../io/chromeParts';
import { headOf } from '../io/firstLine';
import type { GzipEnd } from '../io/gunzip';
import { forEachText, textSizeHint } from '../io/lines';
import { detectFormat, timelineBuilderOf } from '../../core/detectFormat';
import type { FileHead } from '../../core/fileHead';
import type { TimelineBuilder } from '../../core/timeline/builder';
import type { TimelineModel } from '../../core/timeline/model';
import type { TimelineReadJob, TimelineReadMessage } from '../../protocol/timelineRead';

/** Characters after which a file read as text shows a preview (about PREVIEW_LINES of a pretty-printed trace). */
const PREVIEW_CHARS = 4 << 20;

/**
 * The model of a file whose builder takes text in pieces (one JSON document: InferScope, Chrome), fed so
 * (gunzipped as it comes for a `.gz`), with the size known from disk or the gzip trailer first, so
 * a big one is read streamed from the start. Undefined: the file's builder reads lines. `builderFor`:
 * tests give a builder with a small streaming limit.
 */
export async function buildFromText(
  fileName: string, path: string, onPreview?: (m: TimelineModel) => void, onProgress?: (bytesRead: number) => void,
  builderFor: (fileName: string, head: FileHead) => TimelineBuilder | undefined = timelineBuilderOf,
): Promise<TimelineModel | undefined> {
  const head = headOf(path);
  const builder = builderFor(fileName, head);
  if (!builder?.addText) return undefined;
  const size = textSizeHint(path);
  // A big plain file of a format that can be read in parts on another thread (not the builder tests give).
  const reader = builderFor === timelineBuilderOf && builder.replayBatch && builder.atPartBoundary ? readerThread(fileName, path, head, size) : undefined;
  if (reader) {
    const m = await buildInParts(reader, { fileName, path, part: { start: reader.start, end: size, form: reader.form } }, builder, onPreview, onProgress);
    if (m) return m;
  }
  builder.expectChars?.(size);
  let chars = 0;
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  await forEachText(path, (t) => {
    builder.addText!(t);
    if (onPreview && chars < PREVIEW_CHARS && (chars += t.length) >= PREVIEW_CHARS) onPreview(builder.finish(true));
  }, { onProgress, gzip });
  // A cut .gz: the builder leaves out the line the cut falls in, as the line readers do.
  builder.endText?.(gzip.truncated);
  return builder.finish();
}

/**
 * Below this a timeline is built on one thread: a thread costs tens of milliseconds to start and
 * the batches' passing a little per event. `NPU_TIMELINE_READ_MIN` (bytes) sets it; `NPU_TIMELINE_READ_THREAD=0` keeps one thread.
 */
const TWO_THREADS_MIN = 32 << 20;

/**
 * This thread's share of the file against the other's 1: it reads and draws its part, then draws
 * the other's from its ops and lays the model out. Reading is most of a build, but two threads
 * reading at once each read slower on a 2-core machine (memory): 0.6 was the best of 0.4, 0.6 and
 * 0.8 there, 0.86× the one thread's time (alternated, the 108 MB training trace).
 */
const FIRST_SHARE = 0.6;

/** The reading thread's bundle and where its part starts, when a file is worth it and this machine has a core for it. */
function readerThread(fileName: string, path: string, head: FileHead, size: number): { file: string; start: number; form: string } | undefined {
  if (process.env.NPU_TIMELINE_READ_THREAD === '0' || availableParallelism() < 2 || /\.gz$/i.test(path)) return undefined;
  const min = /^\d{1,15}$/.test(process.env.NPU_TIMELINE_READ_MIN ?? '') ? Number(process.env.NPU_TIMELINE_READ_MIN) : TWO_THREADS_MIN;
  if (size < min || !detectFormat(fileName, head)?.timelineReader) return undefined;
  // Beside this bundle (dist/), or in dist/ when this runs from source.
  const file = [join(__dirname, 'timelineReadWorker.js'), join(__dirname, '..', '..', 'dist', 'timelineReadWorker.js')].find(existsSync);
  // Only a format with a reader on another thread gets here: Chrome's, whose parts start at events.
  const split = file ? chromeParts(path, size, 2, FIRST_SHARE) : undefined;
  return file && split ? { file, start: split.starts[0], form: split.form } : undefined;
}

/**
 * The model built on two threads: this one reads the text up to the part's start (a preview after
 * PREVIEW_CHARS, as on one thread), the other reads the part and posts what the builder is to do
 * with each of its events (the format's `timelineReader`), which this one replays in order
 * (`replayBatch`) when its own text ended between two events there: the model one thread builds.
 * Else this thread reads the part itself. Undefined: the part could not be used (read again on one thread).
 */
async function buildInParts(reader: { file: string }, job: TimelineReadJob, builder: TimelineBuilder, onPreview?: (m: TimelineModel) => void, onProgress?: (bytesRead: number) => void): Promise<TimelineModel | undefined> {
  const w = new Worker(reader.file, { workerData: job });
  const batches: unknown[] = [];
  let done = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const stop = (e: Error) => {
    failure ??= e;
    wake?.();
  };
  w.on('message', (m: TimelineReadMessage) => {
    if ('batch' in m) batches.push(m.batch);
    else if ('done' in m) done = true;
    else failure ??= new Error(m.error);
    wake?.();
  });
  w.on('error', stop);
  w.on('exit', (code) => stop(new Error(`the thread reading the trace exited (${code}) before it was done`)));
  try {
    let chars = 0;
    await forEachText(job.path, (t) => {
      builder.addText!(t);
      chars += t.length;
      onProgress?.(chars);
      if (onPreview && chars - t.length < PREVIEW_CHARS && chars >= PREVIEW_CHARS) onPreview(builder.finish(true));
    }, { range: { start: 0, end: job.part.start } });
    const at = builder.atPartBoundary!();
    if (at?.form !== job.part.form) {
      // The part did not start at an element: this thread reads it.
      void w.terminate();
      await forEachText(job.path, (t) => builder.addText!(t), { range: { start: job.part.start, end: job.part.end } });
      builder.endText?.(false);
      return builder.finish();
    }
    for (let k = 0; ; ) {
      for (; k < batches.length; k++) {
        builder.replayBatch!(batches[k], at.at);
        batches[k] = undefined;
      }
      if (done) break;
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    onProgress?.(job.part.end);
    return builder.finish();
  } finally {
    void w.terminate();
  }
}
