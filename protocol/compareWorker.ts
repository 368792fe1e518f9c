import type { DiffResult } from '../core/diff/types';
import type { JobStep } from './job';

/**
 * What the editor's comparison worker (dist/compareWorker.js, node/workers/compareWorker.ts) is
 * asked: two runs of one format to read and compare (its workerData). The host has checked that
 * both files are of `format`.
 */
export interface CompareJob {
  a: string;
  b: string;
  format: string;
  /** Only the comparison over every kind (the Summary against a baseline): `byKind` comes back empty. */
  allOnly?: boolean;
}

/** Bytes of both files read so far, of `total`. */
export interface CompareProgress {
  bytes: number;
  total: number;
}

/**
 * The comparison over every kind the format gives (`all`, as `npu-trace diff` without `--by`) and
 * over each kind alone (as `--by <kind>`: the correction then runs over that kind's groups only).
 */
export interface CompareResults {
  all: DiffResult;
  byKind: Record<string, DiffResult>;
  /** What the readers skipped or capped, per file. */
  notes: string[];
}

export type CompareWorkerMessage = { progress: CompareProgress } | { result: CompareResults } | { error: string };

/** Which of the worker's messages is progress, the result or a failure (node/jobs/runJob.ts). */
export function readCompareMessage(m: CompareWorkerMessage): JobStep<CompareProgress, CompareResults> {
  if ('progress' in m) return { progress: m.progress };
  return 'result' in m ? { result: m.result } : { error: new Error(m.error) };
}
