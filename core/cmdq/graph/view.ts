import { clip } from '../../common/clip';
import type { CmdqGraph } from '../graph';
import type { CmdqEntry } from '../model';
import type { EngineLoad, GraphAnalysis } from './analysis';
import type { LayerJoin } from './join';
import type { GraphProblem } from './problems';
import { opcodeClass, type OpcodeClass } from './palette';

/** Distinct opcode and layer names sent to the view; past these an entry shows `…` (a file can name a million). */
export const MAX_VIEW_NAMES = 100_000;

/**
 * What the graph view draws, by entry index, as typed-array columns and short strings: it crosses
 * from the worker to the host to the page, and typed arrays cross as buffers (transferred from the
 * worker, copied in one piece to the page) where 100k-element arrays of numbers were cloned number
 * by number. Times are cycles; -1 where an entry is blocked (level -1). Edges go from a dep to the
 * entry that waits for it.
 */
export interface GraphViewModel {
  n: number;
  level: Int32Array;
  cls: OpcodeClass[];
  /** Index into `opcodes` / `layers`, -1 for none. */
  opcode: Int32Array;
  layer: Int32Array;
  opcodes: string[];
  layers: string[];
  /** Index into `engines` of the unit each entry runs on, -1 for none (END). */
  engine: Int32Array;
  engines: string[];
  cost: Float64Array;
  earliestStart: Float64Array;
  slack: Float64Array;
  start: Float64Array;
  criticalPath: number[];
  criticalLength: number;
  makespan: number;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  load: EngineLoad[];
  blocked: number;
  cycleCount: number;
  /** The checker's problems on entries and edges (as the editor shows them, so the first maxProblems). */
  problems: GraphProblem[];
  /** Estimated vs measured per layer, when a trace is joined (README "Join with a trace"). */
  join?: GraphJoin;
}

/** The layers joined with a trace, names cut for the page (it sets them as text). */
export interface GraphJoin {
  trace: string;
  layers: LayerJoin[];
  /** Entries of layers past MAX_JOIN_LAYERS, not joined. */
  more: number;
  /** Why no layer was measured although a trace is open. */
  note?: string;
}

/** The join as the page gets it: every name from a file cut to a label. */
export function graphJoin(trace: string, j: { layers: LayerJoin[]; more: number }, note?: string): GraphJoin {
  return { trace: clip(trace, 120), more: j.more, ...(note ? { note: clip(note, 300) } : {}), layers: j.layers.map((l) => ({ ...l, layer: clip(l.layer, 80), traceLayer: l.traceLayer === null ? null : clip(l.traceLayer, 80) })) };
}

function namer(): { names: string[]; index(s: string | null | undefined): number } {
  const ids = new Map<string, number>();
  const names: string[] = [];
  return {
    names,
    index(s) {
      if (typeof s !== 'string') return -1;
      const id = ids.get(s);
      if (id !== undefined) return id;
      if (names.length >= MAX_VIEW_NAMES) return -1;
      ids.set(s, names.length);
      // The page shows names as text (never HTML); cut so one 10 MB name stays a label.
      return names.push(clip(s, 80)) - 1;
    },
  };
}

export function graphViewModel(entries: readonly CmdqEntry[], g: CmdqGraph, a: GraphAnalysis, problems: GraphViewModel['problems'] = []): GraphViewModel {
  const ops = namer(), layers = namer();
  // Copies: the analysis keeps its own columns, and these are transferred (detached) by the worker.
  const t = (x: Float64Array): Float64Array => x.map((v) => (Number.isNaN(v) ? -1 : v));
  let edges = 0;
  for (let d = 0; d < a.n; d++) edges += g.dependentCount(d);
  const edgeFrom = new Int32Array(edges), edgeTo = new Int32Array(edges);
  for (let d = 0, k = 0; d < a.n; d++) {
    for (const i of g.dependents(d)) {
      edgeFrom[k] = d;
      edgeTo[k++] = i;
    }
  }
  const n = a.n, cls = new Array<OpcodeClass>(n), opcode = new Int32Array(n), layer = new Int32Array(n);
  // The class of each distinct opcode, classified once (a queue names a handful of opcodes).
  const clsOf: OpcodeClass[] = [];
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const k = (opcode[i] = ops.index(e.opcode));
    cls[i] = k < 0 ? opcodeClass(e.opcode) : (clsOf[k] ??= opcodeClass(e.opcode));
    layer[i] = layers.index(e.layerId);
  }
  return {
    n,
    level: a.level.slice(),
    cls,
    opcode,
    layer,
    opcodes: ops.names,
    layers: layers.names,
    engine: a.engineOf.slice(),
    engines: a.engines,
    cost: a.cost.slice(),
    earliestStart: t(a.earliestStart),
    slack: t(a.slack),
    start: t(a.start),
    criticalPath: a.criticalPath,
    criticalLength: a.criticalLength,
    makespan: a.makespan,
    edgeFrom, edgeTo,
    load: a.load,
    blocked: a.blocked,
    cycleCount: a.cycleCount,
    problems,
  };
}

/** The buffers of a model's columns, for `postMessage`'s transfer list (each column owns its buffer). */
export function graphViewBuffers(m: GraphViewModel): ArrayBuffer[] {
  return [m.level, m.opcode, m.layer, m.engine, m.cost, m.earliestStart, m.slack, m.start, m.edgeFrom, m.edgeTo].map((c) => c.buffer as ArrayBuffer);
}
