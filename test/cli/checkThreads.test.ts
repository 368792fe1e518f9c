// The parallel check's workers started before the CLI bundle loads (cli/checkThreads.ts): started
// only for `check` or `stats` of a plain trace at the parallel size, and usable for a chunk when taken. That
// the check prints the same with them is parallel.test.ts (its runs of dist/cli.js take them).
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startCheckWorkersEarly, takeEarlyWorker } from '../../cli/checkThreads';
import { newControl } from '../../cli/parallelChunk';
import type { ChunkDone, FileJob, StatsChunk } from '../../protocol/checkWorker';
import { ROOT } from './run';

let dir = '';
let trace = '';
const saved = { ...process.env };
before(() => {
  assert.ok(existsSync(join(ROOT, 'dist', 'checkWorker.js')), 'dist/ is missing: run npm run build first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'check-threads-'));
  trace = join(dir, 'a.trace.jsonl');
  writeFileSync(trace, '{"event_type":"IRQ_EMIT","t_cycle":1}\n{"event_type":"IRQ_EMIT","t_cycle":0}\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  process.env = { ...saved };
  for (let w; (w = takeEarlyWorker());) await w.terminate();
});

/** As the tests of the parallel path: every trace is big enough, one worker. */
const small = (threads = '1') => Object.assign(process.env, { NPU_CHECK_PARALLEL_MIN: '10', NPU_CHECK_THREADS: threads });

describe('workers started early for npu-trace check', () => {
  it('a check of a big enough plain trace starts them; taken, one checks a chunk', async () => {
    small('2');
    startCheckWorkersEarly(['check', '--max-problems', '5', trace]);
    const w = takeEarlyWorker();
    assert.ok(w instanceof Worker);
    assert.ok(takeEarlyWorker() instanceof Worker, 'NPU_CHECK_THREADS=2: two started');
    const done = await new Promise<ChunkDone>((resolve, reject) => {
      w.on('message', (m: { done?: ChunkDone; error?: string }) => (m.done ? resolve(m.done) : reject(new Error(m.error))));
      w.postMessage({ file: trace, bounds: [0, 78], ctl: newControl(), maxAhead: 32, maxProblems: 5, maxLineBytes: 1000 } satisfies FileJob);
    });
    await w.terminate();
    assert.equal(done.lines, 3);
    assert.deepEqual(done.found.map((d) => d.code), ['trace.time-backwards']);
    assert.equal(takeEarlyWorker(), undefined, 'each is taken once');
  });

  it('stats starts them too; taken, one reads a chunk\'s events', async () => {
    small();
    startCheckWorkersEarly(['stats', '--json', trace]);
    const w = takeEarlyWorker();
    assert.ok(w instanceof Worker);
    const done = await new Promise<StatsChunk>((resolve, reject) => {
      w.on('message', (m: { done?: StatsChunk; error?: string }) => (m.done ? resolve(m.done) : reject(new Error(m.error))));
      w.postMessage({ file: trace, bounds: [0, 78], ctl: newControl(), maxAhead: 32, maxProblems: 0, maxLineBytes: 1000, task: 'stats' } satisfies FileJob);
    });
    await w.terminate();
    // Two IRQ_EMITs: counted with their time range, and no rows (nothing else reads them).
    const { events, minT, maxT } = done.rows.counts;
    assert.deepEqual([done.lines, events, minT, maxT, done.rows.count, done.tooLong], [3, 2, 0, 1, 0, []]);
  });

  it('none for another command, a small or gzipped or missing file, or NPU_CHECK_THREADS=0', () => {
    small();
    const gz = join(dir, 'b.trace.jsonl.gz');
    writeFileSync(gz, 'x'.repeat(100));
    for (const argv of [['export', trace], ['check', gz], ['check', join(dir, 'none.trace.jsonl')], ['check', join(dir, 'a.cmdq.json')], ['check']]) {
      startCheckWorkersEarly(argv);
      assert.equal(takeEarlyWorker(), undefined, argv.join(' '));
    }
    process.env.NPU_CHECK_PARALLEL_MIN = '1000';
    startCheckWorkersEarly(['check', trace]);
    assert.equal(takeEarlyWorker(), undefined, 'below the parallel size');
    small('0');
    startCheckWorkersEarly(['check', trace]);
    assert.equal(takeEarlyWorker(), undefined, 'one thread asked for');
  });

  it('one that has died before it is taken is not handed out', async () => {
    small();
    startCheckWorkersEarly(['check', trace]);
    // Ended from outside, through the slot the CLI bundle takes it from, as a crash would end it.
    const slot = (globalThis as Record<symbol, { worker: Worker }[]>)[Symbol.for('npu-trace.checkWorkers')];
    assert.equal(slot.length, 1);
    await slot[0].worker.terminate();
    await new Promise((r) => setImmediate(r));
    assert.equal(takeEarlyWorker(), undefined);
  });
});
