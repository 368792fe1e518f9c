import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { benjaminiHochberg, erfc, mannWhitneyU } from '../../../core/diff/mannWhitney';
import { compareRuns, gateFailures, sampleStats } from '../../../core/diff/compare';
import type { DiffRun } from '../../../core/diff/types';

// Reference values from SciPy 1.17 (scipy.stats.mannwhitneyu, false_discovery_control).
const close = (x: number | null, y: number, tol = 1e-6) => assert.ok(x !== null && Math.abs(x - y) <= tol * Math.max(1, Math.abs(y)), `${x} ≉ ${y}`);

describe('Mann–Whitney U', () => {
  it('is exact for small samples without ties', () => {
    const r = mannWhitneyU([1, 2, 3], [4, 5, 6]);
    assert.equal(r.u, 0);
    close(r.p, 0.1);
    close(mannWhitneyU([1, 5, 9, 12, 13, 20], [2, 3, 4, 6, 7, 8, 30]).p, 0.4452214452214452);
  });

  it('uses the normal approximation with tie and continuity corrections past them', () => {
    const a = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 7, 8, 9, 9, 9, 10, 11, 12, 12, 13, 14, 15, 15, 16, 17, 18, 19, 20, 21];
    const r = mannWhitneyU(a, a.map((x) => x + 3));
    assert.equal(r.u, 324.5);
    close(r.p, 0.06426049497646066, 1e-5);
  });

  it('is symmetric, 1 for equal samples, null for an empty one', () => {
    const a = [5, 1, 9, 3, 3, 8, 2, 7, 7, 6, 4, 1, 0, 2, 11, 12, 13, 4, 5, 6, 7, 8];
    const b = [9, 9, 10, 3, 8, 15, 2, 17, 7, 6, 14, 11, 0, 2, 19, 12, 13, 4, 5, 6, 7, 8];
    assert.equal(mannWhitneyU(a, b).p, mannWhitneyU(b, a).p);
    assert.equal(mannWhitneyU([4, 4, 4], [4, 4]).p, 1);
    assert.equal(mannWhitneyU([], [1]).p, null);
  });

  it('erfc matches known values', () => {
    close(erfc(0), 1);
    close(erfc(1), 0.157299207050285, 1e-6);
    close(erfc(-1), 1.842700792949715, 1e-6);
  });
});

describe('Benjamini–Hochberg', () => {
  it('adjusts as SciPy does and keeps nulls out of the count', () => {
    const adj = benjaminiHochberg([0.01, 0.04, null, 0.03, 0.2, 0.5]);
    [0.05, 0.0666666667, null, 0.0666666667, 0.25, 0.5].forEach((v, i) => (v === null ? assert.equal(adj[i], null) : close(adj[i], v)));
  });
});

describe('compareRuns', () => {
  const run = (groups: Record<string, number[]>, span = 1000): DiffRun => ({
    unit: 'cycles', span, metrics: [{ key: 'util', value: 0.5, unit: 'ratio' }],
    groups: Object.entries(groups).map(([key, durations], i) => ({ kind: 'phase', key, durations, firstLine: i + 1 })),
  });
  const seq = (n: number, base: number) => Array.from({ length: n }, (_, i) => base + (i % 10));

  it('reports a shifted group as a regression, first, and leaves the unchanged one out', () => {
    const a = run({ same: seq(50, 100), slow: seq(50, 100), fast: seq(50, 100) });
    const b = run({ same: seq(50, 100), slow: seq(50, 150), fast: seq(50, 60) }, 1200);
    const r = compareRuns({ file: 'a', format: 'f', run: a }, { file: 'b', format: 'f', run: b });
    assert.equal(r.regressions[0].key, 'slow');
    assert.ok(r.regressions[0].reported && r.regressions[0].significant);
    assert.equal(r.improvements[0].key, 'fast');
    const same = r.groups.find((g) => g.key === 'same')!;
    assert.equal(same.significant, false);
    assert.deepEqual(same.a, sampleStats(seq(50, 100)));
    assert.equal(r.regressions[0].line, 2);
    assert.equal(r.run.span_rel, 0.2);
    // The gate: slower by ~48% of its own time and the run by 20%.
    assert.deepEqual(gateFailures(r, 0.05).groups.map((g) => g.key), ['slow']);
    assert.equal(gateFailures(r, 0.6).groups.length, 0);
    assert.equal(gateFailures(r, 0.6).run, false);
    assert.equal(gateFailures(r, 0.1).run, true);
  });

  it('does not report a significant change below the minimum effect', () => {
    const a = run({ g: Array.from({ length: 5000 }, (_, i) => 1000 + (i % 100)) });
    const b = run({ g: Array.from({ length: 5000 }, (_, i) => 1010 + (i % 100)) });
    const g = compareRuns({ file: 'a', format: 'f', run: a }, { file: 'b', format: 'f', run: b }).groups[0];
    assert.ok(g.significant);
    assert.equal(g.reported, false);
  });

  it('keeps only the kinds asked for', () => {
    const a: DiffRun = { ...run({ x: [1, 2] }), groups: [{ kind: 'phase', key: 'x', durations: [1] }, { kind: 'layer', key: 'y', durations: [1] }] };
    assert.deepEqual(compareRuns({ file: 'a', format: 'f', run: a }, { file: 'b', format: 'f', run: a }, { kinds: ['layer'] }).groups.map((g) => g.kind), ['layer']);
  });

  it('p50 and p95 are nearest-rank, as stats gives them', () => {
    assert.deepEqual(sampleStats([4, 1, 3, 2]), { count: 4, total: 10, mean: 2.5, p50: 2, p95: 4 });
  });
});
