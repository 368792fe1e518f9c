import type { Diagnostic } from '../common/diagnostic';
import type { Analysis } from '../nnapi/analysis';
import { PerfettoMarks } from './nnapi';
import { PerfettoReader, type PerfettoSink, type ReaderOptions } from './reader';

const NONE: PerfettoSink = { slice() {}, instant() {}, lonelyEnd() {}, counter() {} };

export interface PerfettoResult {
  /** The reader's problems, then (when the trace has NNAPI marks) the NNAPI rules' own. */
  diagnostics: Diagnostic[];
  /** Problems left out by the reader's cap, and whether one was an error. */
  dropped: number;
  droppedError: boolean;
  /** The NNAPI analysis, when the trace has NNAPI marks (or `nnapi` asked for it anyway). */
  nnapi: Analysis | undefined;
}

/**
 * A whole protobuf trace read once: the reader's model into `sink` (a timeline, or nothing for a
 * check), and the atrace marks kept for the NNAPI rules, which apply when some mark is NNAPI's.
 */
export class PerfettoFile {
  readonly marks = new PerfettoMarks();
  readonly reader: PerfettoReader;

  constructor(sink: PerfettoSink = NONE, opts: ReaderOptions = {}) {
    const marks = this.marks;
    this.reader = new PerfettoReader({
      slice: sink.slice.bind(sink), instant: sink.instant.bind(sink), lonelyEnd: sink.lonelyEnd.bind(sink), counter: sink.counter.bind(sink),
      print: (ev, text, tgid, task) => {
        marks.print(ev, text);
        sink.print?.(ev, text, tgid, task);
      },
    }, opts);
  }

  feed(chunk: Uint8Array): void {
    this.reader.feed(chunk);
  }

  /** `nnapi`: run the NNAPI rules even without NNAPI marks (`nnapi-stats`, which reports their absence). */
  end(opts: { nnapi?: boolean } = {}): PerfettoResult {
    const r = this.reader.end();
    const nnapi = opts.nnapi || this.marks.hasNnapi ? this.marks.analyze(this.reader.tgidOf, this.reader.threadNames) : undefined;
    return { diagnostics: nnapi ? r.diagnostics.concat(nnapi.diagnostics) : r.diagnostics, dropped: r.dropped, droppedError: r.droppedError, nnapi };
  }
}

/** Reads bytes already in memory (tests, the editor's buffer) in one go. */
export function readPerfettoBytes(bytes: Uint8Array, sink?: PerfettoSink, opts: ReaderOptions & { nnapi?: boolean } = {}): PerfettoResult & { file: PerfettoFile } {
  const f = new PerfettoFile(sink, opts);
  f.feed(bytes);
  return { ...f.end(opts), file: f };
}
