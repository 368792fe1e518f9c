import type { Analysis } from './analysis';
import { summarize, type NnapiRun, type NnapiRunView } from './summary';
import { MAX_FORMAT_ROWS, MAX_FORMAT_TABLES, numCell, textCell, type FormatTable } from '../timeline/formatTables';

/** The rows of the timing summary, as the text table labels them (`textTable.ts`). */
const LAYER_ROWS = [['Application', 'LA'], ['Runtime', 'LR'], ['IPC', 'LI'], ['Driver', 'LD'], ['CPU', 'LC'], ['Total', 'LT']] as const;
/** Its columns: the template input's phase suffix and the header the text table prints. */
const PHASES = [['Initialization', 'PI'], ['Preparation', 'PP'], ['Compilation', 'PC'], ['I/O', 'PIO'], ['Compute', 'PEO'],
  ['Results', 'PR'], ['Ex. total', 'PE'], ['Termination', 'PT'], ['Total', 'PO']] as const;

function runName(r: NnapiRun): string {
  return `Run ${r.index + 1}${r.startingMark ? ` (${textCell(r.startingMark)})` : ''}`;
}

/** One view of a run as `npu-trace nnapi-stats` prints it: layers × phases in ms (no CPU row when CPU has no time, as there). */
function viewTable(r: NnapiRun, v: NnapiRunView): FormatTable {
  const kind = v.totalTimes ? 'times' : 'self-times';
  return {
    id: `run${r.index + 1}-${kind}`,
    title: `${runName(r)}: NNAPI timing summary (${v.totalTimes ? 'total time' : 'self-times'}, ms wall-clock)`,
    columns: [{ label: 'layer', kind: 'text' }, ...PHASES.map(([label]) => ({ label: `${label} ms`, kind: 'int' as const }))],
    rows: LAYER_ROWS.filter(([, l]) => v.hasCpu || l !== 'LC').map(([label, l]) => [label, ...PHASES.map(([, p]) => numCell(v.values[`${l}_${p}`] ?? Number.NaN))]),
  };
}

/**
 * The Summary tables of a systrace: every run's execution counts, then each complete run's
 * layer × phase times and self-times (the numbers of `npu-trace nnapi-stats` and its
 * `--total-times`), capped in runs and rows.
 */
export function nnapiSummaryTables(a: Analysis): FormatTable[] {
  const runs = summarize(a).slice(0, MAX_FORMAT_ROWS);
  const counts: FormatTable = {
    id: 'runs',
    title: 'Runs and execution counts',
    columns: [{ label: 'run', kind: 'text' }, { label: 'complete', kind: 'text' }, { label: 'executions (PO)', kind: 'int' },
      { label: 'warm-up (PWU)', kind: 'int' }, { label: 'benchmark (PBM)', kind: 'int' }, { label: 'nesting violations', kind: 'int' }],
    rows: runs.map((r) => [runName(r), r.complete ? 'yes' : 'no', r.executionCounts.PO, r.executionCounts.PWU, r.executionCounts.PBM, r.violations]),
  };
  const tables = [counts];
  for (const r of runs) {
    // Self-times first, as `nnapi-stats` prints them without options; per-execution views are its other options.
    for (const v of r.views) if (!v.perExecution && tables.length < MAX_FORMAT_TABLES) tables.push(viewTable(r, v));
  }
  return tables;
}
