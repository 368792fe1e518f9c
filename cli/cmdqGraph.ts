import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CmdqDocument } from '../core/cmdq/document';
import { analyzeGraph } from '../core/cmdq/graph/analysis';
import { costModelOf, DEFAULT_COST_MODEL } from '../core/cmdq/graph/cost';
import { graphDot } from '../core/cmdq/graph/dot';
import { graphJson, graphText } from '../core/cmdq/graph/report';
import { escapeControl } from '../core/common/escape';
import { MAX_DOCUMENT_BYTES } from './check';

export const CMDQ_GRAPH_USAGE = '  npu-trace cmdq-graph [--json | --dot] [--dma-bytes-per-cycle N] [--te-macs-per-cycle N] [--ve-elements-per-cycle N] <queue.cmdq.json>\n';

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
      options: { json: { type: 'boolean' }, dot: { type: 'boolean' }, 'dma-bytes-per-cycle': { type: 'string' }, 'te-macs-per-cycle': { type: 'string' }, 've-elements-per-cycle': { type: 'string' } },
    });
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) return usage(positionals.length ? 'give exactly one file' : 'no file given');
  if (v.json && v.dot) return usage('give --json or --dot, not both');
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
  const body = v.dot ? graphDot(p.entries, doc.graph, a) : v.json ? `${JSON.stringify(graphJson(p.entries, a, model))}\n` : graphText(file, p.entries, a, model);
  process.stdout.write(body);
  return 0;
}
