// The parallel trace check (cli/parallelCheck.ts) against the one-thread check of the built CLI:
// the same files, cut into few or many chunks on three worker threads, must print byte for byte
// what one thread prints and exit alike. Chunking is forced on small files by environment
// variables, so every kind of line (and line end) lands on a chunk boundary somewhere.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { faultyExample } from '../gen/exampleTraces';
import { traceLines } from '../gen/genTrace';
import { eventLine, traceLine } from '../unit/trace/lineGen';
import { CLI, ROOT, runCli, type Run } from './run';

let dir = '';
before(() => {
  assert.ok(existsSync(CLI) && existsSync(join(ROOT, 'dist', 'checkWorker.js')), 'dist/ is missing: run npm run build first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'trace-parallel-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The built CLI with extra environment (the chunking of the parallel check). */
const runWith = (env: Record<string, string>, args: string[]): Promise<Run> => runCli(args, ROOT, env);

const ONE_THREAD = { NPU_CHECK_THREADS: '0' };
/**
 * Rounds of a few thousand bytes with batches of 3 records (batches end and grow inside chunks),
 * and of one byte (every line starts a chunk); the main thread and three workers claim them in
 * turn. The third split lets no thread be ahead of the merge (each waits for the chunk before it).
 */
const SPLITS: Record<string, string>[] = [
  { NPU_CHECK_CHUNK: '4000', NPU_CHECK_THREADS: '3', NPU_CHECK_PARALLEL_MIN: '0' },
  { NPU_CHECK_CHUNK: '1', NPU_CHECK_THREADS: '3', NPU_CHECK_PARALLEL_MIN: '0' },
  { NPU_CHECK_CHUNK: '300', NPU_CHECK_THREADS: '3', NPU_CHECK_PARALLEL_MIN: '0', NPU_CHECK_AHEAD: '1' },
];

const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
/** Lines joined by random line ends (CR, LF, CRLF, mixed), with or without a final one and a BOM. */
const withEnds = (lines: fc.Arbitrary<string[]>) => fc.tuple(lines, fc.infiniteStream(lineEnd), fc.boolean(), fc.boolean())
  .map(([ls, ends, finalEol, bom]) => {
    const it = ends[Symbol.iterator]();
    const s = ls.map((l) => l + it.next().value).join('');
    return (bom ? '\uFEFF' : '') + (finalEol ? s : s.replace(/(\r\n|\r|\n)$/, ''));
  });
const oneEnd = (lines: fc.Arbitrary<string[]>) => fc.tuple(lines, lineEnd).map(([ls, e]) => ls.join(e) + e);

/** A real trace (generator) with some lines broken or moved, so every cross-line check fires somewhere. */
const damaged = fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.array(fc.tuple(fc.nat(), traceLine), { maxLength: 12 }))
  .map(([s, edits]) => {
    const ls = [...traceLines({ events: 300, seed: s })];
    for (const [at, l] of edits) ls.splice(at % ls.length, 1, l);
    return ls;
  });

function texts(): string[] {
  const sample = <T>(a: fc.Arbitrary<T>, n: number) => fc.sample(a, { numRuns: n, seed });
  return [
    ...sample(withEnds(fc.array(traceLine, { maxLength: 60 })), 60),
    ...sample(withEnds(fc.array(eventLine, { minLength: 20, maxLength: 80 })), 30),
    ...sample(oneEnd(damaged), 12),
    ...sample(withEnds(damaged), 8),
    // Long lines (over --max-line-bytes 250 below), a line nesting too deep, a lone CR before a chunk's last '\n'.
    ...sample(withEnds(fc.array(fc.oneof(traceLine, fc.constantFrom(`{"event_type":"IRQ_EMIT","t_cycle":1,"pad":"${'x'.repeat(400)}"}`,
      `{"event_type":"IRQ_EMIT","t_cycle":2,"x":${'['.repeat(10_001)}}`, '{"event_type":"IRQ_EMIT","t_cycle":3}\r\r\n')), { maxLength: 30 })), 20),
    `${faultyExample().lines.join('\n')}\n`,
  ];
}

/** The first file whose output differs, with both outputs: the whole output is too long to read. */
function firstDifference(one: string, par: string): string {
  const a = one.split(/\n(?= {2}\{\n {4}"file")/), b = par.split(/\n(?= {2}\{\n {4}"file")/);
  const i = a.findIndex((x, k) => x !== b[k]);
  return `one thread:\n${a[i]}\nparallel:\n${b[i]}`;
}

describe('npu-trace check: the parallel path prints what one thread prints', () => {
  let files: string[] = [];
  before(() => {
    files = texts().map((t, i) => {
      const f = join(dir, `t${i}.trace.jsonl`);
      writeFileSync(f, t);
      return f;
    });
  });

  for (const args of [[], ['--max-problems', '3'], ['--max-line-bytes', '250'], ['--format', 'text', '--max-problems', '1']]) {
    it(`${args.join(' ') || 'default options'}: output byte-identical, same exit status (seed ${seed})`, async () => {
      const all = ['check', '--format', 'json', ...args, ...files];
      const one = await runWith(ONE_THREAD, all);
      assert.equal(one.stderr, '');
      assert.ok(one.stdout.includes('trace.unmatched-start') || args.includes('text'), 'the samples have cross-line problems');
      for (const split of SPLITS) {
        const par = await runWith(split, all);
        assert.equal(par.stderr, '', `seed ${seed}`);
        if (par.stdout !== one.stdout) assert.fail(`seed ${seed}, ${JSON.stringify(split)}: ${firstDifference(one.stdout, par.stdout)}`);
        assert.equal(par.code, one.code);
      }
    });
  }

  it('exit status per file under --max-problems 1 (an error hidden by the cap still fails)', async () => {
    for (const f of [...files.slice(0, 14), files[files.length - 1]]) {
      const one = await runWith(ONE_THREAD, ['check', '--max-problems', '1', f]);
      const par = await runWith(SPLITS[0], ['check', '--max-problems', '1', f]);
      assert.deepEqual([par.code, par.stdout], [one.code, one.stdout], `${f}, seed ${seed}`);
    }
  });
});

describe('npu-trace check: the parallel path at its own sizes', () => {
  it('a 40 MB trace with faults (the default chunks, one worker): the one-thread output', async () => {
    const lines = [...traceLines({ events: 190_000, seed: 7 })];
    // Faults all over, in chunks of both threads and across batch ends: lost ENDs, time going back, a broken line.
    for (let i = 1000; i < lines.length; i += 4999) {
      if (i % 3 === 0) lines[i] = lines[i].replace(/_END"/, '_ENDX"');
      else if (i % 3 === 1) lines[i] = lines[i].replace(/"t_cycle":(\d+)/, '"t_cycle":1');
      else lines[i] = lines[i].slice(0, 40);
    }
    const f = join(dir, 'big.trace.jsonl');
    writeFileSync(f, `${lines.join('\r\n')}\r\n`);
    const args = ['check', '--format', 'json', '--max-problems', '100000', f];
    const one = await runWith(ONE_THREAD, args);
    const par = await runWith({ NPU_CHECK_THREADS: '1' }, args);
    assert.ok((JSON.parse(one.stdout) as { diagnostics: unknown[] }[])[0].diagnostics.length > 30);
    assert.equal(par.stderr, '');
    if (par.stdout !== one.stdout) assert.fail(firstDifference(one.stdout, par.stdout));
    assert.equal(par.code, one.code);
  });
});


describe('npu-trace stats: the parallel path (cli/parallelStats.ts) prints what one thread prints', () => {
  let files: string[] = [];
  before(() => {
    // Some of every kind of sample above: random lines and line ends, damaged real traces, long lines, the faulty example.
    const all = texts();
    files = [...all.slice(0, 6), ...all.slice(60, 63), ...all.slice(90, 96), ...all.slice(102, 105), ...all.slice(110, 113), all[all.length - 1]].map((t, i) => {
      const f = join(dir, `s${i}.trace.jsonl`);
      writeFileSync(f, t);
      return f;
    });
  });

  it(`stats --json, and with a window: output and exit status byte-identical (seed ${seed})`, async () => {
    for (const [i, f] of files.entries()) {
      const args = i % 3 === 2 ? ['stats', '--json', '--from', '150', '--to', '900', f] : ['stats', '--json', f];
      const one = await runWith(ONE_THREAD, args);
      assert.equal(one.code, 0, `${f}: ${one.stderr}`);
      for (const split of SPLITS) {
        const par = await runWith(split, args);
        assert.deepEqual([par.code, par.stderr, par.stdout], [one.code, one.stderr, one.stdout], `${f}, seed ${seed}, ${JSON.stringify(split)}`);
      }
    }
  });

  it('a 40 MB trace with faults, ids beyond 2^53 and a line over the 8 MB limit (the default chunks, one worker): the one-thread output and warning', async () => {
    const lines = [...traceLines({ events: 190_000, seed: 11 })];
    for (let i = 1000; i < lines.length; i += 4999) {
      if (i % 3 === 0) lines[i] = lines[i].replace(/_END"/, '_ENDX"');
      else if (i % 3 === 1) lines[i] = lines[i].replace(/"(cmd|job|tx)_id":(\d+)/, '"$1_id":1234567890123456789$2');
      else lines[i] = lines[i].slice(0, 40);
    }
    lines.splice(120_000, 0, `{"event_type":"IRQ_EMIT","t_cycle":5,"pad":"${'x'.repeat(9 << 20)}"}`);
    const f = join(dir, 'big-stats.trace.jsonl');
    writeFileSync(f, `${lines.join('\n')}\n`);
    for (const args of [['stats', '--json', f], ['stats', f]]) {
      const one = await runWith(ONE_THREAD, args);
      const par = await runWith({ NPU_CHECK_THREADS: '1' }, args);
      assert.match(one.stderr, /1 line over 8 MB skipped \(the first is line 120001\)/);
      assert.deepEqual([par.code, par.stderr, par.stdout], [one.code, one.stderr, one.stdout]);
    }
  });
});
