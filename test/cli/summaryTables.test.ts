/**
 * The Summary tables the NNAPI and InferScope timeline builders put on their models: the numbers
 * of `npu-trace nnapi-stats --json` (and `--total-times`) and `npu-trace analyze --json` on the
 * same example files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { splitLines } from '../../core/common/lines';
import { buildTimeline, timelineBuilderOf } from '../../core/detectFormat';
import { nnapiFormat } from '../../core/nnapi/descriptor';
import type { FormatTable } from '../../core/timeline/formatTables';
import { validFormatTables } from '../../protocol/timeline';
import { ROOT, runCli } from './run';

function tablesOf(file: string): FormatTable[] {
  const m = buildTimeline(file, splitLines(readFileSync(join(ROOT, file), 'utf8')))!;
  assert.ok(m.summaryTables, 'the complete model carries its tables');
  assert.ok(validFormatTables(m.summaryTables), 'and the page accepts them');
  return m.summaryTables;
}

const PHASES = ['PI', 'PP', 'PC', 'PIO', 'PEO', 'PR', 'PE', 'PT', 'PO'];
const LAYERS: Record<string, string> = { Application: 'LA', Runtime: 'LR', IPC: 'LI', Driver: 'LD', CPU: 'LC', Total: 'LT' };

test('NNAPI: per run the layer × phase times and self-times and the execution counts of nnapi-stats', async () => {
  const file = 'examples/nnapi-mobilenet.systrace';
  const tables = tablesOf(file);
  const self = JSON.parse((await runCli(['nnapi-stats', '--json', file])).stdout) as { starting_mark: string; template_inputs: Record<string, number | null>; execution_counts: Record<string, number> }[];
  const total = JSON.parse((await runCli(['nnapi-stats', '--json', '--total-times', file])).stdout) as typeof self;
  assert.ok(self.length > 0);
  const runs = tables.find((t) => t.id === 'runs')!;
  const complete = runs.rows.filter((r) => r[1] === 'yes');
  assert.equal(complete.length, self.length, 'one row per run, the complete ones as nnapi-stats lists them');
  self.forEach((run, i) => {
    const row = complete[i];
    assert.ok(String(row[0]).includes(run.starting_mark));
    assert.deepEqual(row.slice(2, 5), [run.execution_counts.PO, run.execution_counts.PWU, run.execution_counts.PBM]);
    const n = /^Run (\d+)/.exec(String(row[0]))![1];
    for (const [kind, json] of [['self-times', run], ['times', total[i]]] as const) {
      const t = tables.find((x) => x.id === `run${n}-${kind}`)!;
      assert.ok(t, `run ${n}'s ${kind}`);
      assert.ok(t.rows.length >= 5);
      for (const r of t.rows) {
        const l = LAYERS[r[0] as string];
        assert.deepEqual(r.slice(1), PHASES.map((p) => json.template_inputs[`${l}_${p}`]), `${kind} ${String(r[0])}`);
      }
    }
  });
});

test('InferScope: the bottleneck, totals, categories and findings of analyze --json', async () => {
  const file = 'examples/llm-requests.inferscope.json';
  const tables = tablesOf(file);
  const a = JSON.parse((await runCli(['analyze', '--json', file])).stdout) as {
    summary: Record<string, number>; bottleneck: { type: string; confidence: number };
    timeline_breakdown: { category: string; duration_us: number; percentage: number }[];
    suggestions: { priority: string; action: string; estimated_improvement_percent: number }[];
  };
  const by = (id: string) => tables.find((t) => t.id === id)!;
  assert.deepEqual(by('bottleneck').rows[0].slice(0, 3), [a.bottleneck.type, String(by('bottleneck').rows[0][1]), a.bottleneck.confidence]);
  assert.deepEqual(by('totals').rows.map((r) => r[1]), ['end_to_end_latency_us', 'total_cpu_time_us', 'total_gpu_time_us', 'total_h2d_us', 'total_d2h_us', 'total_idle_us', 'framework_overhead_us'].map((k) => a.summary[k]));
  assert.deepEqual(by('categories').rows.map((r) => r.slice(0, 3)), a.timeline_breakdown.map((e) => [e.category, e.duration_us, e.percentage / 100]));
  assert.ok(a.suggestions.length > 0, 'the example has findings');
  assert.deepEqual(by('findings').rows.map((r) => [r[0], r[1], r[3]]), a.suggestions.map((s) => [s.priority, s.action, s.estimated_improvement_percent]));
});

test('a preview carries no tables (they are of the whole file)', () => {
  const file = 'examples/nnapi-mobilenet.systrace';
  const builder = nnapiFormat.timeline!();
  splitLines(readFileSync(join(ROOT, file), 'utf8')).forEach((l, i) => builder.addLine(l, i));
  assert.equal(builder.finish(true).summaryTables, undefined);
  assert.ok(builder.finish().summaryTables);
});

test('an export (metrics: false) builds no tables', () => {
  for (const file of ['examples/nnapi-mobilenet.systrace', 'examples/llm-requests.inferscope.json']) {
    const b = timelineBuilderOf(file, '', { metrics: false })!;
    splitLines(readFileSync(join(ROOT, file), 'utf8')).forEach((l, i) => b.addLine(l, i));
    assert.equal(b.finish().summaryTables, undefined, file);
  }
});
