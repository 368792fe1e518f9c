import type { CostModel } from '../core/cmdq/graph/cost';
import type { GraphProblem } from '../core/cmdq/graph/problems';
import type { GraphViewModel } from '../core/cmdq/graph/view';
import type { DiagnosticSettings } from '../core/common/settings';
import type { LayerStats } from '../core/trace/metrics/types';
import type { JobStep } from './job';

export interface GraphWorkerRequest {
  text: string;
  cost: Partial<Record<keyof CostModel, unknown>>;
  /** The editor's diagnostic settings, so the problems drawn are the ones the Problems panel lists. */
  diagnostics: DiagnosticSettings;
  /** The trace's layers as the server measured them (CmdqLayerTimesRequest), when one is open. */
  trace?: { name: string; layers: LayerStats[]; layerMap: Record<string, string>; note?: string };
}

/**
 * `starts` / `ends`: each entry's text range (UTF-16 offsets into the request's text), for editor ↔
 * node links; they and the model's columns are transferred, not cloned.
 * `done` comes first, with no problems, so the graph is drawn before the checks run; `problems`
 * follows with the checker's problems for that model.
 */
export type GraphWorkerReply =
  | { kind: 'done'; model: GraphViewModel; starts: Int32Array; ends: Int32Array }
  | { kind: 'problems'; problems: GraphProblem[] }
  | { kind: 'error'; message: string };

/** A failure the worker explains itself (not a CMDQ, the graph could not be computed): its message is shown as it is. */
export class GraphWorkerError extends Error {}

/** The graph drawn first (`done`), as progress; the problems that follow are the job's result (node/jobs/runJob.ts). */
export function readGraphReply(r: GraphWorkerReply): JobStep<Extract<GraphWorkerReply, { kind: 'done' }>, GraphProblem[]> {
  if (r.kind === 'done') return { progress: r };
  if (r.kind === 'problems') return { result: r.problems };
  return { error: new GraphWorkerError(r.message) };
}
