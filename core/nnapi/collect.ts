import type { Diagnostic } from '../common/diagnostic';
import { range } from '../common/diagnostic';
import { RunBuilder } from './builder';
import { ChunkRowReader, looksLikeHtml, parseRowLine, type MarkRow, type RowLine } from './row';

/** Where the collector sends the mark rows of the text trace, in order. */
export interface RowSink {
  row(r: MarkRow, line: number): void;
}

/**
 * Reads a trace's rows in order (rules §1–§2): takes the rows inside the text trace (the whole
 * file for plain text; from the header to the first `</script>` for HTML), resolves process ids,
 * learns which threads are tracked and which processes are drivers, and feeds each mark row to
 * the tree builder (or another sink). No row is kept.
 */
export class Collector {
  readonly builder: RunBuilder;
  readonly diagnostics: Diagnostic[] = [];
  /** Thread id → the process id of the row that made it tracked. */
  readonly tracked = new Map<string, string>();
  readonly driverTgids = new Set<string>();
  seenRuntime = false;
  private readonly lastTgid = new Map<string, string>();
  private setPid = '';
  private setTgid = '';
  private inTrace: boolean;
  private ended = false;

  private readonly sink: RowSink;

  /** `summaryOnly`: the builder keeps no scope for an editor (builder.ts, settle.ts). */
  constructor(readonly html: boolean, sink?: RowSink, summaryOnly = false) {
    this.builder = new RunBuilder(0, 0, summaryOnly);
    // Plain text is all trace; HTML only between the header and `</script>`.
    this.inTrace = !html;
    this.sink = sink ?? this.builder;
  }

  add(r: RowLine | undefined, line: number): void {
    if (!r || this.ended) return;
    if (r.kind === 'header') {
      this.inTrace = true;
      return;
    }
    if (!this.inTrace) return;
    if (r.kind === 'script-end') {
      if (this.html) this.ended = true;
      return;
    }
    if (r.kind === 'unparsed') {
      this.diagnostics.push({ range: range(line, r.start, r.end), severity: 'error', code: 'nnapi.unparsed-mark',
        message: `this row mentions '${r.mentions}' but is not a tracing_mark_write row the parser can read `
          + `(expected 'TASK-PID ( TGID) [CPU] FLAGS SECONDS.FRACTION: tracing_mark_write: B|<tgid>|<text>' or '... : E'); the reference parser aborts here. The row is skipped.` });
      return;
    }
    const row = r;
    // Process id (§1): the column, else `B|<tgid>|`, else the one last seen for the thread.
    let tgid = row.tgidColumn;
    if (tgid === undefined) {
      // Old rows: the tgid is in `B|<tgid>|`, or for an `E` the one last seen for the thread.
      tgid = row.mark.includes('|') ? row.mark.split('|')[1] : (this.lastTgid.get(row.pid) ?? '');
    }
    if (tgid === '-----' || tgid === '') {
      const m = /^[BE]\|(\d+)/.exec(row.mark);
      tgid = m ? m[1] : (this.lastTgid.get(row.pid) ?? '');
    }
    if (tgid && (row.pid !== this.setPid || tgid !== this.setTgid)) {
      // Rows of one thread come in bursts: set the map only when the pair changes.
      this.lastTgid.set(row.pid, tgid);
      this.setPid = row.pid;
      this.setTgid = tgid;
    }
    this.sink.row(row, line);
    const mark = row.mark;
    if (mark.includes('[NN')) {
      this.tracked.set(row.pid, tgid);
      if (mark.includes('NN_LR')) this.seenRuntime = true;
    }
    if (mark.includes('HIDL::IDevice') && mark.includes('::server')) {
      this.tracked.set(row.pid, tgid);
      this.driverTgids.add(tgid);
    }
  }
}

/**
 * A file's lines, in order, into a Collector made at the first line (which tells HTML from plain
 * text): as strings, or as ranges of decoded chunks (`forEachLineIn`). For the numbers and
 * problems only (`check`, `nnapi-stats`, the timeline's marks): the collector keeps no scope.
 */
export class SystraceStream {
  private c: Collector | undefined;
  private readonly reader = new ChunkRowReader();

  line(line: string, n: number): void {
    (this.c ??= new Collector(n === 0 && looksLikeHtml(line), undefined, true)).add(parseRowLine(line), n);
  }

  lineIn(text: string, start: number, end: number, n: number, chunk: number): void {
    (this.c ??= new Collector(n === 0 && looksLikeHtml(text.slice(start, end)), undefined, true)).add(this.reader.read(text, start, end, chunk), n);
  }

  /** What was collected (an empty collector for an empty stream). */
  get collector(): Collector {
    return this.c ?? new Collector(false, undefined, true);
  }
}
