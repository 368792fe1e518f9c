// The graph view model's typed-array columns (core/cmdq/graph/view.ts): what the worker transfers
// to the host and the host posts to the page must carry the analysis' values, and moving them must
// leave the analysis (and the document's graph) intact.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { CmdqDocument } from '../../../core/cmdq/document';
import { analyzeGraph } from '../../../core/cmdq/graph/analysis';
import { DEFAULT_COST_MODEL } from '../../../core/cmdq/graph/cost';
import { graphViewBuffers, graphViewModel, type GraphViewModel } from '../../../core/cmdq/graph/view';

const ROOT = resolve(__dirname, '../../..');
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

function analyzed(text: string) {
  const doc = CmdqDocument.parse(text);
  const a = analyzeGraph(doc.parsed.entries, doc.graph, DEFAULT_COST_MODEL);
  return { doc, a, model: graphViewModel(doc.parsed.entries, doc.graph, a) };
}

/** Through a MessagePort with the columns in the transfer list, as the worker posts them. */
function transferred(m: GraphViewModel): GraphViewModel {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(m, graphViewBuffers(m));
  const got = receiveMessageOnPort(port2)?.message as GraphViewModel;
  port1.close();
  return got;
}

test('the columns are typed arrays with the analysis values (blocked entries -1) and survive a transfer unchanged', () => {
  const golden = readFileSync(resolve(ROOT, 'examples/golden.cmdq.json'), 'utf8');
  // Entry 3 waits for itself: 3, 4 and END are blocked (NaN times in the analysis, -1 in the view).
  const { a, doc, model } = analyzed(golden.replace('"deps_before": [2],', '"deps_before": [2, 3],'));
  const edges: number[][] = [];
  for (let d = 0; d < a.n; d++) for (const i of doc.graph.dependents(d)) edges.push([d, i]);
  assert.ok(edges.some(([d, i]) => d === 3 && i === 3), 'the self-dep is an edge');
  assert.equal(a.blocked, 3);
  const expect = {
    level: arr(a.level), engine: arr(a.engineOf), cost: arr(a.cost),
    earliestStart: arr(a.earliestStart).map((v) => (Number.isNaN(v) ? -1 : v)),
    slack: arr(a.slack).map((v) => (Number.isNaN(v) ? -1 : v)),
    start: arr(a.start).map((v) => (Number.isNaN(v) ? -1 : v)),
  };
  assert.ok(expect.start.includes(-1) && expect.start.some((v) => v > 0), 'the fixture has blocked and scheduled entries');
  const got = transferred(model);
  assert.equal(model.level.byteLength, 0, 'the columns were moved, not copied');
  for (const k of ['level', 'opcode', 'layer', 'engine', 'edgeFrom', 'edgeTo'] as const) assert.ok(got[k] instanceof Int32Array, k);
  for (const k of ['cost', 'earliestStart', 'slack', 'start'] as const) assert.ok(got[k] instanceof Float64Array, k);
  for (const [k, v] of Object.entries(expect)) assert.deepEqual(arr(got[k as keyof typeof expect]), v, k);
  assert.deepEqual(arr(got.edgeFrom).map((f, k) => [f, got.edgeTo[k]]), edges);
  assert.equal(got.n, a.n);
  assert.deepEqual(got.criticalPath, a.criticalPath);
  // The analysis keeps its own arrays: moving the view's did not detach them.
  assert.equal(a.level.length, a.n);
  assert.equal(a.cost.length, a.n);
});

test('every column owns its buffer (one transfer list entry each, none shared with the analysis)', () => {
  const { a, doc, model } = analyzed(readFileSync(resolve(ROOT, 'examples/golden.cmdq.json'), 'utf8'));
  const buffers = graphViewBuffers(model);
  assert.equal(new Set(buffers).size, buffers.length);
  for (const b of [a.level, a.engineOf, a.cost, a.earliestStart, a.slack, a.start, doc.graph.rev, doc.graph.targets]) assert.ok(!buffers.includes(b.buffer as ArrayBuffer));
});
