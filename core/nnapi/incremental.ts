import type { Diagnostic } from '../common/diagnostic';
import { analyzeRun, noRuntimeDiagnostic, type Analysis, type RunResult } from './analysis';
import { RunBuilder } from './builder';
import { Collector, type RowSink } from './collect';
import { LineMap, RangedLineMaps } from './lineMap';
import type { MarkRow, RowLine } from './row';
import type { Scope } from './scope';

/** The mark rows of one run (rules §2: a run starts at each `[NN_LA_PO]` mark but the first). */
interface Segment {
  rows: MarkRow[];
  lines: number[];
}

/** Splits the mark rows into runs exactly where `RunBuilder` starts a new one. */
class Segmenter implements RowSink {
  readonly segments: Segment[] = [{ rows: [], lines: [] }];
  private first = true;

  row(r: MarkRow, line: number): void {
    if (r.mark.includes('[NN_LA_PO]')) {
      if (!this.first) this.segments.push({ rows: [], lines: [] });
      this.first = false;
    }
    const s = this.segments[this.segments.length - 1];
    s.rows.push(r);
    s.lines.push(line);
  }
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
 * The editor's analysis, rebuilt run by run. Reading the rows (which threads are tracked, which
 * processes are drivers, unparsed rows) is a cheap pass over the cached rows; building trees,
 * rewriting, validating and the numbers are the cost, and a run's result depends only on its own
 * mark rows at their lines and on the tracked threads and driver processes. So a run whose rows
 * are the very same row objects at the same lines, under the same tracking, is reused as it was.
 * An edit inside a run rebuilds that run; inserting or deleting lines rebuilds the runs below it
 * (their line numbers moved).
 */
export class IncrementalAnalysis {
  private byFirstLine = new Map<number, RunEntry>();

  /** `rowAt(i)`: the row line `i` holds (the document's cached parse), for `count` lines. */
  analyze(count: number, rowAt: (i: number) => RowLine | undefined, html: boolean): Analysis {
    const seg = new Segmenter();
    const c = new Collector(html, seg);
    for (let i = 0; i < count; i++) c.add(rowAt(i), i);
    const context = contextKey(c.tracked, c.driverTgids);
    const next = new Map<number, RunEntry>();
    const entries: RunEntry[] = [];
    seg.segments.forEach((s, index) => {
      const from = s.lines.length ? s.lines[0] : 0;
      const old = this.byFirstLine.get(from);
      const e = old && old.result.run.index === index && old.context === context && sameRows(old, s) ? old : build(s, index, from, context, c);
      next.set(from, e);
      entries.push(e);
    });
    this.byFirstLine = next;
    const diagnostics: Diagnostic[] = [...c.diagnostics];
    for (const e of entries) diagnostics.push(...e.built);
    for (const e of entries) diagnostics.push(...e.violations);
    if (!c.seenRuntime) diagnostics.push(noRuntimeDiagnostic());
    const from = (e: RunEntry) => (e.lines.length ? e.lines[0] : 0);
    return {
      runs: entries.map((e) => e.result),
      diagnostics,
      opened: new RangedLineMaps(entries.map((e) => ({ from: from(e), map: e.opened }))),
      closed: new RangedLineMaps(entries.map((e) => ({ from: from(e), map: e.closed }))),
      noRuntime: !c.seenRuntime,
    };
  }
}

function build(s: Segment, index: number, from: number, context: string, c: Collector): RunEntry {
  const b = new RunBuilder(index, from);
  for (let i = 0; i < s.rows.length; i++) b.row(s.rows[i], s.lines[i]);
  const built = b.finish(c.tracked, c.driverTgids);
  const { result, diagnostics } = analyzeRun(built.runs[0]);
  return { ...s, context, result, built: built.diagnostics, violations: diagnostics, opened: built.opened, closed: built.closed };
}

function sameRows(a: Segment, b: Segment): boolean {
  if (a.rows.length !== b.rows.length) return false;
  for (let i = 0; i < a.rows.length; i++) if (a.rows[i] !== b.rows[i] || a.lines[i] !== b.lines[i]) return false;
  return true;
}

function contextKey(tracked: ReadonlyMap<string, string>, drivers: ReadonlySet<string>): string {
  return JSON.stringify([[...tracked].sort(), [...drivers].sort()]);
}
