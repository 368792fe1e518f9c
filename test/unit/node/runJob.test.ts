// node/jobs/runJob.ts: the one way every one-shot worker is run, cancelled and heard from.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { JobCancelled, runJob } from '../../../node/jobs/runJob';
import type { JobStep } from '../../../protocol/job';

const dir = mkdtempSync(join(tmpdir(), 'npu-runjob-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A worker script of its own (plain CommonJS, so no loader is needed in the thread). */
function worker(name: string, body: string): string {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, `const { parentPort, workerData } = require('node:worker_threads');\n${body}\n`);
  return file;
}

type Msg = { step: number } | { done: number } | { fail: string };
const read = (m: Msg): JobStep<number, number> => ('step' in m ? { progress: m.step } : 'done' in m ? { result: m.done } : { error: new Error(m.fail) });

test('progress steps arrive in order before the one result, and nothing after it', async () => {
  const file = worker('count', 'for (let i = 0; i < workerData.n; i++) parentPort.postMessage({ step: i }); parentPort.postMessage({ done: workerData.n }); parentPort.postMessage({ step: 99 });');
  const seen: number[] = [];
  const r = await runJob(file, { n: 5 }, { read, onProgress: (p) => seen.push(p), name: 'the counting worker' });
  assert.equal(r, 5);
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
});

test('an error message rejects with the protocol\'s error; a throw rejects with the thrown error', async () => {
  await assert.rejects(runJob(worker('fails', 'parentPort.postMessage({ fail: "not a trace" });'), {}, { read, name: 'w' }), /^Error: not a trace$/);
  await assert.rejects(runJob(worker('throws', 'throw new RangeError("boom");'), {}, { read, name: 'w' }), /boom/);
});

test('a worker that exits without a result says which worker stopped', async () => {
  await assert.rejects(runJob(worker('exits', 'process.exit(3);'), {}, { read, name: 'the timeline worker' }), /^Error: The timeline worker stopped \(exit code 3\)\.$/);
});

test('the signal terminates a running worker and rejects with JobCancelled; an aborted signal rejects at once', async () => {
  const file = worker('spins', 'parentPort.postMessage({ step: 1 }); for (;;) {}');
  const stop = new AbortController();
  const job = runJob(file, {}, { read, signal: stop.signal, onProgress: () => stop.abort(), name: 'w' });
  await assert.rejects(job, JobCancelled);
  await assert.rejects(runJob(file, {}, { read, signal: stop.signal, name: 'w' }), JobCancelled);
});

test('the request reaches the worker as its workerData, transferred buffers moved', async () => {
  const file = worker('sum', 'parentPort.postMessage({ done: new Uint8Array(workerData.bytes.buffer).reduce((a, b) => a + b, 0) });');
  const bytes = new Uint8Array([1, 2, 3, 4]);
  assert.equal(await runJob(file, { bytes }, { read, transfer: [bytes.buffer], name: 'w' }), 10);
  assert.equal(bytes.byteLength, 0, 'the buffer was transferred, not copied');
});
