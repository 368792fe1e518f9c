import { escapeControl } from '../common/escape';
import type { Analysis } from './analysis';
import { pythonJson } from './pyjson';
import { runJson, templateInputs, type ReportOptions, type TemplateInputs } from './report';
import { textTable } from './textTable';

/** Which numbers a view shows (the reference parser's `--total-times` and `--per-execution`). */
export interface NnapiViewKind {
  totalTimes: boolean;
  perExecution: boolean;
}

/** The four views the reference parser offers, in the order the editor's summary shows them. */
export const NNAPI_VIEWS: readonly NnapiViewKind[] = [
  { totalTimes: false, perExecution: false },
  { totalTimes: true, perExecution: false },
  { totalTimes: false, perExecution: true },
  { totalTimes: true, perExecution: true },
];

export interface NnapiRunView extends NnapiViewKind {
  /** `template_inputs` of the reference (ms); missing is NaN, null once sent as JSON (which has no NaN). */
  values: Record<string, number | null>;
  hasCpu: boolean;
}

/** A run of a systrace and its numbers: the CLI's summary, the editor's request and its document. */
export interface NnapiRun {
  index: number;
  /** Text of the run's `[NN_LA_PO]` mark, '' when the trace has none. */
  startingMark: string;
  /** 0-based row of that mark, -1 when the trace has none. */
  startLine: number;
  complete: boolean;
  /** Nesting violations in the run (the reference would refuse it). */
  violations: number;
  hasWarmupAndBenchmark: boolean;
  executionCounts: { PO: number; PWU: number; PBM: number };
  /** The views asked for; none for a run without numbers (an incomplete one). */
  views: NnapiRunView[];
}

export const INCOMPLETE = 'Incomplete trace, not able to print all statistics';

/** Every run with its numbers in the views asked for (all four unless one is named). */
export function summarize(a: Analysis, only?: ReportOptions): NnapiRun[] {
  const kinds = only ? [{ totalTimes: !!only.totalTimes, perExecution: !!only.perExecution }] : NNAPI_VIEWS;
  return a.runs.map(({ run, aggregate, violations }) => ({
    index: run.index,
    startingMark: run.startingMark,
    startLine: run.startLine,
    complete: run.complete,
    violations,
    hasWarmupAndBenchmark: aggregate?.hasWarmupAndBenchmark ?? false,
    executionCounts: aggregate?.executionCounts ?? { PO: 0, PWU: 0, PBM: 0 },
    views: aggregate ? kinds.map((k) => {
      const { values, hasCpu } = templateInputs(aggregate, k);
      return { ...k, values, hasCpu };
    }) : [],
  }));
}

/** The text table of one view of a run (a value missing on the wire, null, is NaN again). */
export function viewTable(r: NnapiRun, v: NnapiRunView): string[] {
  const values: TemplateInputs = {};
  for (const [k, x] of Object.entries(v.values)) values[k] = x ?? Number.NaN;
  const { totalTimes, perExecution } = v;
  return textTable(values, v.hasCpu, { totalTimes, perExecution, benchmarkOnly: r.hasWarmupAndBenchmark && perExecution });
}

const INT_KEYS = new Set(['execution_counts', 'version']);

/** The `--json` output: an array with one object per complete run, printed like the reference. */
export function summaryJson(a: Analysis, opts: ReportOptions): string {
  const objs = a.runs.filter((r) => r.aggregate).map((r) => pythonJson(runJson(r.aggregate!, r.run.startingMark, opts), (path) => INT_KEYS.has(path[0])));
  return `[\n${objs.join('\n,\n')}\n]\n`;
}

/**
 * The text output: per run its starting mark and the table of its (first) view, or the reference's
 * message when it has none. The mark is the file's text: its control characters are shown
 * escaped, not sent to the terminal.
 */
export function summaryText(runs: readonly NnapiRun[]): string {
  const out: string[] = [];
  for (const r of runs) {
    const v = r.views[0];
    if (!v) {
      out.push(escapeControl(r.startingMark || '(trace)'), INCOMPLETE, '');
      continue;
    }
    out.push(escapeControl(r.startingMark), ...viewTable(r, v));
  }
  return out.join('\n') + '\n';
}
