import type { LayerTimes, PhaseTimes, Times } from '../../nnapi/aggregate';
import type { Analysis } from '../../nnapi/analysis';
import { summarize } from '../../nnapi/summary';
import { ROW_GROUP_ROWS, Table, type RowGroupSink } from './table';

/** Missing (NaN) is null: a reader must not sum it as a number. */
const ms = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);

/**
 * The `nnapi_runs` and `nnapi_scopes` tables of an analysed systrace: the runs as `summarize`
 * gives them, and every cell of the `times` and `self_times` that `core/nnapi/aggregate.ts`
 * computed for a complete run (rules §6), never derived again here. Returns the rows per table.
 */
export function nnapiRows(a: Analysis, run: string, sink: RowGroupSink, groupRows = ROW_GROUP_ROWS): { nnapi_runs: number; nnapi_scopes: number } {
  const runs = new Table('nnapi_runs', sink, groupRows);
  const scopes = new Table('nnapi_scopes', sink, groupRows);
  let nScopes = 0;
  const summary = summarize(a, {});
  a.runs.forEach((r, k) => {
    const s = summary[k];
    const c = s.executionCounts;
    runs.add([run, s.index + 1, s.startingMark, s.startLine >= 0 ? BigInt(s.startLine + 1) : null, s.complete, s.violations, s.hasWarmupAndBenchmark, c.PO, c.PWU, c.PBM]);
    const agg = r.aggregate;
    if (!agg) return;
    const cells = (appPhase: string | null, tot: Times | PhaseTimes, self: Times | PhaseTimes) => {
      for (const [phase, layers] of Object.entries(tot)) {
        if (phase === 'PWU' || phase === 'PBM') continue;
        const selfLayers = self[phase] as LayerTimes;
        for (const [layer, t] of Object.entries(layers as LayerTimes)) {
          scopes.add([run, s.index + 1, s.startingMark, appPhase, phase, layer, ms(t), ms(selfLayers[layer])]);
          nScopes++;
        }
      }
    };
    cells(null, agg.times, agg.selfTimes);
    if (agg.hasWarmupAndBenchmark) for (const ap of ['PWU', 'PBM']) cells(ap, agg.times[ap] as PhaseTimes, agg.selfTimes[ap] as PhaseTimes);
  });
  runs.flush();
  scopes.flush();
  return { nnapi_runs: a.runs.length, nnapi_scopes: nScopes };
}
