import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTimeline } from '../../../core/detectFormat';
import { pairProblem } from '../../../core/diff/pair';
import { FORMATS } from '../../../core/formats';
import { traceDiff } from '../../../core/trace/diff';
import { parseCompareHostMessage, parseComparePageMessage, parseDiffHostMessage, parseDiffPageMessage } from '../../../protocol/diff';
import { parseWebviewMessage } from '../../../protocol/timeline';
import { traceLines } from '../../gen/genTrace';
import { compare, runOfLines } from './helpers';

const fmt = (id: string) => FORMATS.find((f) => f.id === id)!;

describe("the comparison's messages and checks", () => {
  const lines = [...traceLines({ events: 1e7, commands: 60, seed: 1 })];
  const run = runOfLines(traceDiff, lines);
  const result = compare(run, run, 'npu-trace');

  it('the Diff view takes a comparison as `npu-trace diff --json` gives it, and nothing malformed', () => {
    const ok = { type: 'result', kinds: ['phase'], by: '', result, notes: [] };
    assert.deepEqual(parseDiffHostMessage(ok), ok);
    const g = result.groups[0];
    for (const bad of [
      { ...result, version: 2 }, { ...result, groups: 'x' }, { ...result, groups: [{ ...g, key: 7 }] }, { ...result, groups: [{ ...g, a: { ...g.a, total: 'x' } }] },
      { ...result, regressions: [{ ...g, p_value: Infinity }] }, { ...result, metrics: [{ key: 'k', unit: 'u', a: 'x', b: null, delta: null, rel: null }] },
      { ...result, a: { ...result.a, span: '1' } },
    ]) assert.equal(parseDiffHostMessage({ ...ok, result: bad }), undefined, JSON.stringify(bad).slice(0, 80));
    assert.equal(parseDiffHostMessage({ type: 'result', kinds: [1], by: '', result, notes: [] }), undefined);
    assert.equal(parseDiffHostMessage({ type: 'nope' }), undefined);
  });

  it("the host takes the pages' messages only in their shapes, with long text cut", () => {
    assert.deepEqual(parseDiffPageMessage({ type: 'open', kind: 'phase', key: 'MLP', extra: 1 }), { type: 'open', kind: 'phase', key: 'MLP' });
    assert.equal(parseDiffPageMessage({ type: 'open', kind: 'phase' }), undefined);
    assert.equal(parseDiffPageMessage({ type: 'by', kind: 'x'.repeat(5000) }), undefined);
    assert.equal((parseDiffPageMessage({ type: 'error', message: 'e'.repeat(5000) }) as { message: string }).message.length, 2000);
    assert.deepEqual(parseComparePageMessage({ type: 'ready', x: 1 }), { type: 'ready' });
    assert.equal(parseComparePageMessage({ type: 'open' }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'compareWith', path: '/etc/passwd' }), { type: 'compareWith' });
  });

  it('Compare Timelines takes two valid models, a known match and the markers of every format', () => {
    const model = buildTimeline('a.trace.jsonl', lines)!;
    const m = { type: 'models', a: { fileName: 'a', model }, b: { fileName: 'b', model }, group: { kind: 'phase', key: 'MLP' }, match: traceDiff.timeline!.phase!, markers: [...traceDiff.markers!] };
    for (const f of FORMATS) assert.deepEqual(parseCompareHostMessage({ ...m, markers: [...(f.diff?.markers ?? [])] }), { ...m, markers: [...(f.diff?.markers ?? [])] }, f.id);
    const spec = traceDiff.markers![0];
    for (const bad of [undefined, 'x', [{ ...spec, key: 'nope' }], [{ ...spec, attr: undefined }], [{ ...spec, kinds: ['x'] }], [{ ...spec, where: [{ attr: 'phase', value: 1 }] }], [{ ...spec, label: 'l'.repeat(5000) }], Array(17).fill(spec)]) {
      assert.equal(parseCompareHostMessage({ ...m, markers: bad }), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
    assert.deepEqual(parseCompareHostMessage(m), m);
    assert.deepEqual(parseCompareHostMessage({ ...m, match: null }), { ...m, match: null });
    assert.equal(parseCompareHostMessage({ ...m, match: { by: 'attr', attr: 'nope' } }), undefined);
    assert.equal(parseCompareHostMessage({ ...m, match: { by: 'name', kinds: ['x'] } }), undefined);
    assert.equal(parseCompareHostMessage({ ...m, b: { fileName: 'b', model: { ...model, rowItemStart: [] } } }), undefined);
  });

  it('two formats, or a format without a comparison, are refused in the words of the CLI', () => {
    assert.equal(pairProblem(fmt('npu-trace'), fmt('npu-trace')), undefined);
    assert.equal(pairProblem(fmt('npu-trace'), fmt('inferscope')), 'A is NPU trace, B is InferScope: diff compares two runs of one format');
    assert.match(pairProblem(fmt('cmdq'), fmt('cmdq'))!, /^CMDQ files cannot be compared: /);
  });
});
