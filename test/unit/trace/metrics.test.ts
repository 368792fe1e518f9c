// Trace metrics (README "Trace metrics") on small traces whose every number is worked out by hand
// in the comments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MetricsCollector, type StatsOptions } from '../../../core/trace/metrics/collector';
import { nearestRank, TOP_GAPS } from '../../../core/trace/metrics/summarize';
import type { TraceStats } from '../../../core/trace/metrics/types';

type Ev = Record<string, unknown>;

function stats(events: Ev[], opts: StatsOptions = {}): TraceStats {
  const c = new MetricsCollector(opts);
  for (const e of events) c.addLine(JSON.stringify(e));
  return c.finish();
}

const enq = (t: number, cmd: number, extra: Ev = {}): Ev => ({ event_type: 'CMD_ENQUEUE', t_cycle: t, cmd_id: cmd, cmd_type: 'MATMUL', ...extra });
const span = (kind: 'CMD' | 'TE' | 'VE' | 'DMA' | 'DRAM_TX' | 'NOC_TX', s: number, e: number, id: number, extra: Ev = {}, endExtra: Ev = {}): Ev[] => {
  const key = kind === 'CMD' ? 'cmd_id' : kind === 'TE' || kind === 'VE' ? 'job_id' : 'tx_id';
  return [{ event_type: `${kind}_START`, t_cycle: s, [key]: id, ...extra }, { event_type: `${kind}_END`, t_cycle: e, [key]: id, ...endExtra }];
};
const byTime = (evs: Ev[]) => [...evs].sort((a, b) => (a.t_cycle as number) - (b.t_cycle as number));

