import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffRows } from '../../../core/diff/rows';
import { traceDiff } from '../../../core/trace/diff';
import { PLANTED_PAIR, traceLines } from '../../gen/genTrace';
import { compare, runOfLines } from './helpers';

// The Diff view's table: the pair of test/unit/diff/trace.test.ts (600 commands, MLP 1.5× slower in B).
describe("the Diff view's rows", () => {
  const a = runOfLines(traceDiff, traceLines(PLANTED_PAIR.base));
  const b = runOfLines(traceDiff, traceLines(PLANTED_PAIR.slower));

  it('the planted phase leads the phase table, the only reported one', () => {
    const rows = diffRows(compare(a, b, 'npu-trace', ['phase']));
    assert.equal(`${rows[0].group.kind}:${rows[0].group.key}`, 'phase:MLP');
    assert.ok(rows[0].group.reported && rows[0].group.significant);
    assert.deepEqual(rows.filter((r) => r.group.reported).map((r) => r.group.key), ['MLP']);
    assert.equal(rows[0].deltaBar, 1);
  });

  it('over every kind: reported, then significant, then the rest, each by added time, bars in 0–1', () => {
    const r = compare(a, b, 'npu-trace');
    const rows = diffRows(r);
    assert.equal(rows.length, r.groups.length);
    assert.equal(`${rows[0].group.kind}:${rows[0].group.key}`, 'phase:MLP');
    const tier = (g: (typeof rows)[number]['group']) => (g.reported ? 0 : g.significant ? 1 : 2);
    for (let i = 1; i < rows.length; i++) {
      const p = rows[i - 1].group, q = rows[i].group;
      assert.ok(tier(p) < tier(q) || (tier(p) === tier(q) && p.delta.total >= q.delta.total), `${p.key} before ${q.key}`);
    }
    for (const x of rows) for (const v of [x.deltaBar, x.aBar, x.bBar]) assert.ok(v >= 0 && v <= 1);
  });

  it('an empty comparison has no rows', () => {
    assert.deepEqual(diffRows(compare({ unit: 'cycles', span: null, groups: [], metrics: [] }, { unit: 'cycles', span: null, groups: [], metrics: [] }, 'npu-trace')), []);
  });
});
