// The rows of the Parquet tables (core/export/parquet), before any writer: pairing, row groups,
// and the README's schema tables kept equal to the code's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NpuParquetRows } from '../../../core/export/parquet/npuRows';
import { TABLES, type TableName } from '../../../core/export/parquet/schema';
import { ROW_GROUP_BYTES } from '../../../core/export/parquet/table';

function collect(lines: string[], groupRows?: number): { groups: { table: TableName; rows: Record<string, unknown>[] }[]; all: (t: TableName) => Record<string, unknown>[] } {
  const groups: { table: TableName; rows: Record<string, unknown>[] }[] = [];
  const rows = new NpuParquetRows('r1', (table, cols) => {
    assert.equal(cols.length, TABLES[table].length);
    groups.push({ table, rows: cols[0].map((_, i) => Object.fromEntries(TABLES[table].map((c, j) => [c.name, cols[j][i]]))) });
  }, groupRows);
  lines.forEach((l, i) => rows.addLine(l, i + 1));
  rows.finish();
  return { groups, all: (t) => groups.filter((g) => g.table === t).flatMap((g) => g.rows) };
}

describe('Parquet rows of an NPU trace', () => {
  it('pairs STARTs and ENDs per kind as stats does, with the command phase and layer on every span', () => {
    const { all } = collect([
      '{"event_type":"CMD_ENQUEUE","t_cycle":1,"cmd_id":7,"phase":"FFN","layer_id":2,"cmd_type":"MATMUL","npu_id":1,"core_id":3,"tenant_id":4,"model_name":"m"}',
      '{"event_type":"CMD_START","t_cycle":5,"cmd_id":7}',
      '{"event_type":"JOB_ISSUE","t_cycle":6,"job_id":7,"cmd_id":7}',
      '{"event_type":"TE_START","t_cycle":7,"job_id":7,"cmd_id":7}',
      '{"event_type":"DMA_START","t_cycle":8,"tx_id":7,"channel":2,"size_bytes":100,"direction":"DRAM_TO_SRAM","cmd_id":7}',
      '{"event_type":"DMA_END","t_cycle":12,"tx_id":7}',
      '{"event_type":"TE_END","t_cycle":15,"job_id":7}',
      '{"event_type":"JOB_DONE","t_cycle":16,"job_id":7}',
      '{"event_type":"VE_END","t_cycle":16,"job_id":9}',
      '{"event_type":"CMD_END","t_cycle":20,"cmd_id":7,"status":"OK"}',
      '{"event_type":"NOC_TX_END","t_cycle":3,"tx_id":8}',
      '{"event_type":"NOC_TX_START","t_cycle":9,"tx_id":8,"link_id":1}',
    ]);
    const spans = all('spans').map((s) => [s.kind, s.id, s.resource, s.start, s.end, s.dur, s.phase, s.layer_id, s.size_bytes, s.start_line, s.end_line]);
    assert.deepEqual(spans, [
      ['DMA', 7n, 'dma.ch2', 8n, 12n, 4n, 'FFN', '2', 100n, 5n, 6n],
      ['TE', 7n, 'npu1.core3', 7n, 15n, 8n, 'FFN', '2', null, 4n, 7n],
      ['JOB', 7n, 'npu1.core3', 6n, 16n, 10n, 'FFN', '2', null, 3n, 8n],
      ['CMD', 7n, 'npu1.core3', 5n, 20n, 15n, 'FFN', '2', null, 2n, 10n],
    ]);
    assert.deepEqual(all('commands'), [{
      run: 'r1', cmd_id: 7n, cmd_type: 'MATMUL', npu_id: 1, core_id: 3, tenant_id: 4, model_name: 'm', phase: 'FFN', layer_id: '2', enqueue: 1n, start: 5n, end: 20n,
      queue_wait: 4n, dur: 15n, status: 'OK', jobs: 1, dma_bytes: 100n, enqueue_line: 1n, end_line: 10n,
    }]);
    assert.equal(all('events').length, 12);
  });

  it('hands rows over in row groups as they fill, by rows and by bytes, and the rest at finish', () => {
    const line = (i: number) => `{"event_type":"X","t_cycle":${i}}`;
    const { groups } = collect(Array.from({ length: 10 }, (_, i) => line(i)), 4);
    assert.deepEqual(groups.map((g) => [g.table, g.rows.length]), [['events', 4], ['events', 4], ['events', 2]]);
    const long = `{"event_type":"X","t_cycle":1,"blob":"${'a'.repeat(ROW_GROUP_BYTES / 3)}"}`;
    const big = collect([long, long, long, long, long]);
    assert.deepEqual(big.groups.map((g) => g.rows.length), [3, 2]);
  });

  it('keeps what fits no column in `fields`, and a line that is no object as a row of nulls', () => {
    const { all } = collect(['', '[1]', '{"event_type":"X","t_cycle":1.5,"core_id":"c","cmd_id":1e300,"__proto__":{"a":1},"constructor":2}']);
    const ev = all('events');
    assert.deepEqual(ev.map((e) => [e.line, e.event_type, e.t_cycle, e.core_id, e.cmd_id]), [[2n, null, null, null, null], [3n, 'X', null, null, null]]);
    assert.deepEqual(JSON.parse(ev[1].fields as string), JSON.parse('{"__proto__":{"a":1},"constructor":2,"t_cycle":1.5,"core_id":"c","cmd_id":"1e300"}'));
  });
});

describe('the manual (docs/export.md) documents the Parquet tables as the code writes them', () => {
  it('has one row per column, in order, with its type, unit and meaning', () => {
    const readme = readFileSync(join(__dirname, '../../../docs/export.md'), 'utf8');
    for (const [table, cols] of Object.entries(TABLES)) {
      const at = readme.indexOf(`\`${table}.parquet\`:\n`);
      assert.ok(at >= 0, table);
      const rows = readme.slice(at).split('\n\n')[1].split('\n').slice(2);
      assert.deepEqual(rows, cols.map((c) => `| \`${c.name}\` | ${c.type} | ${c.unit} | ${c.meaning.replaceAll('|', '\\|')} |`), table);
    }
  });
});
