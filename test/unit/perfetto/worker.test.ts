// The timeline worker (dist/timelineWorker.js, `npm run build`) on Perfetto protobuf traces, as the
// read-only timeline editor asks it: the model from the file's bytes (plain, gzipped, or of any name
// by its content), the packets at clicked byte offsets, and the Chrome Trace export.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import type { BuildReport, PacketFields, WorkerRequest } from '../../../protocol/timelineWorker';
import { runCli } from '../../cli/run';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/timelineWorker.js');
const NNAPI = join(ROOT, 'test/fixtures/real/perfetto/nnapi-mobilenet.perfetto-trace');

function run(req: WorkerRequest): Promise<BuildReport> {
  return new Promise((ok, fail) => {
    const w = new Worker(WORKER, { workerData: req });
    w.on('message', (r: BuildReport) => {
      if (r.kind === 'progress' || r.kind === 'preview' || r.kind === 'pass') return;
      ok(r);
      void w.terminate();
    });
    w.on('error', fail);
  });
}

async function model(path: string, fileName = path): Promise<TimelineModel> {
  const r = await run({ kind: 'file', fileName, path });
  if (r.kind !== 'done') throw new Error(JSON.stringify(r));
  return r.model;
}

async function packets(path: string, offsets: number[]): Promise<PacketFields[]> {
  const r = await run({ kind: 'file', fileName: path, path, packets: { offsets } });
  if (r.kind !== 'packets') throw new Error(JSON.stringify(r));
  return r.fields;
}

const names = (m: TimelineModel) => Array.from(m.items.name, (n) => m.strings[n]).sort();

describe('timeline worker: Perfetto protobuf traces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perfetto-worker-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bytes = readFileSync(NNAPI);
  const want = perfettoTimeline(new Uint8Array(bytes));

  it('builds the model from the bytes: plain, gzipped, and a file of any name told by its content', async () => {
    writeFileSync(join(dir, 'a.pftrace.gz'), gzipSync(bytes));
    writeFileSync(join(dir, 'trace'), bytes);
    for (const [path, name] of [[NNAPI, 'nnapi-mobilenet.perfetto-trace'], [join(dir, 'a.pftrace.gz'), 'a.pftrace.gz'], [join(dir, 'trace'), 'trace']]) {
      const m = await model(path, name);
      assert.equal(m.format, 'perfetto', name);
      assert.deepEqual(names(m), names(want), name);
      assert.deepEqual(m.summaryTables, want.summaryTables, name);
      assert.deepEqual(Array.from(m.chars!.char), Array.from(want.chars!.char), name);
    }
    assert.ok(want.summaryTables!.some((t) => t.id === 'runs'), 'the NNAPI timing summary is in the model');
  });

  it('decodes the packets at clicked byte offsets (begin and end of a slice), from the plain and the gzipped file', async () => {
    const k = Array.from(want.items.name).findIndex((n) => want.strings[n] === '[NN_LA_PO]mobilenet');
    const offsets = [want.chars!.char[k], want.chars!.endChar[k]];
    for (const path of [NNAPI, join(dir, 'a.pftrace.gz')]) {
      const [b, e] = await packets(path, offsets);
      assert.deepEqual(b[0], ['byte offset', String(offsets[0])]);
      assert.ok(b.some(([key, v]) => /print\.buf$/.test(key) && v === JSON.stringify('B|100|[NN_LA_PO]mobilenet\n')), JSON.stringify(b));
      assert.ok(e.some(([key, v]) => /print\.buf$/.test(key) && v === JSON.stringify('E\n')), JSON.stringify(e));
    }
  });

  it('hostile files end: a packet claiming 2^60 bytes, a zero-length trace', async () => {
    const huge = join(dir, 'huge.pftrace');
    writeFileSync(huge, new Uint8Array([0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 2, 3]));
    assert.equal((await model(huge)).items.start.length, 0);
    assert.match((await packets(huge, [0]))[0][1][1], /no readable packet/);
    const empty = join(dir, 'empty.perfetto-trace');
    writeFileSync(empty, new Uint8Array(0));
    assert.equal((await model(empty)).items.start.length, 0);
  });

  it('exports what `npu-trace export --to chrome-trace` writes', async () => {
    const cli = join(dir, 'cli.json'), out = join(dir, 'worker.json');
    assert.equal((await runCli(['export', NNAPI, '--to', 'chrome-trace', '-o', cli])).code, 0);
    const r = await run({ kind: 'file', fileName: NNAPI, path: NNAPI, export: { out } });
    assert.equal(r.kind, 'exported');
    assert.equal(readFileSync(out, 'utf8'), readFileSync(cli, 'utf8'));
  });
});
