import type { Diagnostic } from '../common/diagnostic';
import { analyzeRun, noRuntimeDiagnostic, type Analysis, type RunResult } from './analysis';
import { RunBoundaries, RunBuilder } from './builder';
import { Collector, type RowSink } from './collect';
import { LineMap, RangedLineMaps } from './lineMap';
import type { MarkRow, RowLine } from './row';
import type { Scope } from './scope';

/** The mark rows of one run (rules §2: a run starts at each `[NN_LA_PO]` mark but the first). */
interface Segment {
  rows: MarkRow[];
  lines: number[];
}

/** One run, built and analysed, with what it was built from. */
interface RunEntry extends Segment {
  /** Which threads count and which processes are drivers, when it was built. */
  context: string;
  result: RunResult;
  built: Diagnostic[];
  violations: Diagnostic[];
  opened: LineMap<Scope>;
  closed: LineMap<Scope>;
}

/**
 * Splits the mark rows into runs exactly where `RunBuilder` starts a new one, comparing each run's
 * rows with the same run's last time as they come: a run whose rows are the very same objects at
 * the same lines collects nothing and keeps its old entry (so an edit allocates only for the runs
 * it touched).
 */
class Segmenter implements RowSink {
  readonly segments: (Segment | RunEntry)[] = [];
  private readonly boundaries = new RunBoundaries();
  private old: RunEntry | undefined;
  private pos = 0;
  private fresh: Segment | undefined;

  constructor(private readonly previous: readonly RunEntry[]) {
    this.open(0);
  }

  row(r: MarkRow, line: number): void {
    if (this.boundaries.at(r.mark) === 'new') {
      this.close();
      this.open(this.segments.length);
    }
    if (!this.fresh) {
      const o = this.old;
      if (o && this.pos < o.rows.length && o.rows[this.pos] === r && o.lines[this.pos] === line) {
        this.pos++;
        return;
      }
      this.diverge();
    }
    this.fresh!.rows.push(r);
    this.fresh!.lines.push(line);
  }

  /** Ends the input: the segments, each an old entry to keep or rows to build. */
  finish(): (Segment | RunEntry)[] {
    this.close();
    return this.segments;
  }

  private open(index: number): void {
    this.old = this.previous[index];
    this.pos = 0;
    this.fresh = undefined;
  }

  private diverge(): void {
    const o = this.old;
    this.fresh = o ? { rows: o.rows.slice(0, this.pos), lines: o.lines.slice(0, this.pos) } : { rows: [], lines: [] };
  }

  private close(): void {
    if (!this.fresh && (!this.old || this.pos !== this.old.rows.length)) this.diverge();
    this.segments.push(this.fresh ?? this.old!);
  }
}

const isEntry = (s: Segment | RunEntry): s is RunEntry => 'result' in s;

/**
 * The editor's analysis, rebuilt run by run. Reading the rows (which threads are tracked, which
 * processes are drivers, unparsed rows) is a cheap pass over the cached rows; building trees,
 * rewriting, validating and the numbers are the cost, and a run's result depends only on its own
 * mark rows at their lines and on the tracked threads and driver processes. So a run whose rows
 * are the very same row objects at the same lines, under the same tracking, is reused as it was.
 * An edit inside a run rebuilds that run; inserting or deleting lines rebuilds the runs below it
 * (their line numbers moved).
 */
export class IncrementalAnalysis {
  private entries: RunEntry[] = [];

  /** `rowAt(i)`: the row line `i` holds (the document's cached parse), for `count` lines. */
  analyze(count: number, rowAt: (i: number) => RowLine | undefined, html: boolean): Analysis {
    const seg = new Segmenter(this.entries);
    const c = new Collector(html, seg);
    for (let i = 0; i < count; i++) c.add(rowAt(i), i);
    const context = contextKey(c.tracked, c.driverTgids);
    this.entries = seg.finish().map((s, index) => (isEntry(s) && s.context === context ? s : build(s, index, context, c)));
    const entries = this.entries;
    const diagnostics: Diagnostic[] = [...c.diagnostics];
    for (const e of entries) diagnostics.push(...e.built);
    for (const e of entries) diagnostics.push(...e.violations);
    if (!c.seenRuntime) diagnostics.push(noRuntimeDiagnostic());
    return {
      runs: entries.map((e) => e.result),
      diagnostics,
      opened: new RangedLineMaps(entries.map((e) => ({ from: firstLine(e), map: e.opened }))),
      closed: new RangedLineMaps(entries.map((e) => ({ from: firstLine(e), map: e.closed }))),
      noRuntime: !c.seenRuntime,
    };
  }
}

const firstLine = (s: Segment) => (s.lines.length ? s.lines[0] : 0);

function build(s: Segment, index: number, context: string, c: Collector): RunEntry {
  const b = new RunBuilder(index, firstLine(s));
  for (let i = 0; i < s.rows.length; i++) b.row(s.rows[i], s.lines[i]);
  const built = b.finish(c.tracked, c.driverTgids);
  const { result, diagnostics } = analyzeRun(built.runs[0]);
  return { rows: s.rows, lines: s.lines, context, result, built: built.diagnostics, violations: diagnostics, opened: built.opened, closed: built.closed };
}

function contextKey(tracked: ReadonlyMap<string, string>, drivers: ReadonlySet<string>): string {
  return JSON.stringify([[...tracked].sort(), [...drivers].sort()]);
}
