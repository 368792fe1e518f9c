import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import { analyzeGraph, type GraphAnalysis } from '../../../core/cmdq/graph/analysis';
import { costModelOf, DEFAULT_COST_MODEL, entryCost, type CostModel } from '../../../core/cmdq/graph/cost';
import { joinLayers } from '../../../core/cmdq/graph/join';
import type { LayerStats } from '../../../core/trace/metrics/types';

// Default model: 64 B/cycle DMA, 1024 MAC/cycle TE, 64 elements/cycle VE. Costs below are chosen
// to be whole cycles so every expectation is computed by hand in the comment beside it.
type Spec = Record<string, unknown>;
const load = (deps: number[], bytes: number): Spec => ({ opcode: 'DMA_LOAD_TILE', deps_before: deps, tensor_role: 'ifm', qbits: 8, dram_addr: 0, spm_bank: 0, spm_offset: 0, num_elements: bytes });
const store = (deps: number[], bytes: number): Spec => ({ ...load(deps, bytes), opcode: 'DMA_STORE_TILE', tensor_role: 'ofm' });
const gemm = (deps: number[], m: number, n: number, k: number, te = 0): Spec => ({ opcode: 'TE_GEMM_TILE', deps_before: deps, te_id: te, ifm_bank: 0, wgt_bank: 1, ofm_bank: 2, m, n, k });
const ve = (deps: number[], length: number, unit = 0): Spec => ({ opcode: 'VE_ADD_TILE', deps_before: deps, ve_id: unit, length, qbits_activation: 8 });
const end = (deps: number[]): Spec => ({ opcode: 'END', deps_before: deps });

function run(specs: Spec[], model: CostModel = DEFAULT_COST_MODEL): GraphAnalysis {
  const doc = CmdqDocument.parse(JSON.stringify({ cmdq: specs.map((s, id) => ({ id, layer_id: null, ...s })) }));
  return analyzeGraph(doc.parsed.entries, doc.graph, model);
}
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

describe('cmdq graph analysis', () => {
  it('diamond: levels, earliest start, slack, critical path and its share per engine', () => {
    // 0 load 640 B = 10 cycles; 1 TE 1024·20 MACs = 20; 2 VE 320 = 5; 3 store 128 B = 2; 4 END.
    const a = run([load([], 640), gemm([0], 32, 32, 20), ve([0], 320), store([1, 2], 128), end([3])]);
    assert.deepEqual(arr(a.cost), [10, 20, 5, 2, 0]);
    assert.deepEqual(arr(a.level), [0, 1, 1, 2, 3]);
    assert.deepEqual(a.levelCounts, [1, 2, 1, 1]);
    assert.deepEqual(arr(a.earliestStart), [0, 10, 10, 30, 32]);
    // 2 may start as late as 30 − 5 = 25: slack 15; everything else is critical.
    assert.deepEqual(arr(a.slack), [0, 0, 15, 0, 0]);
    assert.deepEqual(a.criticalPath, [0, 1, 3, 4]);
    assert.equal(a.criticalLength, 32);
    assert.deepEqual(a.load, [
      { engine: 'DMA load', entries: 1, busy: 10, critical: 10 },
      { engine: 'DMA store', entries: 1, busy: 2, critical: 2 },
      { engine: 'TE 0', entries: 1, busy: 20, critical: 20 },
      { engine: 'VE 0', entries: 1, busy: 5, critical: 0 },
    ]);
    assert.deepEqual(arr(a.start), [0, 10, 10, 30, 32]);
    assert.equal(a.makespan, 32);
    assert.deepEqual([a.blocked, a.cycleCount], [0, 0]);
  });

  it('chain: every entry critical, each starts when the previous ends', () => {
    // 64 B = 1 cycle; 16³ = 4096 MACs = 4; 128 elements = 2.
    const a = run([load([], 64), gemm([0], 16, 16, 16), ve([1], 128), end([2])]);
    assert.deepEqual(arr(a.earliestStart), [0, 1, 5, 7]);
    assert.deepEqual(arr(a.slack), [0, 0, 0, 0]);
    assert.deepEqual(a.criticalPath, [0, 1, 2, 3]);
    assert.equal(a.criticalLength, 7);
    assert.equal(a.makespan, 7);
  });

  it('independent engines run in parallel; two entries on one engine take turns', () => {
    // Four VE tiles of 640 elements (10 cycles), two on VE 0 and two on VE 1, none waiting.
    const a = run([ve([], 640, 0), ve([], 640, 0), ve([], 640, 1), ve([], 640, 1), end([0, 1, 2, 3])]);
    assert.deepEqual(arr(a.earliestStart), [0, 0, 0, 0, 10]);
    assert.equal(a.criticalLength, 10);
    assert.deepEqual(a.criticalPath, [0, 4]);
    // The simulation: each VE runs its two tiles back to back, in queue order.
    assert.deepEqual(arr(a.start), [0, 10, 0, 10, 20]);
    assert.equal(a.makespan, 20);
    assert.deepEqual(a.load.map((l) => [l.engine, l.entries, l.busy]), [['VE 0', 2, 20], ['VE 1', 2, 20]]);
  });

  it('engine contention: the schedule is longer than the critical path', () => {
    // Loads of 10 cycles share the DMA; the TE (20 cycles) waits for the second one only.
    const a = run([load([], 640), load([], 640), gemm([1], 32, 32, 20), end([0, 2])]);
    assert.equal(a.criticalLength, 30);
    assert.deepEqual(a.criticalPath, [1, 2, 3]);
    assert.deepEqual(arr(a.slack), [20, 0, 0, 0]);
    assert.deepEqual(arr(a.start), [0, 10, 20, 40]);
    assert.equal(a.makespan, 40);
  });

  it('a cycle and a self-dep are reported, their members and descendants blocked, no hang', () => {
    // 1 ⇄ 2 is a cycle, 3 waits for itself, END waits for all of them; 0 → 4 still runs.
    const a = run([load([], 64), ve([0, 2], 64), ve([1], 64), ve([3], 64), ve([0], 64), end([1, 2, 3, 4])]);
    assert.equal(a.blocked, 4);
    assert.equal(a.cycleCount, 2);
    assert.deepEqual(a.cycles, [[3], [1, 2]]);
    assert.deepEqual(arr(a.level), [0, -1, -1, -1, 1, -1]);
    assert.ok([1, 2, 3, 5].every((i) => Number.isNaN(a.earliestStart[i]) && Number.isNaN(a.start[i]) && Number.isNaN(a.slack[i])));
    assert.deepEqual(a.criticalPath, [0, 4]);
    assert.equal(a.criticalLength, 2);
  });

  it('a forward dep is an edge like any other; an unknown dep is none', () => {
    const a = run([ve([1, 99], 128), load([], 64)]);
    assert.deepEqual(arr(a.earliestStart), [1, 0]);
    assert.deepEqual(a.criticalPath, [1, 0]);
  });

  it('the golden CMDQ of the design document (§4.4)', () => {
    const doc = CmdqDocument.parse(readFileSync(resolve(__dirname, '../../../examples/golden.cmdq.json'), 'utf8'));
    const a = analyzeGraph(doc.parsed.entries, doc.graph, DEFAULT_COST_MODEL);
    // Loads 4096 B = 64 cycles each, GEMM 64³ / 1024 = 256, LayerNorm 4096 / 64 = 64, store 64.
    assert.deepEqual(arr(a.cost), [64, 64, 256, 64, 64, 0]);
    assert.deepEqual(a.criticalPath, [0, 2, 3, 4, 5]);
    assert.equal(a.criticalLength, 448);
    // One DMA load engine: the weights wait for the activations.
    assert.deepEqual(arr(a.start), [0, 64, 128, 384, 448, 512]);
    assert.equal(a.makespan, 512);
  });

  it('cost model: sizes, rounding up, settings that are not positive numbers keep their default', () => {
    const m = costModelOf({ dmaBytesPerCycle: 'fast', teMacsPerCycle: 2048, veElementsPerCycle: -1 });
    assert.deepEqual(m, { dmaBytesPerCycle: 64, teMacsPerCycle: 2048, veElementsPerCycle: 64 });
    const doc = CmdqDocument.parse(JSON.stringify({ cmdq: [{ ...load([], 65), qbits: 4 }, gemm([], 3, 3, 3), { opcode: 'VE_GELU_TILE', deps_before: [] }] }));
    // 65 × 4 bits = 32.5 → 33 B → 1 cycle; 27 MACs → 1 cycle; VE without length → 0.
    assert.deepEqual(doc.parsed.entries.map((e) => entryCost(e, m)), [1, 1, 0]);
  });
});

