import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CmdqDocument } from '../core/cmdq/document';
import { analyzeGraph } from '../core/cmdq/graph/analysis';
import { costModelOf, DEFAULT_COST_MODEL } from '../core/cmdq/graph/cost';
import { graphDot } from '../core/cmdq/graph/dot';
import { joinLayers, type LayerJoin } from '../core/cmdq/graph/join';
import { graphJson, graphText, joinText } from '../core/cmdq/graph/report';
import { escapeControl } from '../core/common/escape';
import { MAX_DOCUMENT_BYTES } from './check';
import { statsOfFile } from '../node/io/statsOfFile';
import { SyncSink } from '../node/io/syncSink';

export const CMDQ_GRAPH_USAGE = '  npu-trace cmdq-graph [--json | --dot] [--dma-bytes-per-cycle N] [--te-macs-per-cycle N] [--ve-elements-per-cycle N] [--trace TRACE [--layer-map MAP.json]] <queue.cmdq.json>\n';

const COST_FLAGS = { 'dma-bytes-per-cycle': 'dmaBytesPerCycle', 'te-macs-per-cycle': 'teMacsPerCycle', 've-elements-per-cycle': 'veElementsPerCycle' } as const;

function usage(msg: string): number {
  process.stderr.write(`npu-trace cmdq-graph: ${escapeControl(msg)}\nUsage:\n${CMDQ_GRAPH_USAGE}`);
  return 2;
}

/**
 * `npu-trace cmdq-graph`: the dependency graph of a CMDQ (README "Dependency graph"): levels,
 * critical path, per-engine load and a list-scheduled run as text, `--json`
 * (schemas/cmdq-graph.schema.json) or Graphviz `--dot`. Exit 0 with the result (a queue with
 * errors still gets one, with a note on stderr), 2 on unusable arguments or a file that is not a CMDQ.
 */
export async function cmdqGraph(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { json: { type: 'boolean' }, dot: { type: 'boolean' }, 'dma-bytes-per-cycle': { type: 'string' }, 'te-macs-per-cycle': { type: 'string' }, 've-elements-per-cycle': { type: 'string' }, trace: { type: 'string' }, 'layer-map': { type: 'string' } },
    });
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) return usage(positionals.length ? 'give exactly one file' : 'no file given');
  if (v.json && v.dot) return usage('give --json or --dot, not both');
  if (v['layer-map'] !== undefined && v.trace === undefined) return usage('--layer-map needs --trace');
  if (v.trace !== undefined && v.dot) return usage('--trace joins layers in the text or --json output, not --dot');
  let layerMap: Record<string, string> = {};
  if (v['layer-map'] !== undefined) {
    const m = readLayerMap(v['layer-map']);
    if (typeof m === 'string') return usage(m);
    layerMap = m;
  }
  if (v.trace !== undefined && !statSync(v.trace, { throwIfNoEntry: false })?.isFile()) return usage(`${v.trace}: no such file`);
  const costs: Record<string, number> = {};
  for (const [flag, key] of Object.entries(COST_FLAGS)) {
    const s = v[flag as keyof typeof COST_FLAGS];
    if (s === undefined) continue;
    const x = /^\d{1,12}(\.\d{1,6})?$/.test(s) ? Number(s) : NaN;
    if (!(x > 0)) return usage(`--${flag} must be a positive number, got ${s.slice(0, 40)}`);
    costs[key] = x;
  }
  const model = costModelOf({ ...DEFAULT_COST_MODEL, ...costs });
  const file = positionals[0];
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return usage(`${file}: no such file`);
  if (st.size > MAX_DOCUMENT_BYTES) {
    process.stderr.write(`npu-trace cmdq-graph: ${escapeControl(file)}: ${st.size} bytes is over the ${MAX_DOCUMENT_BYTES}-byte limit of a document read whole\n`);
    return 2;
  }
  const text = readFileSync(file, 'utf8');
  const doc = CmdqDocument.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const p = doc.parsed;
  if (p.rootKind !== 'object' || p.cmdqKind !== 'array') {
    process.stderr.write(`npu-trace cmdq-graph: ${escapeControl(file)}: not a CMDQ (no top-level "cmdq" array)\n`);
    return 2;
  }
  if (doc.capped({ severity: {}, maxProblems: 1 }).hasError) {
    process.stderr.write(`npu-trace cmdq-graph: ${escapeControl(file)} has errors (see npu-trace check); the graph uses what could be read\n`);
  }
  const a = analyzeGraph(p.entries, doc.graph, model);
  let join: { layers: LayerJoin[]; more: number } | undefined;
  if (v.trace !== undefined) join = joinLayers(p.entries, a, (await statsOfFile(v.trace)).layers, layerMap);
  if (v.dot) {
    // Streamed: a line at a time through a 1 MB buffer to stdout, never the whole text.
    const sink = new SyncSink('-', false);
    let shown;
    try {
      shown = graphDot(p.entries, doc.graph, a, (s) => sink.text(s));
    } finally {
      sink.close();
    }
    if (shown.nodesDrawn < shown.nodes || shown.edgesDrawn < shown.edges) {
      process.stderr.write(`npu-trace cmdq-graph: ${escapeControl(file)}: the DOT draws ${shown.nodesDrawn} of ${shown.nodes} entries and ${shown.edgesDrawn} of ${shown.edges} dependencies (said in its label); --json has them all\n`);
    }
    return 0;
  }
  const body = v.json ? `${JSON.stringify(join ? { ...graphJson(p.entries, a, model), join: { trace: v.trace, ...join } } : graphJson(p.entries, a, model))}\n`
      : graphText(file, p.entries, a, model) + (join ? joinText(v.trace!, join) : '');
  process.stdout.write(body);
  return 0;
}

/** `--layer-map`: a JSON object from CMDQ layer_id to the trace's layer_id (`{ "ffn_0": "3" }`; numbers allowed as values). */
function readLayerMap(file: string): Record<string, string> | string {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return `${file}: no such file`;
  if (st.size > 16 << 20) return `${file}: a layer map of ${st.size} bytes is not a layer map`;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return `${file}: not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${file}: the layer map must be a JSON object, e.g. { "ffn_0": "3" }`;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(raw)) {
    if (typeof x !== 'string' && typeof x !== 'number') return `${file}: the layer map's value for ${JSON.stringify(k.slice(0, 40))} must be a string or a number`;
    out[k] = String(x);
  }
  return out;
}
