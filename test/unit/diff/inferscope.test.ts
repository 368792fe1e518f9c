import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferscopeDiffRun } from '../../../core/inferscope/diff';
import { inferscopeTrace, pretty, wallOf } from '../../gen/inferscopeGen';
import { profilerTrace } from '../../gen/inferscopeProfiler';
import { inferscopeRun } from '../../gen/diffPairs';
import { compare, reported } from './helpers';

// Pairs from the InferScope data-model generator (40 requests), durations redrawn per seed; the
// planted regression: the host-to-device copy 1.5× slower.
const TRACE = inferscopeTrace({ requests: 40, kernels: 4 });
const COPY = (n: string) => n === 'copy_inputs';
const run = (seed: number, slow?: (n: string) => boolean) => inferscopeDiffRun(pretty(inferscopeRun(TRACE, seed, { slow }, wallOf)));

describe('npu-trace diff of InferScope traces', () => {
  it('groups by the analysis categories and by scope', () => {
    const r = run(1);
    const keys = r.groups.map((g) => `${g.kind}:${g.key}`);
    for (const k of ['category:gpu_compute', 'category:h2d_copy', 'category:d2h_copy', 'category:cpu_preprocessing', 'scope:inference', 'scope:gpu', 'scope:preprocess']) assert.ok(keys.includes(k), k);
    const h2d = r.groups.find((g) => g.key === 'h2d_copy')!;
    assert.equal(h2d.durations.length, 40);
    assert.match(pretty(inferscopeRun(TRACE, 1, {}, wallOf)).split('\n')[h2d.firstLine! - 1], /^ {4}\{$/);
  });

  it('a planted slowdown of one category is the first regression and the only category reported', () => {
    const r = compare(run(1), run(2, COPY), 'inferscope');
    assert.equal(`${r.regressions[0].kind}:${r.regressions[0].key}`, 'category:h2d_copy');
    assert.ok(r.regressions[0].reported);
    assert.deepEqual(reported(compare(run(1), run(2, COPY), 'inferscope', ['category'])), ['category:h2d_copy']);
  });

  it('two runs of the same build report nothing, over 50 pairs of seeds', () => {
    const found: string[] = [];
    for (let s = 1; s <= 50; s++) {
      const rep = reported(compare(run(100 + s), run(200 + s), 'inferscope'));
      if (rep.length) found.push(`${s}: ${rep.join(', ')}`);
    }
    assert.deepEqual(found, []);
  });

  it("reads the Profiler's layout too", () => {
    const r = inferscopeDiffRun(profilerTrace());
    assert.ok(r.groups.some((g) => g.kind === 'category' && g.key === 'gpu_compute' && g.durations.length > 0));
    assert.ok(r.groups.some((g) => g.kind === 'scope'));
  });
});
