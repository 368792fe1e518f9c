// The editor's "Export as Parquet…" without VS Code: the CLI's worker bundle (dist/, built by
// `npm run build`) exports into the chosen folder all or nothing, read back by DuckDB.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportParquetInto, ParquetExportCancelled, parquetRunOf } from '../../../node/export/parquetInto';
import { progressSteps, type ProgressStep } from '../../../client/timeline/parquetProgress';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/exportParquetWorker.js');
const EXAMPLE = join(ROOT, 'examples/llm-layer.trace.jsonl');

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'parquet-editor-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

test('the open file is exported as the CLI names it, valid Parquet, with no temporary folder left', async () => {
  const out = join(dir, 'ok');
  mkdirSync(out);
  const r = await exportParquetInto(WORKER, EXAMPLE, out);
  assert.equal(r.dir, join(out, 'llm-layer'));
  assert.deepEqual(r.rows, { events: 3370, spans: 1380, commands: 20 });
  assert.deepEqual(readdirSync(out), ['llm-layer']);
  assert.deepEqual(readdirSync(r.dir).sort(), ['commands.parquet', 'events.parquet', 'spans.parquet']);
  const db = await (await DuckDBInstance.create()).connect();
  for (const [t, n] of Object.entries(r.rows)) {
    const [row] = (await db.runAndReadAll(`SELECT count(*) AS n, min(run) AS run FROM '${join(r.dir, `${t}.parquet`)}'`)).getRowObjects();
    assert.deepEqual(row, { n: BigInt(n), run: 'llm-layer' }, t);
  }
});

test('Cancel stops the worker mid-export and leaves the folder as it was (an older export untouched)', async () => {
  const src = join(dir, 'big.trace.jsonl');
  writeFileSync(src, readFileSync(EXAMPLE, 'utf8').repeat(100));
  const out = join(dir, 'cancel');
  mkdirSync(join(out, 'big'), { recursive: true });
  writeFileSync(join(out, 'big', 'events.parquet'), 'older export');
  const stop = new AbortController();
  // Cancel once the worker has begun writing its tables (a partial table exists), as a user would.
  const watch = setInterval(() => {
    const tmp = readdirSync(out).find((f) => f.startsWith('.npu-trace-parquet-'));
    if (tmp && readdirSync(join(out, tmp), { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('events.parquet'))) stop.abort();
  }, 10);
  try {
    await assert.rejects(exportParquetInto(WORKER, src, out, stop.signal), ParquetExportCancelled);
  } finally {
    clearInterval(watch);
  }
  assert.equal(stop.signal.aborted, true);
  assert.deepEqual(readdirSync(out), ['big']);
  assert.deepEqual(readdirSync(join(out, 'big')), ['events.parquet']);
  assert.equal(readFileSync(join(out, 'big', 'events.parquet'), 'utf8'), 'older export');
});

test('a file without Parquet tables fails with the reason and leaves nothing', async () => {
  const out = join(dir, 'fail');
  mkdirSync(out);
  await assert.rejects(exportParquetInto(WORKER, join(ROOT, 'examples/golden.cmdq.json'), out), /no Parquet tables for this file type/);
  assert.deepEqual(readdirSync(out), []);
});

test('a run is named after the file, never "." or empty', () => {
  assert.equal(parquetRunOf('/a/b/x.trace.jsonl.gz'), 'x');
  assert.equal(parquetRunOf('/a/b/.trace.jsonl'), 'trace');
  assert.equal(parquetRunOf('/a/b/m.systrace'), 'm.systrace');
});

test('the notification moves with the bytes the worker has read: increments that add up to 100', async () => {
  const src = join(dir, 'progress.trace.jsonl');
  writeFileSync(src, readFileSync(EXAMPLE, 'utf8').repeat(8));
  const out = join(dir, 'progress');
  mkdirSync(out);
  const seen: { bytesRead: number; size: number }[] = [];
  const step = progressSteps();
  const steps: ProgressStep[] = [];
  await exportParquetInto(WORKER, src, out, undefined, (p) => {
    seen.push(p);
    const s = step(p);
    if (s) steps.push(s);
  });
  const size = statSync(src).size;
  assert.ok(seen.length >= 3, `${seen.length} progress messages`);
  assert.ok(seen.every((p, i) => p.size === size && (i === 0 || p.bytesRead > seen[i - 1].bytesRead)));
  assert.equal(seen[seen.length - 1].bytesRead, size);
  assert.ok(steps.every((s) => s.increment > 0));
  assert.equal(steps.reduce((a, s) => a + s.increment, 0), 100);
  assert.match(steps[steps.length - 1].message, /^100% \([\d.]+ of [\d.]+ MB\)$/);
});

test('an NNAPI systrace is read twice (its analysis, then its timeline): each pass is half of the progress', async () => {
  const out = join(dir, 'progress-nnapi');
  mkdirSync(out);
  const step = progressSteps();
  const increments: number[] = [];
  const r = await exportParquetInto(WORKER, join(ROOT, 'examples/nnapi-mobilenet.systrace'), out, undefined, (p) => {
    const s = step(p);
    if (s) increments.push(s.increment);
  });
  assert.deepEqual(Object.keys(r.rows), ['slices', 'nnapi_runs', 'nnapi_scopes']);
  // The example is one read chunk: the analysis pass ends at 50%, the timeline pass at 100%.
  assert.deepEqual(increments, [50, 50]);
});
