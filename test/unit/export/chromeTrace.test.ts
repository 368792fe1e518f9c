// The Chrome Trace exporter over the timeline model, on small traces whose every event is known.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { buildTimeline } from '../../../core/detectFormat';
import { ChromeTraceExporter } from '../../../core/export/chromeTrace';

const ROOT = join(__dirname, '..', '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/chrome/chrome-trace.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

interface Ev { ph: string; name?: string; cat?: string; pid?: number; tid?: number; ts?: number; dur?: number; id?: number; bp?: string; s?: string; args?: Record<string, unknown> }
interface Doc { displayTimeUnit: string; otherData: Record<string, string>; traceEvents: Ev[] }

/** Exports lines the way the CLI does (model, then a second pass over the lines), parsed back. */
export function exportLines(fileName: string, lines: string[], passLines = true): { doc: Doc; text: string } {
  const m = buildTimeline(fileName, lines)!;
  const e = new ChromeTraceExporter(m, { source: fileName });
  let text = e.head();
  if (passLines) lines.forEach((l, i) => (text += e.line(l, i)));
  text += e.tail();
  const doc = JSON.parse(text) as Doc;
  assert.ok(validate(doc), JSON.stringify(validate.errors?.slice(0, 3)));
  return { doc, text };
}

const ev = (o: Record<string, unknown>) => JSON.stringify(o);
const NPU = [
  ev({ event_type: 'TRACE_META', version: '1.0', clock_ghz: 2 }),
  ev({ event_type: 'CMD_ENQUEUE', t_cycle: 0, cmd_id: 7, cmd_type: 'MATMUL', phase: 'QKV', npu_id: 0, core_id: 1 }),
  ev({ event_type: 'CMD_START', t_cycle: 10, cmd_id: 7 }),
  ev({ event_type: 'JOB_ISSUE', t_cycle: 20, job_id: 70, cmd_id: 7, job_type: 'GEMM' }),
  ev({ event_type: 'TE_START', t_cycle: 30, job_id: 70, cmd_id: 7 }),
  '{"event_type":"DMA_START","t_cycle":32,"tx_id":5,"channel":0,"cmd_id":7,"size_bytes":4096,"src_addr":18446744073709551615}',
  ev({ event_type: 'DMA_START', t_cycle: 34, tx_id: 6, channel: 0, cmd_id: 7, size_bytes: 4096 }),
  ev({ event_type: 'DMA_END', t_cycle: 40, tx_id: 5, channel: 0 }),
  ev({ event_type: 'DRAM_TX_START', t_cycle: 41, tx_id: 6, channel: 1, size_bytes: 4096 }),
  ev({ event_type: 'DRAM_TX_END', t_cycle: 44, tx_id: 6, channel: 1 }),
  ev({ event_type: 'DMA_END', t_cycle: 45, tx_id: 6, channel: 0 }),
  ev({ event_type: 'IRQ_EMIT', t_cycle: 46, cmd_id: 7 }),
  ev({ event_type: 'TE_END', t_cycle: 50, job_id: 70 }),
  ev({ event_type: 'JOB_DONE', t_cycle: 60, job_id: 70 }),
  ev({ event_type: 'CMD_END', t_cycle: 70, cmd_id: 7, status: 'OK' }),
];

describe('Chrome Trace export of an NPU trace', () => {
  const { doc, text } = exportLines('t.trace.jsonl', NPU);
  const evs = doc.traceEvents;
  const x = (name: string) => evs.find((e) => e.ph === 'X' && e.name === name)!;
  const thread = (e: Ev) => evs.find((m) => m.ph === 'M' && m.name === 'thread_name' && m.pid === e.pid && m.tid === e.tid)!.args!.name;

  it('names processes and threads with M events', () => {
    assert.deepEqual(evs.filter((e) => e.name === 'process_name').map((e) => e.args!.name), ['NPU 0']);
    assert.ok(evs.some((e) => e.name === 'thread_sort_index'));
    assert.equal(thread(x('MATMUL')), 'Core 1 / Commands');
    assert.equal(thread(x('GEMM')), 'Core 1 / Jobs');
  });

  it('writes spans as X in µs through the TRACE_META clock (2 GHz: 1 cycle = 0.5 ns)', () => {
    assert.equal(doc.displayTimeUnit, 'ns');
    assert.match(doc.otherData.clock, /1 cycle = 0\.5 ns/);
    const cmd = x('MATMUL');
    assert.equal(cmd.ts, 0.005);
    assert.equal(cmd.dur, 0.03);
    assert.equal(cmd.cat, 'command');
  });

  it('puts the source fields of both lines in args, 64-bit numbers with their digits', () => {
    const cmd = x('MATMUL');
    assert.equal(cmd.args!.line, 3);
    assert.equal(cmd.args!.end_line, 15);
    assert.deepEqual(cmd.args!.end_event, { event_type: 'CMD_END', t_cycle: 70, cmd_id: 7, status: 'OK' });
    assert.ok(text.includes('"src_addr":18446744073709551615'));
  });

  it('writes instants as i with thread scope', () => {
    const irq = evs.find((e) => e.ph === 'i')!;
    assert.equal(irq.name, 'IRQ_EMIT');
    assert.equal(irq.s, 't');
    assert.equal(irq.ts, 0.023);
  });

  it('links command → job → TE and DMA → DRAM with s/f flows on the slices they bind to', () => {
    const flows = evs.filter((e) => e.ph === 's');
    const pairs = flows.map((s) => {
      const f = evs.find((e) => e.ph === 'f' && e.id === s.id)!;
      assert.equal(f.bp, 'e');
      return s.name;
    });
    assert.deepEqual(pairs.sort(), ['DMA → DRAM', 'command → DMA', 'command → DMA', 'command → job', 'job → TE'].sort());
    const toTe = flows.find((s) => s.name === 'job → TE')!;
    const f = evs.find((e) => e.ph === 'f' && e.id === toTe.id)!;
    // Each end 1 ns inside its slice (test/unit/export/flows.test.ts: why, and the binding).
    const te = x('TE');
    assert.deepEqual([f.pid, f.tid, f.ts], [te.pid, te.tid, te.ts! + 0.001]);
    const job = x('GEMM');
    assert.deepEqual([toTe.pid, toTe.tid, toTe.ts], [job.pid, job.tid, job.ts! + 0.001]);
  });

  it('gives crossing transfers of one channel their own threads, since a thread nests', () => {
    const dmas = evs.filter((e) => e.ph === 'X' && e.cat === 'DMA');
    assert.equal(dmas.length, 2);
    assert.notEqual(dmas[0].tid, dmas[1].tid);
    assert.deepEqual(dmas.map(thread).sort(), ['Core 1 / DMA ch 0', 'Core 1 / DMA ch 0 (2)']);
  });

  it('writes the utilization and bandwidth counters as C events', () => {
    const cs = evs.filter((e) => e.ph === 'C');
    assert.ok(cs.some((e) => e.name === 'Core 1 / TE utilization' && e.args!.utilization === 1));
    assert.ok(cs.some((e) => e.name === 'Core 1 / DMA bandwidth' && (e.args!.bytes_per_cycle as number) > 0));
  });

  it('writes the same events without a line pass (args then lack the source fields)', () => {
    const bare = exportLines('t.trace.jsonl', NPU, false).doc.traceEvents;
    const count = (es: Ev[], ph: string) => es.filter((e) => e.ph === ph).length;
    for (const ph of ['X', 'i', 's', 'f', 'C', 'M']) assert.equal(count(bare, ph), count(evs, ph), ph);
  });
});

describe('Chrome Trace export of other timelines', () => {
  it('says 1 cycle = 1 µs when the trace has no clock', () => {
    const { doc } = exportLines('t.trace.jsonl', NPU.slice(1));
    assert.match(doc.otherData.clock, /1 cycle = 1 µs/);
    assert.equal(doc.traceEvents.find((e) => e.name === 'MATMUL')!.dur, 60);
  });

  it('re-exports Chrome JSON with each event as args when it has its own line, never a whole one-line file', () => {
    const { doc } = exportLines('x.trace.json', ['{"traceEvents": [', '  {"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":5,"dur":2,"args":{"correlation":9}},', '  {"ph":"i","name":"mark","pid":0,"tid":7,"ts":6}', ']}']);
    const k = doc.traceEvents.find((e) => e.name === 'k')!;
    assert.deepEqual([k.ts, k.dur, k.args!.line], [5, 2, 2]);
    assert.deepEqual((k.args!.event as { args: unknown }).args, { correlation: 9 });
    const one = exportLines('y.trace.json', ['[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1}]']).doc;
    assert.deepEqual(one.traceEvents.filter((e) => e.ph === 'X').map((e) => Object.keys(e.args!)), [['line'], ['line']]);
  });

  it('exports an NNAPI systrace in µs, nested scopes on one thread, the row as args', () => {
    const lines = readFileSync(join(ROOT, 'examples/nnapi-mobilenet.systrace'), 'utf8').split('\n');
    const { doc } = exportLines('x.systrace', lines);
    const xs = doc.traceEvents.filter((e) => e.ph === 'X');
    const po = xs.find((e) => e.name === 'mobilenet')!;
    const compile = xs.find((e) => e.name === 'compile')!;
    assert.equal(po.ts, 100000000);
    assert.equal(compile.dur, 9000);
    assert.deepEqual([compile.pid, compile.tid], [po.pid, po.tid]);
    assert.match((compile.args!.event as { text: string }).text, /B\|100\|\[NN_LR_PC\]compile/);
    assert.equal(doc.traceEvents.find((e) => e.name === 'process_name' && e.pid === po.pid)!.args!.name, 'Process 100');
  });
});
