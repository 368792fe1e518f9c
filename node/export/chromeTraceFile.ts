import { timelineBuilderOf } from '../../core/detectFormat';
import { FORMATS } from '../../core/formats';
import type { FileHead } from '../../core/fileHead';
import { ChromeTraceExporter } from '../../core/export/chromeTrace';
import type { TimelineBuilder } from '../../core/timeline/builder';
import { SyncSink } from '../io/syncSink';

/** Feeds every line of the source to `add`, in order; called twice (two passes). */
export type EachLine = (add: (line: string, lineNo: number) => void) => Promise<void>;

type Decode = (b: Uint8Array, s: number, e: number) => string;
/**
 * The same lines as UTF-8 bytes where the reader can (`onText` for the others), for the writing
 * pass; `utf8`: the reader vouches that the line's bytes are well-formed UTF-8 (ReadOptions.utf8Chunks).
 */
export type EachLineBytes = (onBytes: (b: Uint8Array, s: number, e: number, lineNo: number, decode: Decode, utf8?: boolean) => void, onText: (line: string, lineNo: number) => void) => Promise<void>;

export class NoTimeline extends Error {}

export interface ExportRunOptions {
  /** The model pass reads `eachLineBytes` too (a builder that reads bytes parses no line); `eachLine` is then not called. */
  modelFromBytes?: boolean;
  /** Called after that pass (the CLI checks there that no line was too long). */
  afterModelPass?: () => void | Promise<void>;
  /** The file's head, to tell its format by (`detectFormat`); without it, its first line. */
  head?: string | FileHead;
  /** Filled in with what the export left out or changed, for the caller to report. */
  notes?: ExportNotes;
}

/** What an export could not write as it was in the source (counted, never silent). */
export interface ExportNotes {
  /** Lines with events whose bytes were not UTF-8: written with U+FFFD for each bad sequence. */
  invalidUtf8Lines: number;
  /** Events too large to read (a Chrome event over 16 MB): not in the output. */
  tooLargeEvents: number;
}

/**
 * The export shared by `npu-trace export` and the editor's command (run in the timeline worker):
 * a first pass builds the timeline model (the builder picked by `detectFormat`, as the timeline
 * does), a second writes the Chrome JSON to `out` ('-': stdout) while the lines come by.
 * Returns the bytes written.
 */
export async function exportChromeTrace(fileName: string, eachLine: EachLine, out: string, onPass?: (pass: 1 | 2) => void, eachLineBytes?: EachLineBytes, opts: ExportRunOptions = {}): Promise<number> {
  let builder: TimelineBuilder | undefined;
  onPass?.(1);
  const start = (l: string) => {
    const b = timelineBuilderOf(fileName, opts.head ?? l, { metrics: false });
    if (!b) throw new NoTimeline(`no timeline for this file type (expected one of: ${FORMATS.filter((f) => f.timeline).map((f) => f.displayName).join(', ')})`);
    return b;
  };
  if (opts.modelFromBytes && eachLineBytes) {
    await eachLineBytes((b, s, e, n, decode) => {
      builder ??= start(decode(b, s, e));
      if (builder.addLineBytes) builder.addLineBytes(b, s, e, n, decode);
      else builder.addLine(decode(b, s, e), n);
    }, (l, n) => (builder ??= start(l)).addLine(l, n));
    await opts.afterModelPass?.();
  } else {
    await eachLine((l, n) => (builder ??= start(l)).addLine(l, n));
  }
  if (!builder) throw new NoTimeline('the file is empty');
  const model = (builder as TimelineBuilder).finish();
  const exporter = new ChromeTraceExporter(model, { source: fileName });
  const sink = new SyncSink(out);
  try {
    onPass?.(2);
    sink.write(exporter.head());
    const onText = (l: string, n: number) => sink.text(exporter.line(l, n));
    if (eachLineBytes) await eachLineBytes((b, s, e, n, decode, utf8) => exporter.lineBytes(b, s, e, n, decode, sink, utf8), onText);
    else await eachLine(onText);
    sink.write(exporter.tail());
    if (opts.notes) {
      opts.notes.invalidUtf8Lines = exporter.invalidUtf8Lines;
      opts.notes.tooLargeEvents = model.tooLarge ?? 0;
    }
  } finally {
    sink.close();
  }
  return sink.bytesWritten;
}
