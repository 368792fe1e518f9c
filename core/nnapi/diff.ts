import { GroupSet } from '../diff/groups';
import { KIND } from '../timeline/model';
import type { DiffLineCollector, DiffRun, DiffSupport } from '../diff/types';
import { analyze } from './analysis';
import { SystraceStream } from './collect';
import { LAYERS, NAMES } from './naming';
import { summarize } from './summary';

/** The timing summary's rows (layers, then the total) and columns (phases), as `nnapi-stats` prints them. */
const ROWS = [...LAYERS, 'LT'];
const COLUMNS = ['PI', 'PP', 'PC', 'PE', 'PIO', 'PEO', 'PR', 'PT', 'PO'];
const COLUMN_NAME: Record<string, string> = { ...NAMES, PEO: 'Execution other' };

/**
 * `npu-trace diff` of NNAPI systraces: the timing summary `nnapi-stats` prints (its default view:
 * self-times, whole runs, ms), one group per cell (`Runtime: Execution`), each complete run of the
 * file (each `[NN_LA_PO]` mark) one item. A file with one run gives the deltas, and a p-value only
 * where each file holds several runs. A cell the table shows as `-` (0) or `n/a` is no item.
 */
export class NnapiDiffCollector implements DiffLineCollector {
  private readonly stream = new SystraceStream();

  add(line: string, lineNo: number): void {
    // The reader numbers rows from 0, as the editor does; a run's lines are 1-based.
    this.stream.line(line, lineNo - 1);
  }

  finish(): DiffRun {
    const runs = summarize(analyze(this.stream.collector), { totalTimes: false, perExecution: false });
    const rows = new GroupSet('row');
    let span = 0;
    for (const run of runs) {
      const v = run.views[0]?.values;
      if (!run.complete || !v) continue;
      const line = run.startLine >= 0 ? run.startLine + 1 : undefined;
      for (const l of ROWS) {
        for (const p of COLUMNS) {
          const x = v[`${l}_${p}`];
          if (typeof x === 'number' && Number.isFinite(x) && x !== 0) rows.add(`${NAMES[l]}: ${COLUMN_NAME[p]}`, x, line);
        }
      }
      const overall = v.LT_PO;
      if (typeof overall === 'number' && Number.isFinite(overall)) span += overall;
    }
    return { unit: 'ms', span: runs.length ? span : null, groups: rows.list(), metrics: [] };
  }
}

export const nnapiDiff: DiffSupport = {
  kinds: ['row'],
  lines: () => new NnapiDiffCollector(),
  // Each run, numbered in time order: the slices of `[NN_LA_PO]` marks (phase PO of layer LA in the
  // timeline's attributes), where `nnapi-stats` starts a run.
  markers: [{ label: 'run', key: 'rank', kinds: [KIND.slice], where: [{ attr: 'phase', value: 'PO' }, { attr: 'layer_id', value: 'LA' }] }],
};