describe('trace metrics', () => {
  it('busy time is the union of overlapping intervals, not their sum', () => {
    // TE jobs [0,100] and [50,150] overlap: busy 150, not 200. VE [200,300]. Window 0..400.
    const s = stats(byTime([...span('TE', 0, 100, 1), ...span('TE', 50, 150, 2), ...span('VE', 200, 300, 3), { event_type: 'IRQ_EMIT', t_cycle: 400 }]));
    assert.equal(s.span_cycles, 400);
    assert.equal(s.cores.length, 1);
    assert.equal(s.cores[0].te_busy_cycles, 150);
    assert.equal(s.cores[0].te_util, 150 / 400);
    assert.equal(s.cores[0].ve_busy_cycles, 100);
    assert.equal(s.cores[0].ve_util, 0.25);
    assert.equal(s.unpaired, 0);
  });

  it('unpaired STARTs and ENDs are excluded and counted', () => {
    // TE 1 never ends; a TE_END of 9 has no START; TE 2 is [10,20].
    const s = stats([
      { event_type: 'TE_START', t_cycle: 0, job_id: 1 },
      { event_type: 'TE_START', t_cycle: 10, job_id: 2 },
      { event_type: 'TE_END', t_cycle: 20, job_id: 2 },
      { event_type: 'TE_END', t_cycle: 30, job_id: 9 },
    ]);
    assert.equal(s.unpaired, 2);
    assert.equal(s.cores[0].te_busy_cycles, 10);
    assert.equal(s.span_cycles, 30);
  });

  it('a window clips intervals, bytes and commands', () => {
    // TE [0,100], window [50,150]: busy 50 of 100. DMA [0,100] of 1000 bytes: half in the window.
    // CMD 7 [20,120] clipped to [50,120]: latency 70.
    const s = stats(byTime([enq(0, 7, { phase: 'P' }), ...span('CMD', 20, 120, 7), ...span('TE', 0, 100, 1, { cmd_id: 7 }),
      ...span('DMA', 0, 100, 5, { size_bytes: 1000, channel: 2, cmd_id: 7 }), { event_type: 'IRQ_EMIT', t_cycle: 300 }]), { from: 50, to: 150 });
    assert.deepEqual(s.window, { from: 50, to: 150 });
    assert.equal(s.span_cycles, 100);
    assert.equal(s.cores[0].te_busy_cycles, 50);
    assert.equal(s.dma.bytes, 500);
    assert.equal(s.dma.bytes_per_cycle, 5);
    assert.deepEqual(s.dma.channels, [{ channel: 2, bytes: 500, busy_cycles: 50, util: 0.5 }]);
    assert.equal(s.phases[0].latency_sum_cycles, 70);
    assert.equal(s.phases[0].span_cycles, 70);
    // The phase's TE time is clipped too: [50,100] within the phase span [50,120].
    assert.equal(s.phases[0].te_busy_cycles, 50);
  });

  it('finish can be called again as lines keep coming (the timeline previews a large file)', () => {
    const c = new MetricsCollector();
    c.addLine(JSON.stringify({ event_type: 'TE_START', t_cycle: 0, job_id: 1 }));
    const early = c.finish();
    assert.equal(early.unpaired, 1, 'still open');
    assert.deepEqual(c.finish(), early, 'finishing twice changes nothing');
    c.addLine(JSON.stringify({ event_type: 'TE_END', t_cycle: 10, job_id: 1 }));
    const done = c.finish();
    assert.equal(done.unpaired, 0);
    assert.equal(done.cores[0].te_busy_cycles, 10);
  });

  it('nearest-rank percentiles', () => {
    assert.equal(nearestRank([], 50), null);
    assert.equal(nearestRank([7], 95), 7);
    assert.equal(nearestRank([1, 2, 3, 4], 50), 2); // ⌈0.5·4⌉ = 2nd
    assert.equal(nearestRank([1, 2, 3, 4], 95), 4); // ⌈3.8⌉ = 4th
    assert.equal(nearestRank(Array.from({ length: 100 }, (_, i) => i + 1), 95), 95);
  });

  it('phase latency: count, sum, span and percentiles from the commands of each phase', () => {
    // Phase A: commands of 10, 20, 30, 40 cycles → p50 20, p95 40, max 40, Σ 100; span 0..140.
    // Phase B: one of 5 cycles.
    const evs: Ev[] = [];
    [10, 20, 30, 40].forEach((d, i) => evs.push(enq(0, i, { phase: 'A' }), ...span('CMD', i * 33, i * 33 + d, i)));
    evs.push(enq(0, 9, { phase: 'B' }), ...span('CMD', 200, 205, 9));
    const s = stats(byTime(evs));
    const a = s.phases.find((p) => p.phase === 'A')!;
    assert.deepEqual([a.commands, a.latency_sum_cycles, a.span_cycles, a.p50_cycles, a.p95_cycles, a.max_cycles], [4, 100, 139, 20, 40, 40]);
    assert.deepEqual(a.longest.map((c) => c.cmd_id), [3, 2, 1, 0]);
    assert.equal(s.phases.find((p) => p.phase === 'B')!.commands, 1);
    assert.deepEqual(s.phases.map((p) => p.phase), ['A', 'B'], 'in order of first start');
  });

  it('per-layer breakdown counts only the events of the layer\'s commands', () => {
    // Layer 0: cmd 1 [0,100], TE [0,60]; layer 1: cmd 2 [100,200], TE [100,150], DMA [150,200].
    const s = stats(byTime([enq(0, 1, { layer_id: 0 }), enq(0, 2, { layer_id: 1 }), ...span('CMD', 0, 100, 1), ...span('CMD', 100, 200, 2),
      ...span('TE', 0, 60, 10, { cmd_id: 1 }), ...span('TE', 100, 150, 11, { cmd_id: 2 }), ...span('DMA', 150, 200, 12, { cmd_id: 2, size_bytes: 64 })]));
    const [l0, l1] = s.layers;
    assert.deepEqual([l0.layer_id, l0.commands, l0.span_cycles, l0.te_busy_cycles, l0.dma_busy_cycles, l0.te_share], ['0', 1, 100, 60, 0, 0.6]);
    assert.deepEqual([l1.layer_id, l1.te_busy_cycles, l1.dma_busy_cycles, l1.dma_share], ['1', 50, 50, 0.5]);
  });

  it('an empty trace has no window and no NaN anywhere', () => {
    const s = stats([]);
    assert.equal(s.span_cycles, 0);
    assert.deepEqual(s.window, { from: null, to: null });
    assert.equal(s.dma.bytes_per_cycle, null);
    assert.ok(!JSON.stringify(s).includes('NaN') && !JSON.stringify(s).includes('Infinity'));
  });

  it('a trace with no SRAM events has no conflict rate (null, not NaN)', () => {
    const s = stats(span('TE', 0, 10, 1));
    assert.equal(s.sram.accesses, 0);
    assert.equal(s.sram.conflict_rate, null);
  });

  it('SRAM conflict rate overall and per bank', () => {
    const evs: Ev[] = [];
    for (let i = 0; i < 8; i++) evs.push({ event_type: 'SRAM_ACCESS', t_cycle: i, bank_id: i % 2, access_type: 'READ' });
    evs.push({ event_type: 'SRAM_CONFLICT', t_cycle: 9, bank_id: 1, num_requests: 2 });
    const s = stats(evs);
    assert.equal(s.sram.conflict_rate, 1 / 8);
    assert.deepEqual(s.sram.banks.map((b) => [b.bank_id, b.accesses, b.conflicts, b.conflict_rate]), [[0, 4, 0, 0], [1, 4, 1, 0.25]]);
  });

  it('multi-NPU and multi-core: engines per (npu, core), inherited from the command', () => {
    // cmd 1 runs on npu 0 core 1, cmd 2 on npu 1 core 0; TE events carry no core of their own.
    const s = stats(byTime([enq(0, 1, { npu_id: 0, core_id: 1 }), enq(0, 2, { npu_id: 1, core_id: 0 }),
      ...span('TE', 0, 40, 1, { cmd_id: 1 }), ...span('TE', 0, 10, 2, { cmd_id: 2 }), ...span('VE', 50, 100, 3, { npu_id: 1, core_id: 0 })]));
    assert.deepEqual(s.cores.map((c) => [c.npu_id, c.core_id, c.te_busy_cycles, c.ve_busy_cycles]), [[0, 1, 40, 0], [1, 0, 10, 50]]);
  });

  it('DMA bandwidth per channel and direction, GB/s from the TRACE_META clock', () => {
    // 2 GHz → 0.5 ns per cycle. 3000 bytes over 100 cycles = 30 B/cycle = 60 GB/s.
    const s = stats([{ event_type: 'TRACE_META', version: '1.0', clock_ghz: 2 },
      ...span('DMA', 0, 50, 1, { channel: 0, size_bytes: 1000, direction: 'DRAM_TO_SRAM' }),
      ...span('DMA', 50, 100, 2, { channel: 1, size_bytes: 2000, direction: 'SRAM_TO_DRAM' })]);
    assert.equal(s.ns_per_cycle, 0.5);
    assert.equal(s.dma.bytes_per_cycle, 30);
    assert.equal(s.dma.gb_per_s, 60);
    assert.deepEqual(s.dma.directions, [{ direction: 'SRAM_TO_DRAM', bytes: 2000 }, { direction: 'DRAM_TO_SRAM', bytes: 1000 }]);
    assert.deepEqual(s.dma.channels.map((c) => [c.channel, c.busy_cycles]), [[0, 50], [1, 50]]);
  });

  it('DRAM channels and NoC links: busy union and bytes', () => {
    const s = stats(byTime([...span('DRAM_TX', 0, 40, 1, { channel: 3, size_bytes: 64 }), ...span('DRAM_TX', 20, 60, 2, { channel: 3, size_bytes: 64 }),
      ...span('NOC_TX', 0, 10, 1, { link_id: 1, size_bytes: 8 }), { event_type: 'IRQ_EMIT', t_cycle: 100 }]));
    assert.deepEqual(s.dram.channels, [{ channel: 3, bytes: 128, busy_cycles: 60, util: 0.6 }]);
    assert.deepEqual(s.noc.links, [{ channel: 1, bytes: 8, busy_cycles: 10, util: 0.1 }]);
  });

  it('idle attribution: waiting on DMA, waiting in a command, no work', () => {
    // Window 0..100. TE [0,20]. DMA [20,40]. Command [0,60]. So idle = 80: DMA 20 (20..40),
    // command 20 (40..60), no work 40 (60..100). The longest gap 20..100 is not "no work" as a whole.
    const s = stats(byTime([enq(0, 1), ...span('CMD', 0, 60, 1), ...span('TE', 0, 20, 5, { cmd_id: 1 }), ...span('DMA', 20, 40, 6, { cmd_id: 1, size_bytes: 1 }),
      { event_type: 'IRQ_EMIT', t_cycle: 100 }]));
    assert.deepEqual(s.idle, [{ npu_id: 0, core_id: 0, idle_cycles: 80, waiting_dma_cycles: 20, waiting_command_cycles: 20, no_work_cycles: 40 }]);
    assert.deepEqual(s.idle_gaps.map((g) => [g.start, g.end, g.cycles, g.no_work]), [[20, 100, 80, false]]);
  });

  it('idle split and idle gaps are what the cells of each core say, on two cores, with and without a window', () => {
    // Spans on integer cycles 0..60, each on its own core: a cell [k, k+1) is idle when no TE or VE
    // covers it, then waiting on DMA if a DMA does, else waiting in a command if a command does.
    const kind = fc.constantFrom('TE', 'VE', 'DMA', 'CMD');
    const aSpan = fc.record({ kind, core: fc.integer({ min: 0, max: 1 }), s: fc.integer({ min: 0, max: 60 }), d: fc.integer({ min: 0, max: 12 }) });
    const window = fc.option(fc.tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70 })), { nil: undefined });
    fc.assert(fc.property(fc.array(aSpan, { minLength: 1, maxLength: 25 }), window, (spans, w) => {
      const evs = spans.flatMap((x, i) => span(x.kind as 'TE', x.s, x.s + x.d, i + 1, { npu_id: 0, core_id: x.core }));
      const opts = w && w[0] <= w[1] ? { from: w[0], to: w[1] } : {};
      const s = stats(byTime(evs), opts);
      const from = opts.from ?? Math.min(...spans.map((x) => x.s));
      const to = opts.to ?? Math.max(...spans.map((x) => x.s + x.d));
      const wantGaps: { core: number; start: number; end: number; noWork: boolean }[] = [];
      for (const core of [...new Set(spans.map((x) => x.core))].sort()) {
        const on = (k: number, ...kinds: string[]) => spans.some((x) => x.core === core && kinds.includes(x.kind) && x.s <= k && k < x.s + x.d);
        let idle = 0, dma = 0, cmd = 0;
        let gap: { core: number; start: number; end: number; noWork: boolean } | undefined;
        for (let k = from; k < to; k++) {
          if (on(k, 'TE', 'VE')) {
            gap = undefined;
            continue;
          }
          idle++;
          if (on(k, 'DMA')) dma++;
          else if (on(k, 'CMD')) cmd++;
          if (!gap) wantGaps.push((gap = { core, start: k, end: k, noWork: true }));
          gap.end = k + 1;
          if (on(k, 'DMA', 'CMD')) gap.noWork = false;
        }
        assert.deepEqual(s.idle.find((x) => x.core_id === core), { npu_id: 0, core_id: core, idle_cycles: idle, waiting_dma_cycles: dma, waiting_command_cycles: cmd, no_work_cycles: idle - dma - cmd });
      }
      // The longest, ties in order of cores and then of time.
      const top = wantGaps.map((g, i) => ({ g, i })).sort((a, b) => b.g.end - b.g.start - (a.g.end - a.g.start) || a.i - b.i).slice(0, TOP_GAPS);
      assert.deepEqual(s.idle_gaps.map((g) => [g.core_id, g.start, g.end, g.cycles, g.no_work]), top.map(({ g }) => [g.core, g.start, g.end, g.end - g.start, g.noWork]));
    }), { numRuns: 300 });
  });
});

