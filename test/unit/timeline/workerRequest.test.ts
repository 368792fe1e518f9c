// The timeline worker bundle (dist/, built by `npm run build`) builds the same model from an edited
// document's transferred bytes as from the file on disk, and the bytes leave the host (transferred).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { encodeLines } from '../../../client/timeline/encodeLines';
import type { BuildReport, BuildRequest } from '../../../protocol/timelineWorker';
import type { TimelineModel } from '../../../core/timeline/model';
import { splitLines } from '../../../core/common/lines';
import { gzipSync } from 'node:zlib';
import { inferscopeTrace, pretty } from '../../gen/inferscopeGen';
import { kinetoTrainingTrace } from '../../gen/kinetoTraining';

const WORKER = resolve(__dirname, '../../../dist/timelineWorker.js');
const FIXTURE = resolve(__dirname, '../../fixtures/timeline/llama-layer.trace.jsonl');

function build(req: BuildRequest, transfer: ArrayBuffer[] = [], env: Record<string, string> = {}, worker = WORKER): Promise<TimelineModel> {
  return new Promise((ok, fail) => {
    const w = new Worker(worker, { workerData: req, transferList: transfer, env: { ...process.env, ...env } });
    w.on('message', (r: BuildReport) => {
      if (r.kind === 'done') { ok(r.model); void w.terminate(); }
      if (r.kind === 'error') { fail(new Error(r.message)); void w.terminate(); }
    });
    w.on('error', fail);
  });
}

test('the worker builds the same model from transferred bytes as from the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-req-'));
  try {
    const text = readFileSync(FIXTURE, 'utf8');
    const file = join(dir, 'a.trace.jsonl');
    writeFileSync(file, text);
    const lines = splitLines(text);
    const bytes = encodeLines(lines.length, (i) => lines[i]);
    const fromBytes = await build({ kind: 'bytes', fileName: 'a.trace.jsonl', bytes }, [bytes.buffer as ArrayBuffer]);
    assert.equal(bytes.byteLength, 0, 'the bytes were transferred, not copied');
    const fromFile = await build({ kind: 'file', fileName: 'a.trace.jsonl', path: file });
    assert.ok(fromFile.items.start.length > 0);
    assert.deepEqual(fromBytes, fromFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an InferScope trace on disk, plain or gzipped, pretty or compact, is read as text and gives the model its document does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-req-'));
  try {
    const t = inferscopeTrace({ requests: 40, kernels: 3 });
    // A name cut across read pieces must come out whole; a BOM is not part of the text.
    (t.events as Record<string, unknown>[])[3].name = 'copy_入力_'.repeat(20000);
    for (const [name, text] of [['p.inferscope.json', `\uFEFF${pretty(t)}`], ['c.inferscope.json', JSON.stringify(t)]]) {
      const lines = splitLines(text.replace(/^\uFEFF/, ''));
      const bytes = encodeLines(lines.length, (i) => lines[i]);
      const fromBytes = await build({ kind: 'bytes', fileName: name, bytes }, [bytes.buffer as ArrayBuffer]);
      assert.ok(fromBytes.items.start.length > 400);
      const plain = join(dir, name);
      writeFileSync(plain, text);
      writeFileSync(`${plain}.gz`, gzipSync(text));
      for (const f of [plain, `${plain}.gz`]) assert.deepEqual(await build({ kind: 'file', fileName: f, path: f }), fromBytes, f);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Chrome trace on disk: the worker bundle reads its last part on a thread of its own (the reader bundle beside it), to the model of one thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-req-'));
  try {
    const file = join(dir, 'train.pt.trace.json');
    writeFileSync(file, kinetoTrainingTrace({ steps: 2, layers: 2 }).text);
    const req: BuildRequest = { kind: 'file', fileName: 'train.pt.trace.json', path: file };
    const two = await build(req, [], { NPU_TIMELINE_READ_MIN: '0' });
    const one = await build(req, [], { NPU_TIMELINE_READ_THREAD: '0' });
    assert.ok(one.items.start.length > 100);
    assert.deepEqual(two, one);
    // The reader the worker starts is the bundle beside it: a stand-in there is what it runs.
    const bundles = join(dir, 'dist');
    mkdirSync(bundles);
    copyFileSync(WORKER, join(bundles, 'timelineWorker.js'));
    writeFileSync(join(bundles, 'timelineReadWorker.js'), "require('node:worker_threads').parentPort.postMessage({ error: 'the stand-in reader ran' });");
    await assert.rejects(build(req, [], { NPU_TIMELINE_READ_MIN: '0' }, join(bundles, 'timelineWorker.js')), /the stand-in reader ran/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
