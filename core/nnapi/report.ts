import type { Aggregate, LayerTimes, PhaseTimes, Times } from './aggregate';
import { LAYERS } from './naming';

export interface ReportOptions {
  totalTimes?: boolean;
  perExecution?: boolean;
}

/** The values the reference fills its table template with (`template_inputs`), rules §6. */
export type TemplateInputs = Record<string, number>;

const PICK = ['PI', 'PP', 'PC', 'PE', 'PT', 'PIO', 'PR'];
const ROWS = [...LAYERS, 'LT'];

function clone(t: Times): Times {
  return JSON.parse(JSON.stringify(t, (_k, v: unknown) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v)), (_k, v: unknown) => (v === 'NaN' ? Number.NaN : v)) as Times;
}

/**
 * The times a view shows and its template inputs. With per-execution and warm-up+benchmark, the
 * execution cells of the chosen times are replaced by the benchmark's — in the returned copy of
 * `times`/`self_times` too, as the reference's JSON shows them.
 */
export function templateInputs(agg: Aggregate, opts: ReportOptions): { values: TemplateInputs; times: Times; selfTimes: Times; hasCpu: boolean } {
  const times = clone(agg.times);
  const selfTimes = clone(agg.selfTimes);
  const use = opts.totalTimes ? times : selfTimes;
  const flat = (p: string): LayerTimes => use[p] as LayerTimes;
  if (agg.hasWarmupAndBenchmark && opts.perExecution) {
    const bm = use.PBM as PhaseTimes;
    for (const p of ['PE', 'PIO', 'PTR', 'PCO', 'PR']) for (const l of ROWS) flat(p)[l] = bm[p][l];
  }
  const values: TemplateInputs = {};
  let hasCpu = false;
  for (const l of LAYERS) {
    for (const p of PICK) {
      const t = flat(p)[l];
      values[`${l}_${p}`] = t;
      if (l === 'LC') hasCpu ||= t > 0;
    }
  }
  for (const p of PICK) values[`LT_${p}`] = flat(p).LT;
  for (const l of ROWS) {
    values[`${l}_PEO`] = values[`${l}_PE`] - values[`${l}_PIO`] - values[`${l}_PR`];
    values[`${l}_PO`] = flat('PO')[l];
  }
  for (const l of LAYERS) values[`${l}_PEp`] = values.LT_PE > 0 ? (values[`${l}_PE`] * 100) / values.LT_PE : Number.NaN;
  if (opts.perExecution) {
    const by = agg.hasWarmupAndBenchmark ? agg.executionCounts.PBM : agg.executionCounts.PO;
    for (const l of ROWS) {
      for (const p of ['PIO', 'PEO', 'PR', 'PE']) values[`${l}_${p}`] = by !== 0 ? values[`${l}_${p}`] / by : Number.NaN;
    }
  }
  return { values, times, selfTimes, hasCpu };
}

/** The machine-readable object of one run (`--json`, version 1). */
export interface RunJson {
  execution_counts: { PBM: number; PO: number; PWU: number };
  self_times: Times;
  starting_mark: string;
  template_inputs: TemplateInputs;
  times: Times;
  version: 1;
}

export function runJson(agg: Aggregate, startingMark: string, opts: ReportOptions): RunJson {
  const { values, times, selfTimes } = templateInputs(agg, opts);
  const c = agg.executionCounts;
  return { execution_counts: { PBM: c.PBM, PO: c.PO, PWU: c.PWU }, self_times: selfTimes, starting_mark: startingMark, template_inputs: values, times, version: 1 };
}