describe('trace findings', () => {
  it('memory-bound layer: engines idle while DMA is saturated', () => {
    // Layer "L": cmd [0,1000], TE busy 100 (10 %), DMA busy 900 (90 %).
    const s = stats(byTime([enq(0, 1, { layer_id: 'L' }), ...span('CMD', 0, 1000, 1), ...span('TE', 900, 1000, 2, { cmd_id: 1 }),
      ...span('DMA', 0, 900, 3, { cmd_id: 1, size_bytes: 9000 })]));
    const f = s.findings.filter((x) => x.rule === 'memory-bound');
    assert.equal(f.length, 2, 'the layer and its phase (none)');
    const layer = f.find((x) => x.evidence.layer === 'L')!;
    assert.equal(layer.evidence.engine_share, 0.1);
    assert.equal(layer.evidence.dma_share, 0.9);
    assert.deepEqual(layer.cmd_ids, [1]);
    assert.deepEqual(layer.ranges, [[0, 1000]]);
  });

  it('a busy engine is not memory-bound', () => {
    const s = stats(byTime([enq(0, 1, { layer_id: 'L' }), ...span('CMD', 0, 1000, 1), ...span('TE', 0, 1000, 2, { cmd_id: 1 }),
      ...span('DMA', 0, 900, 3, { cmd_id: 1, size_bytes: 9000 })]));
    assert.equal(s.findings.filter((x) => x.rule === 'memory-bound').length, 0);
  });

  it('idle-no-work: a long gap with nothing busy and nothing open', () => {
    // TE [0,100], then nothing until TE [900,1000]: a gap of 800 of 1000 cycles.
    const s = stats([...span('TE', 0, 100, 1), ...span('TE', 900, 1000, 2)]);
    const f = s.findings.filter((x) => x.rule === 'idle-no-work');
    assert.equal(f.length, 1);
    assert.deepEqual(f[0].ranges, [[100, 900]]);
    assert.equal(f[0].evidence.gap_cycles, 800);
  });

  it('sram-hot-bank: one bank with most of the conflicts', () => {
    const evs: Ev[] = [];
    for (let i = 0; i < 100; i++) evs.push({ event_type: 'SRAM_ACCESS', t_cycle: i, bank_id: i % 4, access_type: 'READ' });
    for (let i = 0; i < 12; i++) evs.push({ event_type: 'SRAM_CONFLICT', t_cycle: 100 + i, bank_id: 2, num_requests: 2 });
    evs.push({ event_type: 'SRAM_CONFLICT', t_cycle: 200, bank_id: 1, num_requests: 2 });
    const f = stats(evs).findings.filter((x) => x.rule === 'sram-hot-bank');
    assert.deepEqual(f.map((x) => x.evidence.bank_id), [2]);
    assert.deepEqual(f[0].ranges, [[100, 111]]);
  });

  it('dominant-phase: one phase holds most command latency', () => {
    const s = stats(byTime([enq(0, 1, { phase: 'MLP' }), enq(0, 2, { phase: 'LN' }), ...span('CMD', 0, 900, 1), ...span('CMD', 900, 1000, 2)]));
    const f = s.findings.filter((x) => x.rule === 'dominant-phase');
    assert.equal(f.length, 1);
    assert.equal(f[0].evidence.phase, 'MLP');
    assert.equal(f[0].evidence.share, 0.9);
    assert.deepEqual(f[0].cmd_ids, [1]);
  });

  it('load-imbalance: one core of an NPU far busier than its sibling', () => {
    const s = stats(byTime([...span('TE', 0, 900, 1, { npu_id: 0, core_id: 0 }), ...span('TE', 0, 100, 2, { npu_id: 0, core_id: 1 }), { event_type: 'IRQ_EMIT', t_cycle: 1000 }]));
    const f = s.findings.filter((x) => x.rule === 'load-imbalance');
    assert.equal(f.length, 1);
    assert.deepEqual([f[0].evidence.busiest_core, f[0].evidence.least_core], [0, 1]);
  });

  it('balanced cores raise no imbalance', () => {
    const s = stats([...span('TE', 0, 900, 1, { npu_id: 0, core_id: 0 }), ...span('TE', 0, 800, 2, { npu_id: 0, core_id: 1 })]);
    assert.equal(s.findings.filter((x) => x.rule === 'load-imbalance').length, 0);
  });
});
