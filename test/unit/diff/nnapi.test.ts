import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nnapiDiff } from '../../../core/nnapi/diff';
import { nnapiRuns } from '../../gen/diffPairs';
import { compare, reported, runOfLines } from './helpers';

// Pairs of systraces of 20 runs each (atrace's tracing_mark_write rows), every slice redrawn per
// seed; the planted regression: ANeuralNetworksEvent_wait 1.5× (inside Runtime: Execution).
const WAIT = (n: string) => n.includes('Event_wait');
const run = (seed: number, slow?: (n: string) => boolean) => runOfLines(nnapiDiff, nnapiRuns(seed, { slow }).split('\n'));
// The cells that hold the slowed one: its row's and column's totals and what is derived from it.
const HOLDERS = ['row:Runtime: Execution', 'row:Runtime: Execution other', 'row:Runtime: Overall', 'row:Total: Execution', 'row:Total: Execution other', 'row:Total: Overall'];

describe('npu-trace diff of NNAPI systraces', () => {
  it("groups by the timing summary's cells, one item per run, in ms", () => {
    const r = run(1);
    assert.equal(r.unit, 'ms');
    const exec = r.groups.find((g) => g.key === 'Runtime: Execution')!;
    assert.equal(exec.durations.length, 20);
    assert.ok(exec.durations.every((d) => d > 10 && d < 20), String(exec.durations));
    // Cells the table shows as "-" are no group.
    assert.ok(!r.groups.some((g) => g.key.startsWith('IPC')));
    assert.match(nnapiRuns(1).split('\n')[exec.firstLine! - 1], /\[NN_LA_PO\]bench_model/);
  });

  it('a planted slowdown is reported in its cell and in the cells that hold it, nowhere else', () => {
    const r = compare(run(1), run(2, WAIT), 'nnapi-systrace');
    const rep = reported(r);
    assert.ok(rep.includes('row:Runtime: Execution'));
    for (const k of rep) assert.ok(HOLDERS.includes(k), k);
    assert.ok(HOLDERS.includes(`row:${r.regressions[0].key}`));
  });

  it('two runs of the same build report nothing, over 50 pairs of seeds', () => {
    const found: string[] = [];
    for (let s = 1; s <= 50; s++) {
      const rep = reported(compare(run(100 + s), run(200 + s), 'nnapi-systrace'));
      if (rep.length) found.push(`${s}: ${rep.join(', ')}`);
    }
    assert.deepEqual(found, []);
  });
});
