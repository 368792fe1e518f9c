// The timeline worker bundle (dist/, built by `npm run build`) builds the same model from an edited
// document's transferred bytes as from the file on disk, and the bytes leave the host (transferred).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const WORKER = resolve(__dirname, '../../../dist/timelineWorker.js');
const FIXTURE = resolve(__dirname, '../../fixtures/timeline/llama-layer.trace.jsonl');

function build(req: BuildRequest, transfer: ArrayBuffer[] = []): Promise<TimelineModel> {
  return new Promise((ok, fail) => {
    const w = new Worker(WORKER, { workerData: req, transferList: transfer });
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
