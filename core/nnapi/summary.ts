import { escapeControl } from '../common/escape';
import type { Analysis, RunResult } from './analysis';
import { pythonJson } from './pyjson';
import { runJson, templateInputs, type ReportOptions, type RunJson } from './report';
import { textTable } from './textTable';

/** What identifies a run and whether it has numbers: shared by the CLI's summary and the editor's request. */
export interface RunHeader {
  index: number;
  /** Text of the run's `[NN_LA_PO]` mark, '' when the trace has none. */
  startingMark: string;
  /** 0-based row of that mark, -1 when the trace has none. */
  startLine: number;
  complete: boolean;
  /** Nesting violations in the run (the reference would refuse it). */
  violations: number;
}

export function runHeader({ run, violations }: RunResult): RunHeader {
  return { index: run.index, startingMark: run.startingMark, startLine: run.startLine, complete: run.complete, violations };
}

export interface RunSummary extends RunHeader {
  json?: RunJson;
  /** Text table lines (without the starting mark). */
  table?: string[];
}

export const INCOMPLETE = 'Incomplete trace, not able to print all statistics';

/** The summary of every run in one view (self or total times, all phases or per execution). */
export function summarize(a: Analysis, opts: ReportOptions): RunSummary[] {
  return a.runs.map((r) => {
    const { run, aggregate } = r;
    const base = runHeader(r);
    if (!aggregate) return base;
    const { values, hasCpu } = templateInputs(aggregate, opts);
    return {
      ...base,
      json: runJson(aggregate, run.startingMark, opts),
      table: textTable(values, hasCpu, { ...opts, benchmarkOnly: aggregate.hasWarmupAndBenchmark && opts.perExecution }),
    };
  });
}

const INT_KEYS = new Set(['execution_counts', 'version']);

/** The `--json` output: an array with one object per complete run, printed like the reference. */
export function summaryJson(runs: readonly RunSummary[]): string {
  const objs = runs.filter((r) => r.json).map((r) => pythonJson(r.json, (path) => INT_KEYS.has(path[0])));
  return `[\n${objs.join('\n,\n')}\n]\n`;
}

/**
 * The text output: per run its starting mark and table, or the reference's message when incomplete.
 * The mark is the file's text: its control characters are shown escaped, not sent to the terminal.
 */
export function summaryText(runs: readonly RunSummary[]): string {
  const out: string[] = [];
  for (const r of runs) {
    if (!r.table) {
      out.push(escapeControl(r.startingMark || '(trace)'), INCOMPLETE, '');
      continue;
    }
    out.push(escapeControl(r.startingMark), ...r.table);
  }
  return out.join('\n') + '\n';
}
