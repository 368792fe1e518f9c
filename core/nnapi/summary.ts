import { escapeControl } from '../common/escape';
import type { Analysis } from './analysis';
import { pythonJson } from './pyjson';
import { runJson, templateInputs, type ReportOptions, type RunJson } from './report';
import { textTable } from './textTable';

export interface RunSummary {
  index: number;
  startingMark: string;
  /** 0-based row of the run's `[NN_LA_PO]` mark, -1 when the trace has none. */
  startLine: number;
  complete: boolean;
  violations: number;
  json?: RunJson;
  /** Text table lines (without the starting mark). */
  table?: string[];
}

export const INCOMPLETE = 'Incomplete trace, not able to print all statistics';

/** The summary of every run in one view (self or total times, all phases or per execution). */
export function summarize(a: Analysis, opts: ReportOptions): RunSummary[] {
  return a.runs.map(({ run, aggregate, violations }) => {
    const base = { index: run.index, startingMark: run.startingMark, startLine: run.startLine, complete: run.complete, violations };
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
