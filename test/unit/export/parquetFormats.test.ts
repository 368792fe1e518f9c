// The rows of the format tables (core/export/parquet) before any writer, on inputs a file can hold.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InferscopeDocument } from '../../../core/inferscope/document';
import { inferscopeRows } from '../../../core/export/parquet/inferscopeRows';
import { TABLES, type TableName } from '../../../core/export/parquet/schema';

function sinkOf(): { sink: (t: TableName, cols: unknown[][]) => void; all: (t: TableName) => Record<string, unknown>[] } {
  const got: { table: TableName; rows: Record<string, unknown>[] }[] = [];
  return {
    sink: (table, cols) => {
      assert.equal(cols.length, TABLES[table].length);
      got.push({ table, rows: cols[0].map((_, i) => Object.fromEntries(TABLES[table].map((c, j) => [c.name, cols[j][i]]))) });
    },
    all: (t) => got.filter((g) => g.table === t).flatMap((g) => g.rows),
  };
}

describe('Parquet rows of an InferScope trace', () => {
  it('types what fits, keeps the rest (a __proto__ key too) as JSON, and a broken element as a row of nulls', () => {
    const text = `{"format_version":"1.0","events":[
{"id":"e0","type":"cpu_call","name":"tok","timestamp_start_us":10,"timestamp_end_us":40,"duration_us":30,"metadata":{"thread_id":1e20,"cpu_id":"two","call_depth":5,"__proto__":{"x":1}},"constructor":2},
{"id":"e1","type":"instant","name":"done","timestamp_us":50,"metadata":{"user_metadata":{"tokens":3}}},
7,
{"id":"e3","type":"gpu_kernel","name":"k","timestamp_start_us":20,"timestamp_end_us":30,"metadata":[1]}
],"relationships":{"scopes":[
{"id":"s0","name":"all","parent_id":null,"child_ids":["s1"],"event_range":[0,3]},
{"id":"s1","name":"bad","parent_id":"s0","child_ids":[],"event_range":[3,1]}
]}}`;
    const { sink, all } = sinkOf();
    const n = inferscopeRows(InferscopeDocument.parse(text), 'r', sink, 2);
    assert.deepEqual(n, { inferscope_events: 4, inferscope_scopes: 2 });
    const ev = all('inferscope_events');
    assert.deepEqual(ev.map((e) => [e.index, e.line, e.id, e.type, e.start_us, e.end_us, e.duration_us]), [
      [0n, 2n, 'e0', 'cpu_call', 10, 40, 30], [1n, 3n, 'e1', 'instant', 50, 50, null], [2n, 4n, null, null, null, null, null], [3n, 5n, 'e3', 'gpu_kernel', 20, 30, null],
    ]);
    assert.deepEqual([ev[0].thread_id, ev[0].cpu_id, ev[0].call_depth], [null, null, 5]);
    assert.deepEqual(JSON.parse(ev[0].metadata as string), JSON.parse('{"thread_id":1e20,"cpu_id":"two","__proto__":{"x":1}}'));
    assert.deepEqual(JSON.parse(ev[0].fields as string), { constructor: 2 });
    assert.deepEqual(JSON.parse(ev[1].metadata as string), { user_metadata: { tokens: 3 } });
    assert.deepEqual([ev[2].metadata, ev[2].fields], [null, null]);
    assert.deepEqual([ev[3].metadata, JSON.parse(ev[3].fields as string)], [null, { metadata: [1] }]);
    const sc = all('inferscope_scopes');
    assert.deepEqual(sc.map((s) => [s.id, s.parent_id, s.child_ids, s.first_event, s.last_event, s.events, s.start_us, s.end_us, s.dur_us]), [
      ['s0', null, '["s1"]', 0n, 3n, 4n, 10, 50, 40],
      ['s1', 's0', '[]', null, null, null, null, null, null],
    ]);
  });
});
