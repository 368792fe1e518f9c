// The graph panel's worker (dist/cmdqGraphWorker.js) as the panel runs it: text in, view model and entry ranges out.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { GraphWorkerReply, GraphWorkerRequest } from '../../../protocol/cmdqGraphWorker';
import { defaultDiagnosticSettings } from '../../../core/common/settings';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/cmdqGraphWorker.js');

/**
 * Runs the worker to its end: the graph first (its model without problems: the checks run after
 * the first paint), then the problems, returned as one reply with the problems in the model.
 */
function run(req: GraphWorkerRequest): Promise<GraphWorkerReply> {
  assert.ok(existsSync(WORKER), `${WORKER} is missing: run npm run build first`);
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { workerData: req });
    let done: GraphWorkerReply | undefined;
    w.on('message', (m: GraphWorkerReply) => {
      if (m.kind === 'done') {
        assert.deepEqual(m.model.problems, [], 'the graph comes before its problems');
        done = m;
        return;
      }
      void w.terminate();
      if (m.kind === 'error') return resolve(m);
      assert.ok(done?.kind === 'done', 'problems come after the graph');
      resolve({ ...done, model: { ...done.model, problems: m.problems } });
    });
    w.once('error', reject);
  });
}

test('entry ranges are offsets into the editor text (a BOM included), problems sit on their entries, settings apply', async () => {
  const golden = readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8');
  // Entry 3 waits for itself too: a self-dep, and with it entry 3, 4 and END are blocked.
  const text = '\ufeff' + golden.replace('"deps_before": [2],', '"deps_before": [2, 3],');
  const r = await run({ text, cost: { teMacsPerCycle: 2048 }, diagnostics: defaultDiagnosticSettings });
  assert.equal(r.kind, 'done');
  if (r.kind !== 'done') return;
  assert.equal(r.starts.length, 6);
  for (let i = 0; i < 6; i++) {
    assert.equal(text[r.starts[i]], '{');
    assert.equal(text[r.ends[i] - 1], '}');
    assert.match(text.slice(r.starts[i], r.ends[i]), new RegExp(`"id": ${i},`));
  }
  assert.equal(r.model.cost[2], 128, 'the cost setting reached the model');
  assert.deepEqual(r.model.problems.map((p) => [p.index, p.code]), [[3, 'cmdq.self-dep']]);
  assert.equal(r.model.blocked, 3);
  const off = await run({ text, cost: {}, diagnostics: { ...defaultDiagnosticSettings, severity: { 'cmdq.self-dep': 'off' } } });
  assert.deepEqual(off.kind === 'done' && off.model.problems, [], 'a code turned off is not drawn');
});

test('a file that is not a CMDQ gets a message, not a throw', async () => {
  assert.deepEqual(await run({ text: '[1, 2]', cost: {}, diagnostics: defaultDiagnosticSettings }), { kind: 'error', message: 'Not a CMDQ: the file has no top-level "cmdq" array (yet).' });
});

test('with the trace layers the server measured, the model carries the join (layer map applied, names cut)', async () => {
  const golden = readFileSync(join(ROOT, 'examples/golden.cmdq.json'), 'utf8');
  const stat = { layer_id: '7', commands: 2, latency_sum_cycles: 900, span_cycles: 900, p50_cycles: null, p95_cycles: null, max_cycles: null, te_busy_cycles: 500, ve_busy_cycles: 0, engine_busy_cycles: 500, dma_busy_cycles: 100, te_share: null, ve_share: null, dma_share: null, longest: [] };
  const r = await run({ text: golden, cost: {}, diagnostics: defaultDiagnosticSettings, trace: { name: 'x'.repeat(500), layers: [stat], layerMap: { ffn_0_ln: '7' } } });
  assert.equal(r.kind, 'done');
  if (r.kind !== 'done') return;
  assert.equal(r.model.join?.trace, `${'x'.repeat(120)}…`);
  assert.deepEqual(r.model.join?.layers.map((l) => [l.layer, l.traceLayer, l.measured?.span ?? null, l.ratio]), [['ffn_0', null, null, null], ['ffn_0_ln', '7', 900, 14.06]]);
  const none = await run({ text: golden, cost: {}, diagnostics: defaultDiagnosticSettings });
  assert.equal(none.kind === 'done' && none.model.join, undefined);
});
