import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonFloat } from '../../../core/nnapi/pyjson';
import { summarize, summaryJson, summaryText } from '../../../core/nnapi/summary';
import { fixed2 } from '../../../core/nnapi/textTable';
import { analyzeText, near } from './helpers';
import { benchmarkTrace } from './traces';
import { thread, trace } from './traceBuilder';

describe('nnapi report: JSON v1', () => {
  it('has the reference shape: sorted keys, times/self_times/execution_counts/template_inputs/version/starting_mark, null for missing', () => {
    const out = summaryJson(analyzeText(benchmarkTrace()).analysis, {});
    const arr = JSON.parse(out) as Record<string, unknown>[];
    assert.equal(arr.length, 2);
    const o = arr[0];
    assert.deepEqual(Object.keys(o), ['execution_counts', 'self_times', 'starting_mark', 'template_inputs', 'times', 'version']);
    assert.equal(o.version, 1);
    assert.equal(o.starting_mark, 'B|100|[NN_LA_PO]bench_model');
    assert.deepEqual(o.execution_counts, { PBM: 2, PO: 0, PWU: 1 });
    const times = o.times as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(times), ['PBM', 'PC', 'PCO', 'PE', 'PI', 'PIO', 'PO', 'PP', 'PR', 'PT', 'PTR', 'PWU']);
    assert.deepEqual(Object.keys(times.PBM), ['PCO', 'PE', 'PIO', 'PR', 'PTR']);
    assert.deepEqual(Object.keys(times.PC), ['LA', 'LC', 'LD', 'LI', 'LR', 'LT']);
    assert.equal(times.PC.LA, null, 'missing is null');
    // Python writes floats with a fraction: 0.0, not 0.
    assert.match(out, /"LC": 0\.0,/);
    assert.match(out, /"PBM": 2,/);
    const ti = o.template_inputs as Record<string, number | null>;
    assert.equal(Object.keys(ti).length, 7 * 6 + 6 + 6 + 5);
    // Self-times (see contract.test.ts): PE LR 17, LA 9 → LR_PEp = 17·100/26.
    near(ti.LR_PE!, 17, 'LR_PE');
    near(ti.LA_PE!, 9, 'LA_PE');
    near(ti.LR_PEp!, 6538.4615 / 100, 'LR_PEp');
    near(ti.LR_PEO!, 17, 'LR_PEO = PE − PIO − PR');
    assert.equal(ti.LA_PEO, null, 'LA PIO is missing, so is LA PEO');
  });

  it('--per-execution with warm-up and benchmark shows the benchmark, divided by its count', () => {
    // Benchmark self PE: LR 11, LA 6, LT 17; count 2 → LR 5.5, LA 3, LT 8.5. PEp before dividing: LR 11·100/17.
    const [r] = JSON.parse(summaryJson(analyzeText(benchmarkTrace()).analysis, { perExecution: true })) as { template_inputs: Record<string, number>; self_times: Record<string, Record<string, number>> }[];
    near(r.template_inputs.LR_PE, 5.5, 'LR_PE');
    near(r.template_inputs.LA_PE, 3, 'LA_PE');
    near(r.template_inputs.LT_PE, 8.5, 'LT_PE');
    near(r.template_inputs.LR_PEp, (11 * 100) / 17, 'LR_PEp');
    // As in the reference, the JSON's self_times PE now hold the benchmark's values.
    near(r.self_times.PE.LR, 11, 'self_times.PE.LR');
    // --total-times: benchmark totals LR 11, LA 17 → per execution 5.5 and 8.5.
    const [t] = JSON.parse(summaryJson(analyzeText(benchmarkTrace()).analysis, { perExecution: true, totalTimes: true })) as { template_inputs: Record<string, number> }[];
    near(t.template_inputs.LA_PE, 8.5, 'total LA_PE');
  });

  it('omits incomplete runs', () => {
    const a = analyzeText(trace(thread([[0, '[NN_LR_PP]open']]))).analysis;
    const s = summarize(a, {});
    assert.equal(s[0].complete, false);
    assert.deepEqual(JSON.parse(summaryJson(a, {})), []);
    assert.match(summaryText(s), /Incomplete trace, not able to print all statistics/);
  });

  it('formats floats like Python', () => {
    assert.equal(pythonFloat(3), '3.0');
    assert.equal(pythonFloat(0.1 + 0.2), '0.30000000000000004');
    assert.equal(pythonFloat(1e-5), '1e-05');
    assert.equal(pythonFloat(1.5e16), '1.5e+16');
    assert.equal(pythonFloat(0.0001), '0.0001');
    assert.equal(pythonFloat(Number.NaN), 'null');
  });
});

describe('nnapi report: text table', () => {
  it('shows - for 0, n/a for missing, totals with *, and hides an empty CPU row', () => {
    const text = summaryText(summarize(analyzeText(trace(thread([[0, '[NN_LA_PO]app'], [10, '[NN_LR_PP]funcP'], [13, 'E'], [20, 'E']]))).analysis, {}));
    const lines = text.split('\n');
    assert.equal(lines[0], 'B|100|[NN_LA_PO]app');
    const rt = lines.find((l) => l.startsWith('Runtime'))!;
    assert.deepEqual(rt.trim().split(/\s+/), ['Runtime', '-', '3.00', '-', '-', '-', '-', '-', '-', '3.00']);
    const app = lines.find((l) => l.startsWith('Application'))!;
    assert.deepEqual(app.trim().split(/\s+/), ['Application', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', '17.00*']);
    assert.ok(!lines.some((l) => l.startsWith('CPU')), 'no CPU time, no CPU row');
    assert.match(text, /NNAPI timing summary \(self-times, ms wall-clock\)/);
    const total = lines.find((l) => l.startsWith('Total'))!;
    assert.match(total, /20\.00\*$/);
  });

  it('per-execution view titles the benchmark and shows percentages', () => {
    const text = summaryText(summarize(analyzeText(benchmarkTrace()).analysis, { perExecution: true, totalTimes: true }));
    assert.match(text, /NNAPI timing summary \(total time, ms wall-clock\) +Benchmark/);
    const rt = text.split('\n').find((l) => l.startsWith('Runtime'))!;
    // total LR PE benchmark 11 / 2 = 5.50; 11·100/17 = 64.71 %
    assert.deepEqual(rt.trim().split(/\s+/), ['Runtime', '-', '5.50', '-', '5.50', '64.71%']);
  });

  it('rounds like Python format (half to even on exact ties)', () => {
    assert.equal(fixed2(0.125), '0.12');
    assert.equal(fixed2(0.375), '0.38');
    assert.equal(fixed2(2.675), '2.67');
    assert.equal(fixed2(Number.NaN), 'nan');
  });
});
