import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { kprofDiffRun } from '../../../core/kprof/diff';
import { genKprof, npyBytes, regionsProgram, SPEC_NAMES } from '../../gen/kprofGen';
import { genFlashInfer, warpGroupsProgram } from '../../gen/flashinferBuffer';
import { redraw, rng } from '../../gen/diffPairs';
import { compare, reported } from './helpers';

// Pairs from the TVM CudaProfiler generator (64 blocks × 2 groups, the spec's load/compute/store
// kernel), each region's duration redrawn per seed; the planted regression: compute in group 0 1.5×.
const host = (name: string) => ({ name, inflateRaw: (d: Uint8Array, max: number) => inflateRawSync(d, { maxOutputLength: Math.max(1, max) }), names: SPEC_NAMES });
function buffer(seed: number, slowCompute0 = false): Uint8Array {
  const rand = rng(seed);
  const program = (_b: number, g: number) => regionsProgram([
    [0, Math.round(redraw(rand, 96, false, {}))],
    [1, Math.round(redraw(rand, 8704, slowCompute0 && g === 0, {}))],
    [2, Math.round(redraw(rand, 64, false, {}))],
  ]);
  return npyBytes(genKprof({ blocks: 64, groups: 2, program, seed }).words);
}
const run = (seed: number, slow = false) => kprofDiffRun(buffer(seed, slow), host('run.kprof.npy'));

describe('npu-trace diff of kernel-profiler buffers', () => {
  it('groups regions by (event, group), in ns', () => {
    const r = run(1);
    assert.equal(r.unit, 'ns');
    assert.deepEqual(r.groups.map((g) => `${g.key}:${g.durations.length}`).sort(),
      ['compute / group 0:64', 'compute / group 1:64', 'load / group 0:64', 'load / group 1:64', 'store / group 0:64', 'store / group 1:64']);
  });

  it('a planted slowdown of one (event, group) is the first and only regression reported', () => {
    const r = compare(run(1), run(2, true), 'kprof');
    assert.equal(r.regressions[0].key, 'compute / group 0');
    assert.deepEqual(reported(r), ['event_group:compute / group 0']);
  });

  it('two runs of the same build report nothing, over 50 pairs of seeds', () => {
    const found: string[] = [];
    for (let s = 1; s <= 50; s++) {
      const rep = reported(compare(run(100 + s), run(200 + s), 'kprof'));
      if (rep.length) found.push(`${s}: ${rep.join(', ')}`);
    }
    assert.deepEqual(found, []);
  });

  it('groups by SM where the tags carry it (FlashInfer)', () => {
    const fi = genFlashInfer({ grid: [16], numGroups: 2, program: warpGroupsProgram, sms: 4 });
    const r = kprofDiffRun(npyBytes(fi.words), { ...host('fi.npy'), names: undefined });
    const sms = r.groups.filter((g) => g.kind === 'sm').map((g) => g.key).sort();
    assert.deepEqual(sms, [...new Set(Array.from(fi.blockSm, (s) => `SM ${s}`))].sort());
  });
});
