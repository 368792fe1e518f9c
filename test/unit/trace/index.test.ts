// TraceIndex on the every-event fixture: definitions, END→START pairs, ids → lines.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TraceDocument } from '../../../core/trace/document';
import { documentSymbols, MAX_SYMBOLS } from '../../../core/trace/symbols';
import { fixture } from './helpers';
import { indexShape } from './indexShape';

const doc = TraceDocument.parse(fixture('valid-all-events.trace.jsonl'));
const ix = doc.index;
const shape = indexShape(ix, doc.lines.length);
const typeAt = (i: number) => doc.lines[i].type;

describe('TraceIndex', () => {
  it('definitions: cmd_id → CMD_ENQUEUE, job_id → JOB_ISSUE, tx_id → its first START', () => {
    assert.deepEqual([...shape.definitions.cmd_id], [[42, 1], [43, 2]]);
    assert.deepEqual([...shape.definitions.job_id], [[1001, 4], [1100, 17]]);
    assert.deepEqual([...shape.definitions.tx_id], [[500, 5]]);
    assert.equal(typeAt(5), 'DMA_START');
  });

  it('startOf: every END/DONE line → the START/ISSUE line it closes', () => {
    const pairs = [...shape.startOf].sort((a, b) => a[0] - b[0]).map(([e, s]) => `${typeAt(e)}@${e}→${typeAt(s)}@${s}`);
    assert.deepEqual(pairs, [
      'NOC_TX_END@11→NOC_TX_START@6',
      'DMA_END@12→DMA_START@5',
      'DRAM_TX_END@13→DRAM_TX_START@7',
      'JOB_DONE@14→JOB_ISSUE@4',
      'TE_END@15→TE_START@8',
      'VE_END@19→VE_START@18',
      'JOB_DONE@20→JOB_ISSUE@17',
      'CMD_END@21→CMD_START@16',
      'CMD_END@23→CMD_START@3',
    ]);
  });

  it('byKey / linesOf: every line that carries an id, in file order', () => {
    const withCmd = (id: number) => doc.lines.flatMap((l, i) => (l.obj?.cmd_id === id ? [i] : []));
    assert.deepEqual(ix.linesOf('cmd_id', 42), withCmd(42));
    assert.deepEqual(ix.linesOf('cmd_id', 43), withCmd(43));
    assert.equal(ix.linesOf('cmd_id', 42).length, 16);
    assert.deepEqual(ix.linesOf('job_id', 1100), [17, 18, 19, 20]);
    assert.deepEqual(ix.linesOf('tx_id', 500), [5, 6, 7, 11, 12, 13]);
    assert.deepEqual(ix.linesOf('cmd_id', 7), []);
  });

  it('commands: the CMD_ENQUEUE lines; clock from TRACE_META', () => {
    assert.deepEqual(ix.commands, [1, 2]);
    assert.equal(ix.clockGhz, 1.5);
    assert.equal(TraceDocument.parse('{"event_type":"TRACE_META","version":"1","sim_config":{"clock_mhz":800}}').index.clockGhz, 0.8);
    assert.equal(TraceDocument.parse('{"event_type":"TRACE_META","version":"1"}').index.clockGhz, undefined);
  });

  it('ids beyond 2^53 are keyed by their exact digits', () => {
    const d = TraceDocument.parse([
      '{"event_type":"DMA_START","t_cycle":1,"tx_id":18446744073709551615,"channel":0}',
      '{"event_type":"DMA_START","t_cycle":1,"tx_id":18446744073709551614,"channel":0}',
      '{"event_type":"DMA_END","t_cycle":2,"tx_id":18446744073709551615}',
    ].join('\n'));
    assert.deepEqual(d.index.linesOf('tx_id', '18446744073709551615'), [0, 2]);
    assert.deepEqual([...indexShape(d.index, 3).startOf], [[2, 0]]);
  });

  it('a reopened id pairs each END with the latest START', () => {
    const d = TraceDocument.parse([
      '{"event_type":"CMD_START","t_cycle":1,"cmd_id":1}', '{"event_type":"CMD_END","t_cycle":2,"cmd_id":1}',
      '{"event_type":"CMD_START","t_cycle":3,"cmd_id":1}', '{"event_type":"CMD_END","t_cycle":4,"cmd_id":1}',
      '{"event_type":"CMD_END","t_cycle":5,"cmd_id":1}',
    ].join('\n'));
    assert.deepEqual([...indexShape(d.index, 5).startOf], [[1, 0], [3, 2]]);
  });
});

