// The SPM check asks, for every load over a live tile, whether the load waits for each reader of
// the tile. Within 64 entries the answer comes from bits per entry (spm.ts `Reach.near`), else from
// a search: on random queues the bits must give the search's answer for every pair of entries,
// at the window's edges (32, 64, 65 entries apart) too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CmdqGraph } from '../../../core/cmdq/graph';
import { parseCmdq } from '../../../core/cmdq/parser';
import { Reach } from '../../../core/cmdq/spm';

/** A queue of `deps[i]` (distances back from entry i; a distance past the start is left out). */
function graphOf(deps: number[][]): CmdqGraph {
  const cmdq = deps.map((ds, i) => ({ id: i, opcode: 'TE_GEMM_TILE', deps_before: ds.map((d) => i - d).filter((t) => t >= 0 && t !== i) }));
  return new CmdqGraph(parseCmdq(JSON.stringify({ cmdq })).entries);
}

const distance = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom(31, 32, 33, 63, 64, 65, 66), fc.integer({ min: 1, max: 80 }));
const queue = fc.array(fc.array(distance, { maxLength: 3 }), { minLength: 40, maxLength: 160, size: 'max' });

describe('cmdq.spm-overlap: whether a load waits for a reader', () => {
  it('the bits of the last 64 entries answer as the search does, for every pair', () => {
    let near = 0;
    let yes = 0;
    fc.assert(fc.property(queue, (deps) => {
      const g = graphOf(deps);
      const reach = new Reach(g);
      assert.ok(reach.near, 'every dependency points backwards');
      for (let from = 1; from < g.n; from++) {
        for (let target = Math.max(0, from - 70); target < from; target++) {
          const want = reach.search(from, target);
          assert.equal(reach.waitsFor(from, target), want, `entry ${from} → ${target}`);
          if (from - target <= 64) near++;
          if (want) yes++;
        }
      }
    }), { numRuns: 300, seed: 41 });
    assert.ok(near > 100_000 && yes > 20_000, `${near} pairs within the window, ${yes} of all pairs waiting`);
  });

  it('a dependency that points forwards leaves every answer to the search', () => {
    // Entry 1 waits for entry 2, which waits for entry 0.
    const g = graphOf([[], [-1], [2]]);
    const reach = new Reach(g);
    assert.equal(reach.near, undefined);
    assert.equal(reach.waitsFor(1, 0), true);
    assert.equal(reach.waitsFor(2, 1), false);
  });
});
