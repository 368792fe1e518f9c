// The editor's "Export as Chrome Trace" runs in the timeline worker bundle (dist/, built by
// `npm run build`): from an edited document's bytes or from the file, it writes the same JSON as
// `npu-trace export`, reporting its two passes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { encodeLines } from '../../../client/timeline/encodeLines';
import { exportName } from '../../../client/timeline/exportName';
import { exportRequest, type Readers } from '../../../node/workers/timelineExport';
import type { BuildReport, WorkerRequest } from '../../../protocol/timelineWorker';
import { splitLines } from '../../../core/common/lines';
import { parseWebviewMessage } from '../../../protocol/timeline';
import { forEachLine, forEachLineBytes } from '../../../node/io/lines';
import { runCli } from '../../cli/run';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/timelineWorker.js');
const EXAMPLE = join(ROOT, 'examples/llm-layer.trace.jsonl');

function run(req: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<{ bytes: number; passes: number[] }> {
  return new Promise((ok, fail) => {
    const passes: number[] = [];
    const w = new Worker(WORKER, { workerData: req, transferList: transfer });
    w.on('message', (r: BuildReport) => {
      if (r.kind === 'pass') passes.push(r.pass);
      if (r.kind === 'exported') { ok({ bytes: r.bytes, passes }); void w.terminate(); }
      if (r.kind === 'error') { fail(new Error(r.message)); void w.terminate(); }
    });
    w.on('error', fail);
  });
}

test('the worker exports a document (bytes) and a file to the JSON the CLI writes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'export-worker-'));
  try {
    const cli = join(dir, 'cli.json');
    assert.equal((await runCli(['export', EXAMPLE, '--to', 'chrome-trace', '-o', cli])).code, 0);
    const fromFile = join(dir, 'file.json');
    const r = await run({ kind: 'file', fileName: EXAMPLE, path: EXAMPLE, export: { out: fromFile } });
    assert.deepEqual(r.passes, [1, 2]);
    assert.equal(readFileSync(fromFile, 'utf8'), readFileSync(cli, 'utf8'));
    assert.equal(r.bytes, readFileSync(cli).length);
    const lines = splitLines(readFileSync(EXAMPLE, 'utf8'));
    const bytes = encodeLines(lines.length, (i) => lines[i]);
    const fromBytes = join(dir, 'bytes.json');
    await run({ kind: 'bytes', fileName: EXAMPLE, bytes, export: { out: fromBytes } }, [bytes.buffer as ArrayBuffer]);
    assert.equal(readFileSync(fromBytes, 'utf8'), readFileSync(cli, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The real readers, counting which one each pass of an export used. */
function spies(): { readers: Readers; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    readers: {
      forEachLine: (...a) => (calls.push('text'), forEachLine(...a)),
      forEachLineBytes: (...a) => (calls.push('bytes'), forEachLineBytes(...a)),
    },
  };
}

test('the editor export of a file on disk reads bytes in both passes, as the CLI; an edited document its text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'export-worker-'));
  try {
    const cli = join(dir, 'cli.json');
    assert.equal((await runCli(['export', EXAMPLE, '--to', 'chrome-trace', '-o', cli])).code, 0);
    const fromFile = join(dir, 'file.json');
    const disk = spies();
    const passes: number[] = [];
    let read = 0;
    const bytes = await exportRequest({ kind: 'file', fileName: EXAMPLE, path: EXAMPLE, export: { out: fromFile } }, (p) => passes.push(p), (n) => (read = n), disk.readers);
    assert.deepEqual(disk.calls, ['bytes', 'bytes']);
    assert.deepEqual(passes, [1, 2]);
    assert.equal(read, readFileSync(EXAMPLE).length, 'the model pass reports what it read');
    assert.equal(readFileSync(fromFile, 'utf8'), readFileSync(cli, 'utf8'));
    assert.equal(bytes, readFileSync(cli).length);

    const lines = splitLines(readFileSync(EXAMPLE, 'utf8'));
    const edited = spies();
    const fromBytes = join(dir, 'bytes.json');
    await exportRequest({ kind: 'bytes', fileName: EXAMPLE, bytes: encodeLines(lines.length, (i) => lines[i]), export: { out: fromBytes } }, () => undefined, undefined, edited.readers);
    assert.deepEqual(edited.calls, [], 'an edited document is not read from disk');
    assert.equal(readFileSync(fromBytes, 'utf8'), readFileSync(cli, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the toolbar button sends a message the host accepts; the proposed name says what it holds', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'exportChromeTrace', path: '/etc/passwd' }), { type: 'exportChromeTrace' });
  assert.deepEqual(parseWebviewMessage({ type: 'exportParquet', path: '/etc/passwd' }), { type: 'exportParquet' });
  assert.equal(exportName('run.trace.jsonl.gz'), 'run.chrome.json');
  assert.equal(exportName('app.systrace'), 'app.chrome.json');
  assert.equal(exportName('.trace.jsonl'), 'trace.chrome.json');
});