describe('join with a trace by layer_id', () => {
  const stats = (layer_id: string, span: number, te: number, ve: number, dma: number): LayerStats => ({
    layer_id, commands: 2, latency_sum_cycles: 0, span_cycles: span, p50_cycles: 0, p95_cycles: 0, max_cycles: 0, te_busy_cycles: te, ve_busy_cycles: ve,
    engine_busy_cycles: te + ve, dma_busy_cycles: dma, te_share: null, ve_share: null, dma_share: null, longest: [],
  });

  it('estimated span and busy per engine kind beside the measured ones; names matched as strings or through the map', () => {
    // Diamond with layers: 0 load (10) and 1 TE (20) in "a", 2 VE (5) in "b", 3 store (2) in "a", END no layer.
    const specs = [load([], 640), gemm([0], 32, 32, 20), ve([0], 320), store([1, 2], 128), end([3])];
    const layers = ['a', 'a', 'b', 'a', null];
    const doc = CmdqDocument.parse(JSON.stringify({ cmdq: specs.map((s, id) => ({ id, ...s, layer_id: layers[id] })) }));
    const a = analyzeGraph(doc.parsed.entries, doc.graph, DEFAULT_COST_MODEL);
    const trace = [stats('a', 64, 40, 0, 30), stats('7', 30, 0, 9, 0)];
    const j = joinLayers(doc.parsed.entries, a, trace, { b: '7' });
    // "a" runs from 0 (the load) to 32 (the store ends): span 32; TE 20, DMA 10 + 2. Measured span 64: ratio 2.
    assert.deepEqual(j.layers[0], { layer: 'a', traceLayer: 'a', entries: 3, estimated: { span: 32, te: 20, ve: 0, dma: 12 }, measured: { span: 64, te: 40, ve: 0, dma: 30, commands: 2 }, ratio: 2 });
    // "b" (10..15) matches the trace's "7" through the map: 30 / 5 = 6.
    assert.deepEqual(j.layers[1], { layer: 'b', traceLayer: '7', entries: 1, estimated: { span: 5, te: 0, ve: 5, dma: 0 }, measured: { span: 30, te: 0, ve: 9, dma: 0, commands: 2 }, ratio: 6 });
    assert.equal(j.more, 0);
    // Without the map "b" has no trace layer.
    assert.deepEqual(joinLayers(doc.parsed.entries, a, trace).layers[1].measured, null);
  });
});
