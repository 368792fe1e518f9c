import { headOfLines, timelineBuilderOf } from '../../core/detectFormat';
import { HEAD_BYTES } from '../../core/fileHead';
import { PREVIEW_LINES, type TimelineBuilder } from '../../core/timeline/builder';
import type { TimelineModel } from '../../core/timeline/model';
import { MetricsCollector } from '../../core/trace/metrics/collector';
import type { TraceStats } from '../../core/trace/metrics/types';

/** Work between two yields to the web extension host's event loop (its other extensions, the editor's requests). */
export const SLICE_MS = 8;

/** Thrown when the token fires between two slices. */
export class Cancelled extends Error {
  constructor() { super('cancelled'); }
}

export interface Slicing {
  cancelled(): boolean;
  /** Resolves on a later turn of the event loop. */
  pause(): Promise<void>;
  now(): number;
}

export const browserSlicing = (isCancelled: () => boolean): Slicing => ({
  cancelled: isCancelled,
  pause: () => new Promise((r) => setTimeout(r, 0)),
  now: () => performance.now(),
});

/** Feeds lines [0, count) to `add` in slices of SLICE_MS, pausing between them; throws Cancelled. */
async function eachLineSliced(count: number, lineAt: (i: number) => string, s: Slicing, add: (l: string, i: number) => void): Promise<void> {
  let until = s.now() + SLICE_MS;
  for (let i = 0; i < count; i++) {
    add(lineAt(i), i);
    // The clock is read every 256 lines: reading it per line costs more than a short line's parse.
    if ((i & 255) === 255 && s.now() >= until) {
      await s.pause();
      if (s.cancelled()) throw new Cancelled();
      until = s.now() + SLICE_MS;
    }
  }
}

/**
 * The timeline model of an open document's lines, built in this thread (the browser has no worker
 * threads, and a web worker would need the text copied to it) in slices, so the extension host
 * keeps answering meanwhile. Same builder, same model as the desktop worker.
 */
export async function buildSliced(fileName: string, count: number, lineAt: (i: number) => string, s: Slicing, onPreview?: (m: TimelineModel) => void): Promise<TimelineModel> {
  let builder: TimelineBuilder | undefined;
  let head: string | undefined;
  await eachLineSliced(count, lineAt, s, (l, n) => {
    head ??= headOfLines(firstLines(count, lineAt));
    builder ??= timelineBuilderOf(fileName, head);
    if (!builder) throw new Error(`No timeline for ${fileName}: its first line is not an NPU trace event and its name does not end in .trace.jsonl.`);
    builder.addLine(l, n);
    if (n === PREVIEW_LINES) onPreview?.(builder.finish(true));
  });
  if (!builder) throw new Error(`${fileName} is empty.`);
  return builder.finish();
}

/** The first lines of a document, up to about `HEAD_BYTES` characters: what its format is told by. */
function firstLines(count: number, lineAt: (i: number) => string): string[] {
  const out: string[] = [];
  for (let i = 0, n = 0; i < count && n < HEAD_BYTES; i++) n += out[out.push(lineAt(i)) - 1].length + 1;
  return out;
}

/** The trace metrics of cycles [from, to] by the core's collector, in slices like buildSliced. */
export async function statsSliced(count: number, lineAt: (i: number) => string, window: { from?: number; to?: number }, s: Slicing): Promise<TraceStats> {
  const c = new MetricsCollector(window);
  await eachLineSliced(count, lineAt, s, (l) => c.addLine(l));
  return c.finish();
}
