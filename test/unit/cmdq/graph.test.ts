import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';

/** A queue from [id, deps] pairs (END last when `end`). */
function queue(spec: [number, unknown][], end = false): CmdqDocument {
  const entries = spec.map(([id, deps], i) => ({ opcode: end && i === spec.length - 1 ? 'END' : 'VE_ADD_TILE', id, layer_id: null, deps_before: deps, ve_id: 0, length: 1, qbits_activation: 8 }));
  return CmdqDocument.parse(JSON.stringify({ cmdq: entries }));
}

describe('cmdq dependency graph', () => {
  it('dependents (each once, even for a duplicated dep), depth as the longest chain, leaves', () => {
    const d = queue([[0, []], [1, [0]], [2, [0, 0, 1]], [3, []], [4, [2, 3]]], true);
    const g = d.graph;
    assert.deepEqual(Array.from(g.dependents(0)), [1, 2]);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => g.dependentCount(i)), [2, 1, 1, 1, 0]);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => g.depth(i)), [0, 1, 2, 0, 3]);
    // Leaves: nothing but END waits for them; here END (4) waits for 2 and 3, which nothing else does.
    assert.deepEqual(g.leaves((i) => i === 4), [2, 3]);
  });

  it('ids resolve to entries even when they are not indexes; unknown ids are no edges', () => {
    const g = queue([[10, []], [20, [10, 99]], [30, [20]]]).graph;
    assert.equal(g.indexOf(20), 1);
    assert.equal(g.indexOf(99), -1);
    assert.deepEqual(g.deps(1), [0]);
    assert.equal(g.depth(2), 2);
  });

  it('cycles are found whole, and depth stays finite inside them', () => {
    const d = queue([[0, [2]], [1, [0]], [2, [1]], [3, [3]], [4, [2]]]);
    const g = d.graph;
    assert.deepEqual(g.cycles(), [[0, 1, 2]]);
    assert.deepEqual(g.cycleIn([0, 1, 2]), [0, 2, 1]);
    for (let i = 0; i < 5; i++) assert.ok(Number.isFinite(g.depth(i)) && g.depth(i) >= 0);
    const msg = d.allDiagnostics().filter((x) => x.code === 'cmdq.dep-cycle').map((x) => x.message);
    assert.equal(msg.length, 3);
    assert.match(msg[0], /0 → 2 → 1 → 0/);
  });

  it('a 100 000-entry chain: depth, ancestors and cycles without recursion', () => {
    const n = 100_000;
    const spec: [number, unknown][] = Array.from({ length: n }, (_, i) => [i, i ? [i - 1] : []]);
    const g = queue(spec).graph;
    assert.equal(g.depth(n - 1), n - 1);
    assert.equal(g.ancestors(n - 1).reduce((a, b) => a + b, 0), n);
    assert.deepEqual(g.cycles(), []);
    // A ring of 30 000 (every entry a forward dep too): quadratic work here would take minutes.
    const m = 30_000;
    const ring = queue(spec.slice(0, m).map(([id], i) => [id, [(i + 1) % m]]));
    assert.equal(ring.graph.cycles()[0].length, m);
    // One cycle through every entry: bounded diagnostics, each with bounded related information.
    const cyc = ring.allDiagnostics().filter((d) => d.code === 'cmdq.dep-cycle');
    assert.equal(cyc.length, 1000);
    assert.ok(cyc.every((d) => d.related!.length === 100));
    assert.match(cyc[0].message, /^Dependency cycle: 0 → 1 → 2 .* → … \(30000 entries\) → 0;/);
  });
});
