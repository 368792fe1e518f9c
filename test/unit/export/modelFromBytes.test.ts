import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { splitLines } from '../../../core/common/lines';
import { NpuTimelineBuilder } from '../../../core/trace/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { FAULTY_EXAMPLE, GOOD_EXAMPLE } from '../../gen/exampleTraces';
import { traceLines } from '../../gen/genTrace';

// The export's model pass and the timeline worker read NPU trace lines from bytes
// (flatEventOfBytes); the model, and with the Summary's metrics on their numbers, must be the ones
// the parsed lines give, line for line, whatever the line holds.
const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

function both(lines: readonly string[], metrics = false): [TimelineModel, TimelineModel] {
  const parsed = new NpuTimelineBuilder({ metrics });
  const bytes = new NpuTimelineBuilder({ metrics });
  lines.forEach((l, n) => {
    parsed.addLine(l, n);
    const b = Buffer.from(`${l}\n`, 'utf8');
    bytes.addLineBytes(b, 0, b.length - 1, n, decode);
  });
  return [parsed.finish(), bytes.finish()];
}

function assertSame([a, b]: [TimelineModel, TimelineModel]): void {
  assert.deepEqual(b.strings, a.strings);
  assert.deepEqual(b.tracks, a.tracks);
  assert.deepEqual(b.ctxAttrs, a.ctxAttrs);
  assert.deepEqual(b.items, a.items);
  assert.deepEqual(b.counters, a.counters);
  assert.equal(b.nsPerCycle, a.nsPerCycle);
  assert.equal(b.undrawable, a.undrawable);
  assert.equal(b.lineCount, a.lineCount);
  assert.deepEqual(b.stats, a.stats);
}

test('the byte reader gives the model of the parsed lines: generated trace and the examples', () => {
  assertSame(both([...traceLines({ events: 20_000, seed: 7 })]));
  for (const f of [GOOD_EXAMPLE, FAULTY_EXAMPLE]) assertSame(both(splitLines(readFileSync(f, 'utf8'))));
});

test('the byte reader gives the model of the parsed lines on every field kind it reads', () => {
  const lines = [
    '{"event_type":"TRACE_META","clock_ghz":2}',
    '{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":1,"cmd_type":"MATMUL","phase":7,"layer_id":true,"block_id":false,"tenant_id":"t","model_name":1.5e3,"npu_id":1,"core_id":2}',
    '{"event_type":"CMD_START","t_cycle":2,"cmd_id":1}',
    '{"event_type":"JOB_ISSUE","t_cycle":3,"cmd_id":1,"job_id":5,"job_type":"TE_TILE"}',
    '{"event_type":"TE_START","t_cycle":4,"cmd_id":1,"job_id":5,"op_type":"GEMM","phase":"Ünïcode"}',
    '{"event_type":"TE_END","t_cycle":9,"job_id":5,"status":"FAIL"}',
    '{"event_type":"DMA_START","t_cycle":5,"cmd_id":1,"tx_id":9007199254740993,"channel":3,"size_bytes":4096,"direction":"H2D"}',
    '{"event_type":"DMA_END","t_cycle":8,"tx_id":9007199254740993}',
    '{"event_type":"NOC_TX_START","t_cycle":5,"tx_id":4,"link_id":1,"direction":"a\\"b"}',
    '{"event_type":"NOC_TX_END","t_cycle":6.5,"tx_id":4,"t_ns":"x"}',
    '{"event_type":"ERROR","t_cycle":7,"component":"DMA","code":"E42","cmd_id":1}',
    '{"event_type":"WARN","t_cycle":7,"component":"DMA","code":"W1","cmd_id":1,"cmd_id":2}',
    '{"event_type":"JOB_DONE","t_cycle":10,"job_id":5,"npu_id":-1}',
    '{"event_type":"CMD_END","t_cycle":11,"cmd_id":1,"extra":{"nested":[1,2,{"x":"}"}]}}',
    '{"event_type":"IRQ_EMIT","t_cycle":1e1,"cmd_id":1}',
    '{"event_type":"VE_START","t_cycle":12,"job_id":6,"core_id":1.5}',
    '  {"event_type":"VE_END","t_cycle":13,"job_id":6}  ',
    '',
    'not json',
    '[1,2]',
    '{"event_type":"CMD_START","t_cycle":14,"cmd_id":3',
    '{"event_type":"SRAM_ACCESS","t_cycle":20,"bank_id":1}',
  ];
  assertSame(both(lines));
  const [a, b] = both(lines, true);
  assert.ok(a.stats && a.stats.events > 0, 'the metrics are on');
  assertSame([a, b]);
});

test('with the Summary\'s metrics on, the byte reader feeds them as the parsed lines do (banks, clock, pairs)', () => {
  const lines = [...traceLines({ events: 20_000, seed: 11 })];
  const [a, b] = both(lines, true);
  assert.ok(a.stats && a.stats.events > 0);
  assertSame([a, b]);
  for (const f of [GOOD_EXAMPLE, FAULTY_EXAMPLE]) assertSame(both(splitLines(readFileSync(f, 'utf8')), true));
});
