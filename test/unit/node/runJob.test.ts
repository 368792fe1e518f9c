// node/jobs/runJob.ts: the one way every one-shot worker is run, cancelled and heard from.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { after, test } from 'node:test';
import { hasIdleWorker, JobCancelled, prestartWorker, runJob } from '../../../node/jobs/runJob';
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

// keepWarm: the worker serves its jobs with node/jobs/serveJobs.ts (test/unit/node/servedWorker.ts,
// bundled here: a worker thread's entry gets no TypeScript loader).
const SERVED = join(dir, 'served.js');
buildSync({ entryPoints: [join(__dirname, 'servedWorker.ts')], outfile: SERVED, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
type Served = { thread: number; jobs: number; held: number };
type ServedMsg = { done: Served } | { fail: string };
const readServed = (m: ServedMsg): JobStep<never, Served> => ('done' in m ? { result: m.done } : { error: new Error(m.fail) });
const served = (req: object, keepWarm = true) => runJob<object, ServedMsg, never, Served>(SERVED, req, { read: readServed, name: 'w', keepWarm });

test('keepWarm: the next job runs on the thread kept from the last one; without it each job has a thread of its own', async () => {
  const a = await served({});
  const b = await served({});
  assert.equal(b.thread, a.thread);
  assert.equal(b.jobs, 2);
  const c = await served({}, false);
  const d = await served({}, false);
  assert.notEqual(c.thread, a.thread);
  assert.notEqual(d.thread, c.thread);
  assert.equal(d.jobs, 1);
  // The kept thread is still there for the next warm job.
  assert.deepEqual(await served({}), { thread: a.thread, jobs: 3, held: 0 });
});

test('keepWarm: a failed job\'s thread is not kept, nor one that left much heap behind', async () => {
  const a = await served({});
  await assert.rejects(served({ fail: true }), /^Error: job \d+ failed$/);
  const b = await served({});
  assert.notEqual(b.thread, a.thread);
  assert.equal(b.jobs, 1);
  const big = await served({ holdMb: 160 });
  assert.equal(big.thread, b.thread);
  assert.ok(big.held > 0);
  // That thread asked to be retired after its result (serveJobs' heap limit), and the host ended it
  // while it was idle: the next job starts a fresh one.
  for (const until = Date.now() + 30_000; hasIdleWorker(SERVED) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
  assert.equal(hasIdleWorker(SERVED), false);
  const c = await served({});
  assert.notEqual(c.thread, b.thread);
  assert.equal(c.jobs, 1);
  // Asked at once, the retiring thread runs the next job, and is ended after it.
  const d = await served({ holdMb: 160 });
  const e = await served({});
  const f = await served({});
  assert.equal(e.thread, d.thread);
  assert.notEqual(f.thread, e.thread);
  assert.equal(f.jobs, 1);
});

test('keepWarm: an idle kept thread does not keep the process alive', () => {
  const script = join(dir, 'exits.ts');
  writeFileSync(script, `import { runJob } from ${JSON.stringify(join(__dirname, '../../../node/jobs/runJob'))};
runJob(${JSON.stringify(SERVED)}, {}, { read: (m: any) => ({ result: m.done }), name: 'w', keepWarm: true }).then((r: any) => console.log('result', r.jobs));
`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 45_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^result 1$/m);
  // Well before the kept thread's idle time (60 s) would end it.
  assert.ok(Date.now() - t0 < 45_000);
});

test('prestartWorker: a thread started ahead waits idle, serves the first job as its first, and is kept for the next', async () => {
  const file = join(dir, 'served-prestart.js');
  writeFileSync(file, readFileSync(SERVED));
  prestartWorker(file);
  assert.equal(hasIdleWorker(file), true);
  prestartWorker(file);
  const a = await runJob<object, ServedMsg, never, Served>(file, {}, { read: readServed, name: 'w', keepWarm: true });
  // Its first job: the thread started with no request ran none before it.
  assert.equal(a.jobs, 1);
  assert.equal(hasIdleWorker(file), true);
  const b = await runJob<object, ServedMsg, never, Served>(file, {}, { read: readServed, name: 'w', keepWarm: true });
  assert.deepEqual([b.thread, b.jobs], [a.thread, 2]);
});
