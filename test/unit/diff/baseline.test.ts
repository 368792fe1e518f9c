// The Summary against a pinned baseline (docs/diff.md): what rows it shows of a comparison, what
// its messages carry, and the comparison worker's run for it (dist/compareWorker.js, `npm run build`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { baselineDiff, MAX_BASELINE_ROWS } from '../../../core/diff/baseline';
import { diffRows } from '../../../core/diff/rows';
import type { DiffResult, GroupDiff } from '../../../core/diff/types';
import { traceDiff } from '../../../core/trace/diff';
import { runJob } from '../../../node/jobs/runJob';
import { readCompareMessage } from '../../../protocol/compareWorker';
import { parseHostMessage, parseWebviewMessage } from '../../../protocol/timeline';
import { baselineGroupTable, baselineHeadline, baselineMetricTable } from '../../../webview/baselineTables';
import { formatCell } from '../../../webview/summaryTables';
import { PLANTED_PAIR, traceLines } from '../../gen/genTrace';
import { compare, runOfLines } from './helpers';

// The pair of test/unit/diff/trace.test.ts: 600 commands, MLP 1.5× slower in B (the run shown); A is the baseline.
const linesA = [...traceLines(PLANTED_PAIR.base)];
const linesB = [...traceLines(PLANTED_PAIR.slower)];
const result = compare(runOfLines(traceDiff, linesA), runOfLines(traceDiff, linesB), 'npu-trace');

/** A comparison of `n` made-up groups, none significant. */
function many(n: number): DiffResult {
  const stats = { count: 1, total: 1, mean: 1, p50: 1, p95: 1 };
  const groups: GroupDiff[] = Array.from({ length: n }, (_x, i) => ({
    kind: 'layer', key: `L${i}`, a: stats, b: { ...stats, total: 1 + i }, delta: { total: i, mean: i }, rel: { total: i, mean: i },
    p_value: null, significant: false, reported: false, line: null,
  }));
  return { ...result, groups, regressions: groups.slice(1), improvements: [] };
}

describe('the Summary against a pinned baseline: its rows', () => {
  const d = baselineDiff(result);

  it('are the Diff view\'s rows, in its order: the planted phase first, the only one reported', () => {
    assert.deepEqual(d.rows, diffRows(result).map((r) => r.group));
    assert.equal(`${d.rows[0].kind}:${d.rows[0].key}`, 'phase:MLP');
    assert.equal(d.groups, result.groups.length);
    assert.equal(d.regressions, result.regressions.filter((g) => g.reported).length);
    assert.ok(d.regressions >= 1);
    assert.equal(d.improvements, 0);
    assert.deepEqual(d.metrics, result.metrics);
    assert.deepEqual([d.a, d.b, d.run], [result.a, result.b, result.run]);
  });

  it('are at most 2 000, the largest added time first, and say how many there were', () => {
    const big = baselineDiff(many(MAX_BASELINE_ROWS + 500));
    assert.equal(big.rows.length, MAX_BASELINE_ROWS);
    assert.equal(big.groups, MAX_BASELINE_ROWS + 500);
    assert.equal(big.rows[0].key, `L${MAX_BASELINE_ROWS + 499}`);
    assert.match(baselineHeadline(big), /^0 regressions and 0 improvements reported of 2,500 groups; the first 2000 are listed/);
    assert.equal(baselineDiff(result, 3).rows.length, 3);
  });

  it('as the Summary\'s table: group, kind, the baseline\'s and this run\'s totals, Δ, Δ %, significance, Δ mean %, p, count', () => {
    const t = baselineGroupTable(d, { phase: 'phase', layer: 'layer_id' });
    assert.deepEqual(t.columns.map((c) => c.label), ['group', 'kind', 'baseline total', 'total', 'Δ total', 'Δ total %', 'significant', 'Δ mean %', 'p (adj.)', 'count']);
    const mlp = d.rows[0];
    assert.deepEqual(t.rows[0], ['MLP', 'phase', mlp.a.total, mlp.b.total, mlp.delta.total, mlp.rel.total, 'yes (reported)', mlp.rel.mean, mlp.p_value, mlp.b.count]);
    assert.equal(t.rowClasses![0], 'reported slower');
    assert.ok(t.rows.slice(1).every((r) => r[1] !== 'phase' || r[6] !== 'yes (reported)'), 'no other phase reported');
    // A phase's or layer's name filters the timeline by it; a command type's or engine's has no attribute.
    assert.deepEqual(t.targets[0], { kind: 'group', attr: 'phase', value: 'MLP' });
    const byKind = (k: string) => t.targets[d.rows.findIndex((g) => g.kind === k)];
    assert.deepEqual(byKind('layer'), { kind: 'group', attr: 'layer_id', value: d.rows.find((g) => g.kind === 'layer')!.key });
    assert.equal(byKind('cmd_type'), undefined);
    assert.equal(byKind('engine'), undefined);
    assert.equal(t.records[0], mlp);
    // As drawn: signed deltas, the p-value in two digits.
    assert.equal(formatCell(t.rows[0][4], t.columns[4].kind), `+${mlp.delta.total.toLocaleString('en-US')}`);
    assert.equal(formatCell(t.rows[0][5], t.columns[5].kind), `+${(100 * mlp.rel.total!).toFixed(1)}%`);
    assert.equal(formatCell(-0.25, 'spct'), '-25.0%');
    assert.equal(formatCell(0.000123456, 'p'), '0.00012');
    assert.match(baselineHeadline(d), /^\d+ regressions? and 0 improvements reported of \d+ groups · span \+[\d,]+ cycles \(\+\d+\.\d%\)$/);
  });

  it('shows names from the file as text with controls escaped, and filters by the name as it is', () => {
    const g = { ...d.rows[0], key: 'MLP\u202e\u0007' };
    const t = baselineGroupTable({ ...d, rows: [g] }, { phase: 'phase' });
    assert.equal(t.rows[0][0], 'MLP\\u202e\\x07');
    assert.deepEqual(t.targets[0], { kind: 'group', attr: 'phase', value: 'MLP\u202e\u0007' });
    // An own property only: a kind named like an Object method is not an attribute.
    assert.equal(baselineGroupTable({ ...d, rows: [{ ...g, kind: 'toString' }] }, {}).targets[0], undefined);
  });

  it('the run-level figures with the baseline\'s and this run\'s values', () => {
    const t = baselineMetricTable(d);
    assert.equal(t.rows.length, d.metrics.length);
    assert.ok(t.rows.length > 0);
    assert.deepEqual(t.columns.map((c) => c.label), ['figure', 'unit', 'baseline', 'this run', 'Δ', 'Δ %']);
    // A ratio in percent (its change would round to 0 in two decimals), other units as they are.
    const i = d.metrics.findIndex((m) => m.key === 'SRAM conflict rate');
    const m = d.metrics[i];
    assert.equal(m.unit, 'ratio');
    assert.deepEqual(t.rows[i].slice(1, 5), ['%', ...[m.a, m.b, m.delta].map((x) => Math.round(x! * 1e6) / 1e4)]);
    assert.notEqual(formatCell(t.rows[i][4], t.columns[4].kind), '0');
    const bw = d.metrics.findIndex((x) => x.unit !== 'ratio');
    assert.deepEqual(t.rows[bw].slice(1, 3), [d.metrics[bw].unit, Math.round(d.metrics[bw].a! * 1e4) / 1e4]);
  });
});

