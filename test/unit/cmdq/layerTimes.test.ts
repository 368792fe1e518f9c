// The one matching rule of the CMDQ ↔ trace join, the layer map read from a setting, and the
// hover section it makes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CmdqDocument } from '../../../core/cmdq/document';
import { firstEntryOfTraceLayer, firstLineOfLayer, measuredLayerMarkdown, traceLayerOf } from '../../../core/cmdq/graph/layerTimes';
import { TraceDocument } from '../../../core/trace/document';
import type { LayerStats } from '../../../core/trace/metrics/types';
import { layerMapOf, MAX_LAYER_MAP, parseCmdqTraceParams } from '../../../protocol/cmdqTrace';

const stat = (layer_id: string): LayerStats => ({ layer_id, commands: 1, latency_sum_cycles: 10, span_cycles: 10, p50_cycles: 10, p95_cycles: 10, max_cycles: 10, te_busy_cycles: 5, ve_busy_cycles: 0, engine_busy_cycles: 5, dma_busy_cycles: 0, te_share: 0.5, ve_share: 0, dma_share: 0, longest: [] });

describe('cmdq ↔ trace layer join', () => {
  it('a layer matches the trace layer the map names, else the same string; inherited names are not map entries', () => {
    const map = layerMapOf({ ffn_0: 3, attn: 'a', bad: [1], nan: Number.NaN })!;
    assert.deepEqual({ ...map }, { ffn_0: '3', attn: 'a' });
    assert.equal(traceLayerOf('ffn_0', map), '3');
    assert.equal(traceLayerOf('7', map), '7');
    assert.equal(traceLayerOf('constructor', map), 'constructor');
    assert.equal(traceLayerOf('__proto__', layerMapOf(JSON.parse('{"__proto__": 5}'))!), '5');
    assert.equal(layerMapOf([1, 2]), null);
    assert.equal(layerMapOf('x'), null);
  });

  it('a map from a setting keeps at most MAX_LAYER_MAP layers; notification params are checked', () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < MAX_LAYER_MAP + 5; i++) big[`l${i}`] = i;
    assert.equal(Object.keys(layerMapOf(big)!).length, MAX_LAYER_MAP);
    assert.equal(parseCmdqTraceParams({ trace: 3, layerMap: {} }), undefined);
    assert.equal(parseCmdqTraceParams(null), undefined);
    assert.deepEqual(parseCmdqTraceParams({ trace: null, layerMap: 'x' }), { trace: null, layerMap: {} });
  });

  it('the first entry of a trace layer, through the map', () => {
    const doc = CmdqDocument.parse(JSON.stringify({ cmdq: [{ id: 0, layer_id: null }, { id: 1, layer_id: 'b' }, { id: 2, layer_id: 'a' }, { id: 3, layer_id: 'a' }] }));
    assert.equal(firstEntryOfTraceLayer(doc.parsed.entries, '4', { a: '4' }), 2);
    assert.equal(firstEntryOfTraceLayer(doc.parsed.entries, 'b', {}), 1);
    assert.equal(firstEntryOfTraceLayer(doc.parsed.entries, 'a', { a: '4' }), -1, 'a mapped layer no longer matches its own name');
  });

  it('the timeline line of a layer: the CMD_START of its first enqueued command', () => {
    const lines = [
      { event_type: 'CMD_ENQUEUE', t_cycle: 0, cmd_id: 1, layer_id: 0 },
      { event_type: 'CMD_ENQUEUE', t_cycle: 1, cmd_id: 2, layer_id: 'x' },
      { event_type: 'CMD_START', t_cycle: 2, cmd_id: 1 },
      { event_type: 'CMD_START', t_cycle: 3, cmd_id: 2 },
    ].map((o) => JSON.stringify(o)).join('\n');
    const doc = TraceDocument.parse(lines);
    assert.equal(firstLineOfLayer(doc.lines, 'x'), 3);
    assert.equal(firstLineOfLayer(doc.lines, '0'), 2);
    assert.equal(firstLineOfLayer(doc.lines, '9'), -1);
  });

  it('the hover section: numbers, or why there are none; names in code spans', () => {
    const layers = new Map([['3', stat('3')]]);
    assert.equal(measuredLayerMarkdown('ffn_0', layers, { ffn_0: '3' }, 'a`b.trace.jsonl'), [
      '**Measured** in ``a`b.trace.jsonl``, layer `ffn_0` (trace layer `3`, from `npuTrace.cmdq.layerMap`)', '',
      'span 10 cycles · 1 command', '',
      'busy: TE 5 (50 %) · VE 0 (0 %) · DMA 0 (0 %) cycles',
    ].join('\n'));
    assert.equal(measuredLayerMarkdown(null, layers, {}, 't'), '**Measured** in `t`: _this entry has no `layer_id` to join with the trace._');
    assert.equal(measuredLayerMarkdown('*x*', layers, {}, 't'), '**Measured** in `t`: _no completed command of layer `*x*` in the trace._');
  });
});
