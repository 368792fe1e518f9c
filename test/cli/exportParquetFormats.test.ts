// The Parquet tables of the formats beside NPU traces (NNAPI systraces, InferScope traces), exported
// by the bundled CLI and read back with DuckDB against each format's own summary command.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ROOT, runCli } from './run';

let dir = '';
let db: DuckDBConnection;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquet-formats-'));
  db = await (await DuckDBInstance.create()).connect();
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await db.runAndReadAll(sql)).getRowObjects();
}

async function types(file: string): Promise<Record<string, unknown>> {
  return Object.fromEntries((await rows(`DESCRIBE SELECT * FROM '${file}'`)).map((r) => [r.column_name, r.column_type]));
}

async function exportTo(out: string, ...files: string[]): Promise<string> {
  const r = await runCli(['export', ...files, '--to', 'parquet', '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  return r.stderr;
}

type Cells = Record<string, Record<string, number | null | Record<string, number | null>>>;
interface RunJson { starting_mark: string; execution_counts: { PO: number; PWU: number; PBM: number }; times: Cells; self_times: Cells }

describe('export --to parquet: NNAPI systraces as nnapi_runs and nnapi_scopes', () => {
  for (const file of ['examples/nnapi-mobilenet.systrace', 'test/fixtures/nnapi/benchmark.systrace']) {
    it(`has every run and every times/self_times cell of nnapi-stats --json (${file})`, async () => {
      const out = join(dir, 'nnapi-' + file.length);
      const stderr = await exportTo(out, file);
      const run = file.split('/').pop()!;
      assert.match(stderr, /\d+ slices, \d+ nnapi_runs, \d+ nnapi_scopes/);
      const s = await runCli(['nnapi-stats', '--json', file]);
      const want = JSON.parse(s.stdout) as RunJson[];
      assert.ok(want.length >= 1);
      const runs = await rows(`SELECT * FROM '${out}/${run}/nnapi_runs.parquet' WHERE complete ORDER BY run_index`);
      assert.deepEqual(runs.map((r) => [r.run, r.starting_mark, { PO: r.executions_po, PWU: r.executions_pwu, PBM: r.executions_pbm }]),
        want.map((w) => [run, w.starting_mark, w.execution_counts]));
      assert.deepEqual(await types(`${out}/${run}/nnapi_runs.parquet`), {
        run: 'VARCHAR', run_index: 'INTEGER', starting_mark: 'VARCHAR', start_line: 'BIGINT', complete: 'BOOLEAN', violations: 'INTEGER',
        has_warmup_and_benchmark: 'BOOLEAN', executions_po: 'INTEGER', executions_pwu: 'INTEGER', executions_pbm: 'INTEGER',
      });
      assert.deepEqual(await types(`${out}/${run}/nnapi_scopes.parquet`), {
        run: 'VARCHAR', run_index: 'INTEGER', starting_mark: 'VARCHAR', app_phase: 'VARCHAR', phase: 'VARCHAR', layer: 'VARCHAR', total_ms: 'DOUBLE', self_ms: 'DOUBLE',
      });
      const cells = await rows(`SELECT s.* FROM '${out}/${run}/nnapi_scopes.parquet' s ORDER BY run_index, app_phase NULLS FIRST, phase, layer`);
      const expected: unknown[] = [];
      runs.forEach((r, k) => {
        const { times, self_times: self } = want[k];
        const add = (ap: string | null, t: Cells | Record<string, Record<string, number | null>>, st: typeof t) => {
          for (const p of Object.keys(t).sort()) {
            if (p === 'PWU' || p === 'PBM') continue;
            for (const l of Object.keys(t[p]).sort()) expected.push([r.run_index, ap, p, l, (t[p] as Record<string, number | null>)[l], (st[p] as Record<string, number | null>)[l]]);
          }
        };
        add(null, times, self);
        if (times.PWU) for (const ap of ['PBM', 'PWU']) add(ap, times[ap] as Cells, self[ap] as Cells);
      });
      assert.deepEqual(cells.map((c) => [c.run_index, c.app_phase, c.phase, c.layer, c.total_ms, c.self_ms]), expected);
      assert.ok(cells.length >= 60);
      assert.equal(cells.some((c) => c.app_phase === 'PBM'), file.includes('benchmark'), 'the warm-up/benchmark split');
    });
  }
});

interface Analysis { summary: Record<string, number> }

describe('export --to parquet: InferScope traces as inferscope_events and inferscope_scopes', () => {
  const FILE = 'examples/llm-requests.inferscope.json';
  let out = '';
  let doc: { events: Record<string, unknown>[]; relationships: { scopes: Record<string, unknown>[] } };
  before(async () => {
    out = join(dir, 'inferscope');
    assert.match(await exportTo(out, FILE), /\d+ slices, 44 inferscope_events, 13 inferscope_scopes/);
    doc = JSON.parse(readFileSync(join(ROOT, FILE), 'utf8')) as typeof doc;
  });

  it('has one typed row per event, the rest as JSON, and the totals of npu-trace analyze', async () => {
    const t = `'${out}/llm-requests.inferscope.json/inferscope_events.parquet'`;
    assert.deepEqual(await types(t.slice(1, -1)), {
      run: 'VARCHAR', index: 'BIGINT', line: 'BIGINT', id: 'VARCHAR', type: 'VARCHAR', name: 'VARCHAR', start_us: 'DOUBLE', end_us: 'DOUBLE', duration_us: 'DOUBLE',
      wall_clock_start: 'VARCHAR', wall_clock_end: 'VARCHAR', thread_id: 'BIGINT', cpu_id: 'INTEGER', call_depth: 'INTEGER', parent_scope: 'VARCHAR',
      device_id: 'INTEGER', stream_id: 'BIGINT', bytes: 'BIGINT', metadata: 'VARCHAR', fields: 'VARCHAR',
    });
    const ev = await rows(`SELECT * FROM ${t} ORDER BY index`);
    assert.deepEqual(ev.map((e) => [e.id, e.type, e.name]), doc.events.map((e) => [e.id, e.type, e.name]));
    const text = readFileSync(join(ROOT, FILE), 'utf8').split('\n');
    for (const e of ev) assert.ok(text[Number(e.line) - 1].includes(`"${e.id as string}"`) || text[Number(e.line)].includes(`"${e.id as string}"`), `line of ${e.id as string}`);
    // Every metadata field is in a typed column or in `metadata`, never lost.
    ev.forEach((e, i) => {
      const m = (doc.events[i].metadata ?? {}) as Record<string, unknown>;
      const back: Record<string, unknown> = e.metadata ? JSON.parse(e.metadata as string) as Record<string, unknown> : {};
      for (const k of ['thread_id', 'cpu_id', 'call_depth', 'parent_scope', 'device_id', 'stream_id', 'bytes']) if (e[k] !== null) back[k] = typeof e[k] === 'bigint' ? Number(e[k]) : e[k];
      assert.deepEqual(back, m, `event ${i}`);
    });
    assert.ok(ev.some((e) => e.type === 'gpu_kernel' && e.stream_id !== null && e.device_id !== null));
    const a = JSON.parse((await runCli(['analyze', '--json', FILE])).stdout) as Analysis;
    // analyze's totals are the union of each type's intervals (kernels of two streams overlap).
    const union = async (type: string) => {
      const iv = await rows(`SELECT start_us, end_us FROM ${t} WHERE type = '${type}' AND end_us > start_us ORDER BY start_us`);
      let total = 0;
      let end = -Infinity;
      for (const { start_us: s, end_us: e } of iv as { start_us: number; end_us: number }[]) {
        total += Math.max(0, e - Math.max(s, end));
        end = Math.max(end, e);
      }
      return total;
    };
    const [span] = await rows(`SELECT max(end_us) - min(start_us) AS e2e FROM ${t} WHERE end_us >= start_us`);
    assert.deepEqual([span.e2e, await union('gpu_kernel'), await union('h2d_copy'), await union('d2h_copy')],
      [a.summary.end_to_end_latency_us, a.summary.total_gpu_time_us, a.summary.total_h2d_us, a.summary.total_d2h_us]);
  });

  it('has one row per scope with its event range and the time range of its events', async () => {
    const sc = await rows(`SELECT * FROM '${out}/llm-requests.inferscope.json/inferscope_scopes.parquet' ORDER BY index`);
    const scopes = doc.relationships.scopes;
    assert.equal(sc.length, scopes.length);
    sc.forEach((s, i) => {
      const w = scopes[i];
      const [a, b] = w.event_range as [number, number];
      const evs = doc.events.slice(a, b + 1);
      const starts = evs.map((e) => (e.timestamp_start_us ?? e.timestamp_us) as number);
      const ends = evs.map((e) => (e.timestamp_end_us ?? e.timestamp_us) as number);
      assert.deepEqual([s.id, s.name, s.parent_id, JSON.parse(s.child_ids as string), s.first_event, s.last_event, s.events, s.start_us, s.end_us, s.dur_us],
        [w.id, w.name, w.parent_id, w.child_ids, BigInt(a), BigInt(b), BigInt(b - a + 1), Math.min(...starts), Math.max(...ends), Math.max(...ends) - Math.min(...starts)], String(w.id));
    });
  });
});

interface KprofJson { lanes: { block: number; group: number; regions: { name: string; event: number; start_ns: number; end_ns: number; dur_ns: number; start_slot: number; end_slot: number }[] }[]; regions: { name: string; count: number; total_ns: number }[] }

describe('export --to parquet: kernel-profiler buffers as kprof_regions', () => {
  for (const file of ['examples/spec.kprof.npy', 'examples/warpspec.kprof.npy']) {
    it(`has every region of every lane of npu-trace kprof --json, and its per-event totals (${file})`, async () => {
      const out = join(dir, 'kprof');
      assert.match(await exportTo(out, file), / -> .*: \d+ kprof_regions, \d+ bytes/);
      const k = JSON.parse((await runCli(['kprof', '--json', file])).stdout) as KprofJson;
      const t = `'${out}/${file.split('/').pop()!}/kprof_regions.parquet'`;
      assert.deepEqual(await types(t.slice(1, -1)), {
        run: 'VARCHAR', launch: 'INTEGER', block: 'INTEGER', group: 'INTEGER', lane: 'INTEGER', event: 'INTEGER', name: 'VARCHAR',
        start: 'BIGINT', end: 'BIGINT', dur: 'BIGINT', start_slot: 'INTEGER', end_slot: 'INTEGER',
      });
      const got = await rows(`SELECT * FROM ${t} ORDER BY lane, end_slot`);
      const want = k.lanes.flatMap((l) => l.regions.map((r) => [0, l.block, l.group, r.event, r.name, r.start_ns, r.end_ns, r.dur_ns, r.start_slot, r.end_slot]));
      assert.deepEqual(got.map((g) => [g.launch, g.block, g.group, g.event, g.name, Number(g.start), Number(g.end), Number(g.dur), g.start_slot, g.end_slot]), want);
      assert.ok(got.length > 10);
      const per = await rows(`SELECT name, count(*) AS n, sum(dur) AS total FROM ${t} GROUP BY event, name ORDER BY event`);
      assert.deepEqual(per.map((p) => [p.name, Number(p.n), Number(p.total)]), k.regions.map((r) => [r.name, r.count, r.total_ns]));
    });
  }
});
