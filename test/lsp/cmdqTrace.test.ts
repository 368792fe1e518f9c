// The CMDQ ↔ trace join over LSP: a CMDQ entry's hover shows its layer's measured time in the
// NPU trace open beside it, matched by layer_id or through npuTrace.cmdq.layerMap.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { CMDQ_TRACE_METHOD, type CmdqLayerTimesResult, type CmdqTraceParams } from '../../protocol/cmdqTrace';
import { serverPerSuite } from './lspClient';

const ROOT = resolve(__dirname, '../..');
const GOLDEN = readFileSync(resolve(ROOT, 'examples/golden.cmdq.json'), 'utf8');
const TRACE = readFileSync(resolve(ROOT, 'examples/llm-layer.trace.jsonl'), 'utf8');
const lines = GOLDEN.split('\n');
const CMDQ = 'file:///join/golden.cmdq.json';

function at(line: number, needle: string, offset = 0) {
  const c = lines[line].indexOf(needle);
  assert.ok(c >= 0, `${needle} on line ${line}`);
  return { line, character: c + offset };
}

describe('cmdq hover joined with the open NPU trace', () => {
  const c = serverPerSuite();
  const hover = async (p: { line: number; character: number }) => {
    const h = await c.request<Hover | null>('textDocument/hover', c.at(CMDQ, p));
    return h ? (h.contents as MarkupContent).value : null;
  };
  const onId2 = at(5, '"id": 2', 6);
  const onLayer2 = at(5, '"ffn_0"', 2);
  const send = (p: CmdqTraceParams) => c.conn.sendNotification(CMDQ_TRACE_METHOD, p);

  before(async () => {
    await c.open(CMDQ, 'cmdq', GOLDEN);
  });

  it('without a trace, the hover is the entry alone and a layer_id has none', async () => {
    assert.doesNotMatch((await hover(onId2))!, /Measured/);
    assert.equal(await hover(onLayer2), null);
  });

  it('with the trace open: by layer_id, then through the layer map, on the id and on the layer_id value', async () => {
    await c.open('file:///join/llm-layer.trace.jsonl', 'npu-trace', TRACE);
    // The golden CMDQ names its layer "ffn_0", the trace 0 and 1: no match by name.
    assert.match((await hover(onId2))!, /\*\*Measured\*\* in `llm-layer\.trace\.jsonl`: _no completed command of layer `ffn_0` in the trace\._/);
    await send({ trace: null, layerMap: { ffn_0: '1', ffn_0_ln: '0' } });
    // Numbers: `npu-trace stats --json examples/llm-layer.trace.jsonl`, layer 1.
    const md = (await hover(onId2))!;
    assert.match(md, /TE_GEMM_TILE on TE 0/, 'the entry hover is still there');
    assert.match(md, /\*\*Measured\*\* in `llm-layer\.trace\.jsonl`, layer `ffn_0` \(trace layer `1`, from `npuTrace\.cmdq\.layerMap`\)/);
    assert.match(md, /span 9,611 cycles · 10 commands/);
    assert.match(md, /busy: TE 7,343 \(76 %\) · VE 768 \(8 %\) · DMA 7,611 \(79 %\) cycles/);
    const onLn = (await hover(at(6, '"ffn_0_ln"', 2)))!;
    assert.match(onLn, /^\*\*Measured\*\* .* layer `ffn_0_ln` \(trace layer `0`, .*\n\nspan 9,461 cycles/);
    assert.match((await hover(onLayer2))!, /span 9,611 cycles/);
  });

  it('the chosen trace wins over the one opened last; a closed choice falls back', async () => {
    const other = TRACE.replaceAll('"layer_id":1', '"layer_id":7');
    await c.open('file:///join/other.trace.jsonl', 'npu-trace', other);
    assert.match((await hover(onId2))!, /in `other\.trace\.jsonl` \(trace layer `1`, .*\): _no completed command of layer `1`/);
    await send({ trace: 'file:///join/llm-layer.trace.jsonl', layerMap: { ffn_0: '1' } });
    assert.match((await hover(onId2))!, /in `llm-layer\.trace\.jsonl`, layer `ffn_0`.*\n\nspan 9,611 cycles/);
    c.close('file:///join/llm-layer.trace.jsonl');
    assert.match((await hover(onId2))!, /in `other\.trace\.jsonl`/);
  });

  it('names from the files are escaped in the hover', async () => {
    await send({ trace: null, layerMap: { ffn_0: '`](command:x)<img>' } });
    const md = (await hover(onId2))!;
    // A code span with a longer fence: the backtick cannot close it, the link is text.
    assert.ok(md.endsWith('(trace layer `` `](command:x)<img> ``, from `npuTrace.cmdq.layerMap`): _no completed command of layer `` `](command:x)<img> `` in the trace._'), md);
  });

  it('layer times for the graph, Show Layer in Timeline and Show in CMDQ use the same join', async () => {
    const trace = 'file:///join/llm-layer.trace.jsonl';
    await c.open(trace, 'npu-trace', TRACE);
    await send({ trace, layerMap: { ffn_0: 1 } as unknown as Record<string, string> });
    const times = await c.request<CmdqLayerTimesResult>('npuTrace/cmdqLayerTimes', {});
    assert.equal(times.trace, 'llm-layer.trace.jsonl');
    assert.deepEqual(times.layers.map((l) => [l.layer_id, l.span_cycles]), [['0', 9461], ['1', 9611]]);
    assert.deepEqual(times.layerMap, { ffn_0: '1' }, 'a number in the map names the trace layer as a string');
    // Entry 2 (line 5) is in ffn_0 → trace layer 1: its first command (cmd 11, enqueued on line 1689) starts on line 1690 (1-based), where the timeline's item is.
    assert.deepEqual(await c.request('npuTrace/cmdqTimelineTarget', { uri: CMDQ, position: at(5, 'TE_GEMM_TILE') }), { ok: true, trace, line: 1689, layer: '1' });
    const none = await c.request<{ ok: boolean; reason: string }>('npuTrace/cmdqTimelineTarget', { uri: CMDQ, position: at(6, 'VE_LAYERNORM_TILE') });
    assert.deepEqual(none, { ok: false, reason: 'llm-layer.trace.jsonl has no CMD_ENQUEUE of layer ffn_0_ln' });
    // Back: trace layer 1 is the CMDQ's ffn_0, whose first entry is 0 (its id on line 3).
    assert.deepEqual(await c.request('npuTrace/cmdqEntryOfLayer', { layer: '1' }), { ok: true, uri: CMDQ, range: { start: at(3, '0,', 0), end: at(3, '0,', 1) } });
    assert.deepEqual(await c.request('npuTrace/cmdqEntryOfLayer', { layer: 0 }), { ok: false, reason: 'no open CMDQ has an entry of layer 0' });
  });
});