describe('the Summary against a pinned baseline: its messages', () => {
  const d = baselineDiff(result);

  it('the page asks, pins and unpins with no arguments taken from it', () => {
    for (const type of ['baseline', 'pinBaseline', 'clearBaseline']) assert.deepEqual(parseWebviewMessage({ type, path: '/etc/passwd' }), { type });
  });

  it('the host\'s answer is checked: rows at most 2 000, every group well formed, attributes known', () => {
    const ok = { type: 'baselineDiff', name: 'base.trace.jsonl', message: '', diff: d, attrs: { phase: 'phase' } };
    assert.deepEqual(parseHostMessage(ok), ok);
    assert.deepEqual(parseHostMessage({ ...ok, diff: null, message: 'The pinned baseline base.trace.jsonl no longer exists' }), { ...ok, diff: null, message: 'The pinned baseline base.trace.jsonl no longer exists' });
    const tooMany = baselineDiff(many(MAX_BASELINE_ROWS + 1), MAX_BASELINE_ROWS + 1);
    for (const bad of [
      { ...ok, diff: tooMany }, { ...ok, diff: { ...d, rows: [{ ...d.rows[0], key: 7 }] } }, { ...ok, diff: { ...d, groups: -1 } },
      { ...ok, diff: { ...d, run: { span_delta: 'x', span_rel: null } } }, { ...ok, attrs: { phase: 'nope' } }, { ...ok, name: 3 },
    ]) assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad).slice(0, 100));
    assert.deepEqual(parseHostMessage({ type: 'baselinePinned', name: 'a.trace.jsonl', self: false }), { type: 'baselinePinned', name: 'a.trace.jsonl', self: false });
    assert.equal(parseHostMessage({ type: 'baselinePinned', name: 'a', self: 'no' }), undefined);
  });
});

describe('the comparison worker, for the Summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('compares every kind only (`allOnly`), as `npu-trace diff --json` without --by', async () => {
    const a = join(dir, 'base.trace.jsonl');
    const b = join(dir, 'new.trace.jsonl');
    writeFileSync(a, `${linesA.join('\n')}\n`);
    writeFileSync(b, `${linesB.join('\n')}\n`);
    const r = await runJob(join(resolve(__dirname, '../../..'), 'dist/compareWorker.js'), { a, b, format: 'npu-trace', allOnly: true }, { read: readCompareMessage, name: 'the comparison worker' });
    assert.deepEqual(r.byKind, {});
    assert.deepEqual(baselineDiff(r.all).rows.map((g) => `${g.kind}:${g.key}`), d().rows.map((g) => `${g.kind}:${g.key}`));
  });
  const d = () => baselineDiff(result);
});
