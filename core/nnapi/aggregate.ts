import type { Run } from './builder';
import { EXEC_SUBPHASES, LAYERS, MAIN_PHASES } from './naming';
import { threadExecutionCount, threadStat } from './threadTimes';

/** phase → layer → ms; NaN means missing (written as null). */
export type LayerTimes = Record<string, number>;
export type PhaseTimes = Record<string, LayerTimes>;
/** Top level: phases; with warm-up and benchmark also `PWU`/`PBM` → phase → layer. */
export type Times = Record<string, LayerTimes | PhaseTimes>;

export interface Aggregate {
  times: Times;
  selfTimes: Times;
  hasWarmupAndBenchmark: boolean;
  executionCounts: { PO: number; PWU: number; PBM: number };
}

const EXEC_AND_SUBPHASES = ['PE', ...EXEC_SUBPHASES];

function phaseAndSubphases(p: string): string[] {
  return p === 'PE' ? EXEC_AND_SUBPHASES : [p];
}

/** Application code may lack tracing, and the driver's execution subphases are not discernible: a zero there means missing. */
function zeroToMissing(t: number, phase: string, layer: string): number {
  if (t === 0 && (layer === 'LA' || (layer === 'LD' && (EXEC_SUBPHASES as readonly string[]).includes(phase)))) return Number.NaN;
  return t;
}

const nanToZero = (x: number) => (Number.isNaN(x) ? 0 : x);
const maxIgnoringMissing = (xs: number[]) => Math.max(...xs.map(nanToZero));

/** Totals and self-times over all threads of a complete run (rules §6). */
export function aggregateRun(run: Run): Aggregate {
  const threads = [...run.threads.values()];
  const counts = { PO: 0, PWU: 0, PBM: 0 };
  for (const ap of ['PO', 'PWU', 'PBM'] as const) {
    for (const t of threads) counts[ap] = Math.max(counts[ap], threadExecutionCount(t, ap));
  }
  const hasWB = counts.PWU > 0 && counts.PBM > 0;
  // Warm-up and benchmark scopes count only when both exist (the reference's behaviour).
  const appPhases = hasWB ? ['PO', 'PWU', 'PBM'] : ['PO'];

  const times: Times = {};
  const selfTimes: Times = {};
  const split = (ap: string, t: Times): PhaseTimes => t[ap] as PhaseTimes;
  if (hasWB) {
    for (const ap of ['PWU', 'PBM']) {
      times[ap] = {};
      selfTimes[ap] = {};
      for (const p of EXEC_AND_SUBPHASES) {
        split(ap, times)[p] = {};
        split(ap, selfTimes)[p] = {};
      }
    }
  }
  const flat = (t: Times, p: string): LayerTimes => t[p] as LayerTimes;
  for (const p of [...MAIN_PHASES, 'PO', ...EXEC_SUBPHASES]) {
    times[p] = {};
    selfTimes[p] = {};
  }

  for (const layer of LAYERS) {
    for (const phase0 of ['PO', ...MAIN_PHASES]) {
      for (const phase of phaseAndSubphases(phase0)) {
        let t = 0;
        for (const ap of appPhases) {
          let t0 = 0;
          if (layer === 'LD' && phase === 'PE') {
            // Drivers rarely trace themselves: from the HIDL execute server call to its callback, over all threads.
            const begins: number[] = [];
            const ends: number[] = [];
            for (const th of threads) {
              begins.push(...th.begins(ap, 'HIDL::IPreparedModel::execute::server'));
              ends.push(...th.begins(ap, 'HIDL::IExecutionCallback::notify::client'));
            }
            begins.sort((a, b) => a - b);
            ends.sort((a, b) => a - b);
            for (let i = 0; i < Math.min(begins.length, ends.length); i++) t0 += ends[i] - begins[i];
          } else {
            for (const th of threads) t0 += threadStat(th, `${layer}_${phase}`, ap);
          }
          if (phase0 === 'PE' && ap !== 'PO') split(ap, times)[phase][layer] = zeroToMissing(t0, phase, layer);
          t += t0;
        }
        flat(times, phase)[layer] = zeroToMissing(t, phase, layer);
      }
    }
    // Exactly zero (not missing): the overall time is the sum of the main phases.
    if (flat(times, 'PO')[layer] === 0) {
      flat(times, 'PO')[layer] = MAIN_PHASES.reduce((acc, p) => acc + nanToZero(flat(times, p)[layer]), 0);
    }
  }
  for (const phase0 of ['PO', ...MAIN_PHASES]) {
    for (const phase of phaseAndSubphases(phase0)) {
      flat(times, phase).LT = maxIgnoringMissing(Object.values(flat(times, phase)));
      if (phase0 === 'PE' && hasWB) {
        for (const ap of ['PWU', 'PBM']) split(ap, times)[phase].LT = maxIgnoringMissing(Object.values(split(ap, times)[phase]));
      }
    }
  }

  // The driver served only initialization, not execution: its overall time is not inside IPC's.
  const driverIdleInExecution = flat(times, 'PE').LD === 0;
  for (const phase0 of ['PO', ...MAIN_PHASES]) {
    for (const phase of phaseAndSubphases(phase0)) {
      selfTimesOf(flat(times, phase), flat(selfTimes, phase), phase === 'PO' && driverIdleInExecution);
      if (phase0 === 'PE' && hasWB) for (const ap of ['PWU', 'PBM']) selfTimesOf(split(ap, times)[phase], split(ap, selfTimes)[phase], false);
    }
  }
  return { times, selfTimes, hasWarmupAndBenchmark: hasWB, executionCounts: counts };
}

/**
 * Self-times of one phase from its totals (rules §6): walking the layers callee first, each
 * layer's time less its callee's total; missing stays missing, 0 stays 0. `driverApart`: the
 * driver's time is not inside IPC's (driver self = its total, IPC self = IPC − driver).
 */
function selfTimesOf(tot: LayerTimes, self: LayerTimes, driverApart: boolean): void {
  self.LT = tot.LT;
  let t = 0;
  for (const layer of [...LAYERS].reverse()) {
    const v = tot[layer];
    if (Number.isNaN(v)) self[layer] = Number.NaN;
    else if (v === 0) self[layer] = 0;
    else if (driverApart && (layer === 'LD' || layer === 'LI')) self[layer] = layer === 'LD' ? v : v - tot.LD;
    else {
      self[layer] = v - t;
      t = v;
    }
  }
}
