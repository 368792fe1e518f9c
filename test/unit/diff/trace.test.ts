import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetricsCollector } from '../../../core/trace/metrics/collector';
import { traceDiff } from '../../../core/trace/diff';
import { traceLines } from '../../gen/genTrace';
import { compare, reported, runOfLines } from './helpers';

// Pairs from the NPU trace generator (test/gen/genTrace.ts, the one the benchmarks use): 600
// commands, the second run with every duration of one phase's commands 1.5× (its `slow` option).
const lines = (seed: number, slow?: { phase: string; factor: number }) => [...traceLines({ events: 1e7, commands: 600, seed, slow })];

describe('npu-trace diff of NPU traces', () => {
  const base = lines(1);
  const slowed = lines(2, { phase: 'MLP', factor: 1.5 });
  const a = runOfLines(traceDiff, base);
  const b = runOfLines(traceDiff, slowed);

  it('a planted 1.5× slowdown of one phase is the first regression and the only phase reported', () => {
    const r = compare(a, b, 'npu-trace');
    const first = r.regressions[0];
    assert.equal(`${first.kind}:${first.key}`, 'phase:MLP');
    assert.ok(first.reported && first.significant);
    assert.ok(first.rel.mean! > 0.4 && first.rel.mean! < 0.6, String(first.rel.mean));
    assert.deepEqual(reported(compare(a, b, 'npu-trace', ['phase'])), ['phase:MLP']);
    // Over every kind, only the groups that hold MLP's commands (its command types, the engines
    // its jobs run on) moved: no other phase, type or layer is reported.
    for (const k of reported(r)) assert.ok(['phase:MLP', 'cmd_type:MATMUL', 'cmd_type:GELU'].includes(k) || k.startsWith('engine:'), k);
    assert.equal(r.improvements.filter((g) => g.reported).length, 0);
  });

  it("a phase's total is stats' latency_sum_cycles for it, and counts are its commands", () => {
    const m = new MetricsCollector();
    for (const l of slowed) m.addLine(l);
    const s = m.finish();
    const r = compare(a, b, 'npu-trace', ['phase', 'layer']);
    for (const p of s.phases) {
      const g = r.groups.find((x) => x.kind === 'phase' && x.key === p.phase)!;
      assert.equal(g.b.total, p.latency_sum_cycles);
      assert.equal(g.b.count, p.commands);
      assert.equal(g.b.p95, p.p95_cycles);
    }
    for (const l of s.layers) assert.equal(r.groups.find((x) => x.kind === 'layer' && x.key === l.layer_id)!.b.total, l.latency_sum_cycles);
  });

  it('reads bytes as it reads text, and points each group at its first line', () => {
    const c = traceDiff.lines!();
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    base.forEach((l, i) => {
      const bytes = enc.encode(l);
      c.addBytes!(bytes, 0, bytes.length, i + 1, (x, s, e) => dec.decode(x.subarray(s, e)));
    });
    assert.deepEqual(c.finish(), a);
    const mlp = a.groups.find((g) => g.kind === 'phase' && g.key === 'MLP')!;
    assert.match(base[mlp.firstLine! - 1], /"CMD_END".*"phase":"MLP"/);
    assert.deepEqual(a.groups.filter((g) => g.kind === 'engine').map((g) => g.key).sort(), ['DMA', 'DRAM', 'NoC', 'TE', 'VE']);
    assert.deepEqual(a.metrics.map((m) => m.key), ['TE utilization, core 0/0', 'VE utilization, core 0/0', 'DMA bandwidth', 'DRAM bandwidth', 'SRAM conflict rate']);
  });
});
