// The check of a big Chrome trace in parts on several threads (cli/parallelChrome.ts) against the
// one-thread check of the built CLI: the same output byte for byte and the same exit code, with the
// parts forced on small files. Where the parts start is guessed from the bytes: at true event starts
// (Kineto's pretty-printed layout) every part is merged; where a guess falls inside an event (a
// one-line file whose args hold `},{`), the main thread reads on itself or the one pass runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kinetoTrainingTrace } from '../gen/kinetoTraining';
import { CLI, ROOT, runCli } from './run';

let dir = '';
before(() => {
  assert.ok(existsSync(CLI) && existsSync(join(ROOT, 'dist', 'checkWorker.js')), 'dist/ is missing: run npm run build first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'chrome-parallel-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const ONE = { NPU_CHECK_THREADS: '0' };
const parts = (threads: number) => ({ NPU_CHECK_THREADS: String(threads), NPU_CHECK_PARALLEL_MIN: '0', NPU_CHECK_SHOW_PARTS: '1' });

function file(name: string, text: string): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

/** The parallel check's output and exit code equal the one pass's; what became of each part. */
async function same(f: string, threads: number, extra: string[] = []): Promise<string[]> {
  const one = await runCli(['check', ...extra, f], ROOT, ONE);
  const par = await runCli(['check', ...extra, f], ROOT, parts(threads));
  assert.equal(par.stdout, one.stdout);
  assert.equal(par.code, one.code);
  return [...par.stderr.matchAll(/: part at byte \d+: (\w[\w-]*)/g)].map((m) => m[1]);
}

describe('npu-trace check of a Chrome trace in parts', () => {
  it('a Kineto training trace on 1, 2 and 3 workers: every part merged, the one pass\'s output', async () => {
    const text = kinetoTrainingTrace({ steps: 2, layers: 2 }).text;
    const f = file('train.pt.trace.json', text);
    // Four parts a thread, less the main thread's first: each claimed by whichever thread is free.
    for (const threads of [1, 2, 3]) assert.deepEqual(await same(f, threads), Array(4 * (threads + 1) - 1).fill('merged'));
    // Problems in every part (flows cut, a B left open, an event broken), shown and capped.
    const broken = text.replace(/"ph": "f"/g, (m, at: number) => (at % 3 === 0 ? '"ph": "F"' : m)).replace(/"ts": (\d+)/g, (m, ts: string, at: number) => (at % 11 === 0 ? `"ts": "${ts}"` : m));
    const g = file('broken.pt.trace.json', broken.replace('"traceEvents": [\n', '"traceEvents": [\n  {"ph": "B", "name": "open", "pid": 1, "tid": 1, "ts": 1},\n'));
    for (const threads of [1, 3]) {
      assert.deepEqual(await same(g, threads), Array(4 * (threads + 1) - 1).fill('merged'));
      await same(g, threads, ['--max-problems', '3']);
      await same(g, threads, ['--format', 'json']);
    }
  });

  it('the array form, CRLF line ends, a cut file: the one pass\'s output', async () => {
    const events = JSON.parse(kinetoTrainingTrace({ steps: 1, layers: 2 }).text).traceEvents as unknown[];
    const text = `[\r\n  ${events.map((e) => JSON.stringify(e)).join(',\r\n  ')}\r\n]\r\n`;
    assert.deepEqual(await same(file('array.json', text), 1), Array(7).fill('merged'));
    assert.deepEqual(await same(file('cut.json', text.slice(0, Math.floor(text.length * 0.8))), 1), Array(7).fill('merged'));
  });

  it('guesses inside events (a one-line file whose args hold "},{"): read on, or read again, never wrong', async () => {
    const ev = (i: number) => `{"ph": "X", "name": "k${i}", "pid": 1, "tid": 1, "ts": ${i * 10}, "dur": 5, "args": {"shapes": [{"a": 1},{"b": 2},{"c": ${i}}]}}`;
    const text = `{"traceEvents": [${Array.from({ length: 3000 }, (_, i) => ev(i)).join(',')}]}`;
    const f = file('oneline.json', text);
    for (const threads of [1, 3]) {
      const outcomes = await same(f, threads);
      assert.ok(outcomes.length >= 1 && outcomes.every((o) => o === 'read-on' || o === 'again' || o === 'merged'), outcomes.join());
      // The first guess lands inside an event's args (3 of every 4 `},{` are there): the main thread reads on.
      assert.notEqual(outcomes[0], 'merged');
    }
  });
});