describe('TraceIndex across edits', () => {
  const text = fixture('valid-all-events.trace.jsonl');

  it('typing, inserting, deleting and multi-cursor edits update the same index: no request rebuilds it', () => {
    const lines = text.split('\n');
    const d = TraceDocument.parse(text);
    const built = d.index;
    lines[3] = lines[3].replace('"cmd_id":42', '"cmd_id":43');
    d.update([{ start: 3, end: 4, newCount: 1 }], (i) => lines[i]);
    assert.equal(d.index, built);
    lines.splice(1, 0, '{"event_type":"IRQ_EMIT","t_cycle":0}');
    d.update([{ start: 1, end: 1, newCount: 1 }], (i) => lines[i]);
    lines.splice(5, 2);
    d.update([{ start: 5, end: 7, newCount: 0 }], (i) => lines[i]);
    lines.splice(8, 0, 'x', 'y');
    lines[0] = lines[0] + ' ';
    d.update([{ start: 0, end: 1, newCount: 1 }, { start: 8, end: 8, newCount: 2 }], (i) => lines[i]);
    assert.equal(d.index, built);
    const fresh = TraceDocument.parse(lines.join('\n'));
    assert.deepEqual(indexShape(d.index, lines.length), indexShape(fresh.index, lines.length));
    assert.deepEqual(documentSymbols(d), documentSymbols(fresh));
  });

  it('the first edit of a document never asked builds the index with it', () => {
    const lines = text.split('\n');
    const d = TraceDocument.parse(text);
    lines.splice(2, 1);
    d.update([{ start: 2, end: 3, newCount: 0 }], (i) => lines[i]);
    const built = d.index;
    lines.splice(2, 1);
    d.update([{ start: 2, end: 3, newCount: 0 }], (i) => lines[i]);
    assert.equal(d.index, built);
    assert.deepEqual(indexShape(d.index, lines.length), indexShape(TraceDocument.parse(lines.join('\n')).index, lines.length));
  });

  it('an edit re-reads the outline label of the command it touched only', () => {
    const lines = text.split('\n');
    const d = TraceDocument.parse(text);
    const before = documentSymbols(d);
    assert.deepEqual(before.map((s) => s.name), ['cmd 42 MATMUL', 'cmd 43 LAYERNORM']);
    const untouched = d.index.entry('cmd_id', 43)!.memo;
    assert.ok(untouched);
    lines[1] = lines[1].replace('"MATMUL"', '"GELU"');
    d.update([{ start: 1, end: 2, newCount: 1 }], (i) => lines[i]);
    assert.equal(d.index.entry('cmd_id', 42)!.memo, undefined);
    assert.equal(d.index.entry('cmd_id', 43)!.memo, untouched);
    assert.deepEqual(documentSymbols(d).map((s) => s.name), ['cmd 42 GELU', 'cmd 43 LAYERNORM']);
  });
});

describe('outline', () => {
  it('is capped while produced: the first 10 000 commands, then one entry for the rest', () => {
    const lines = Array.from({ length: MAX_SYMBOLS + 5 }, (_, i) => `{"event_type":"CMD_ENQUEUE","t_cycle":${i},"cmd_id":${i},"cmd_type":"MATMUL"}`);
    const syms = documentSymbols(TraceDocument.parse(lines.join('\n')));
    assert.equal(syms.length, MAX_SYMBOLS + 1);
    assert.equal(syms[MAX_SYMBOLS - 1].name, `cmd ${MAX_SYMBOLS - 1} MATMUL`);
    const more = syms[MAX_SYMBOLS];
    assert.equal(more.name, '… 5 more commands');
    assert.deepEqual([more.startLine, more.endLine], [MAX_SYMBOLS, MAX_SYMBOLS + 4]);
  });
});
