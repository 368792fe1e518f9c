import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chromeDiff } from '../../../core/chrome/diff';
import { kinetoEagerTrace } from '../../gen/kinetoGen';
import { kinetoRun } from '../../gen/diffPairs';
import { compare, reported, runOfLines } from './helpers';

// Pairs from the Kineto generator (PyTorch 2.x's ChromeTraceLogger layout), durations redrawn per
// seed; the planted regression is the forward GEMM kernel 1.5× slower.
const KINETO = kinetoEagerTrace().text;
const FWD_GEMM = (n: string) => n.includes('gemm_f32f32_tf32f32_f32_tn_n');
const run = (seed: number, slow?: (n: string) => boolean) => runOfLines(chromeDiff, kinetoRun(KINETO, seed, { slow }).split('\n'));

describe('npu-trace diff of Chrome/PyTorch traces', () => {
  it('groups by kernel, operator, stream and step', () => {
    const r = run(1);
    assert.equal(r.unit, 'us');
    const kinds = new Set(r.groups.map((g) => g.kind));
    assert.deepEqual([...kinds].sort(), ['kernel', 'operator', 'step', 'stream']);
    assert.equal(r.groups.find((g) => g.kind === 'step')!.durations.length, 2);
    assert.ok(r.groups.some((g) => g.kind === 'operator' && g.key === 'aten::addmm' && g.durations.length === 12));
    assert.ok(r.groups.some((g) => g.kind === 'stream' && g.key === 'stream 7'));
    const gemm = r.groups.find((g) => g.kind === 'kernel' && FWD_GEMM(g.key))!;
    // The line the event starts on (Kineto's `  {`), its fields on the next.
    const lines = KINETO.split('\n');
    assert.equal(lines[gemm.firstLine! - 1], '  {');
    assert.match(lines[gemm.firstLine!], /"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n/);
  });

  it('a planted kernel slowdown is the first regression and the only kernel reported', () => {
    const r = compare(run(1), run(2, FWD_GEMM), 'chrome-trace');
    assert.ok(FWD_GEMM(r.regressions[0].key) && r.regressions[0].reported, r.regressions[0].key);
    assert.deepEqual(reported(compare(run(1), run(2, FWD_GEMM), 'chrome-trace', ['kernel'])).length, 1);
  });

  it('two runs of the same build report nothing, over 50 pairs of seeds', () => {
    const found: string[] = [];
    for (let s = 1; s <= 50; s++) {
      const rep = reported(compare(run(100 + s), run(200 + s), 'chrome-trace'));
      if (rep.length) found.push(`${s}: ${rep.join(', ')}`);
    }
    assert.deepEqual(found, []);
  });
});
