// The problems of the file itself (FILE_CODES: a cut .gz, bytes after it, a file or line too large
// to read) reach the output and the exit status for every format `check` reads, by one path
// (`withFileProblems`): issue #29 found Chrome traces dropping them (exit 0 on half a file).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { ROOT, runCli } from './run';

/** A file of each format with no problem at --fail-on warning, gzipped under a name `check` reads. */
const SOURCES: [string, string][] = [
  ['chrome.trace.json.gz', 'test/fixtures/real/pytorch/kineto-2021.pt.trace.json'],
  ['npu.trace.jsonl.gz', 'examples/llm-layer.trace.jsonl'],
  ['profiler.inferscope.json.gz', 'test/fixtures/real/inferscope/gpt2_trace.json'],
  ['run.systrace.gz', 'examples/nnapi-mobilenet.systrace'],
  ['queue.cmdq.json.gz', 'examples/golden.cmdq.json'],
  ['android.perfetto-trace.gz', 'test/fixtures/real/perfetto/nnapi-mobilenet.perfetto-trace'],
];

const dir = mkdtempSync(join(tmpdir(), 'npu-file-problems-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `head`, `mb` MB of `fill`, `tail` as a .gz of one member per MB (concatenated members are one
 * stream, as gzip -d reads them): a file of hundreds of MB costs a few hundred KB, made at once.
 */
function bigGz(name: string, head: string, fill: string, mb: number, tail: string): string {
  const block = gzipSync(Buffer.alloc(1 << 20, fill), { level: constants.Z_BEST_COMPRESSION });
  const parts = [gzipSync(head), ...new Array<Buffer>(mb).fill(block), gzipSync(tail)];
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

describe('npu-trace check: the problems of the file, for every format', () => {
  for (const [name, source] of SOURCES) {
    it(`${name} cut in the middle: file.truncated is shown and fails the run`, async () => {
      const gz = gzipSync(readFileSync(join(ROOT, source)));
      const file = join(dir, `cut-${name}`);
      writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
      const r = await runCli(['check', file]);
      assert.match(r.stdout, / error file\.truncated The gzip data ends in the middle of the file/, r.stdout.slice(-500) + r.stderr);
      assert.equal(r.code, 1);
    });

    it(`${name} with bytes after the gzip data: file.trailing-garbage is shown (a warning: it fails --fail-on warning)`, async () => {
      const file = join(dir, `garbage-${name}`);
      writeFileSync(file, Buffer.concat([gzipSync(readFileSync(join(ROOT, source))), Buffer.from('not gzip\n')]));
      const r = await runCli(['check', '--fail-on', 'warning', file]);
      assert.match(r.stdout, / warning file\.trailing-garbage Bytes after the end of the gzip data \(from byte \d+ of the file\)/, r.stdout.slice(-500) + r.stderr);
      assert.equal(r.code, 1);
      const d = await runCli(['check', file]);
      assert.equal(d.code, 0, 'a warning alone passes the default --fail-on error');
    });
  }

  // Each format's limit on what it reads: an InferScope trace, a Chrome trace (read in pieces,
  // not lines, since #31) and a Perfetto trace are read as they stream, whatever their size or
  // lines, so they have none.
  it('a Chrome trace with a line over 500 MB: read to its end (a problem after the 501 MB is found), no file.too-large', async () => {
    const file = bigGz('huge-line.trace.json.gz', '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},', ' ', 501, '{"ph":"X","name":"b","pid":1,"tid":1,"ts":2,"dur":-1}]}\n');
    const r = await runCli(['check', file]);
    assert.doesNotMatch(r.stdout, /file\.too-large/, r.stdout.slice(-500) + r.stderr);
    assert.match(r.stdout, /:1:\d+ error chrome\.negative-dur "dur" is negative \(-1\): X event "b"/, r.stdout.slice(-500) + r.stderr);
    assert.equal(r.code, 1);
  });

  it('a CMDQ over 64 MB: file.too-large, exit 1', async () => {
    const file = bigGz('huge.cmdq.json.gz', '{"cmdq":[', ' ', 65, ']}\n');
    const r = await runCli(['check', file]);
    assert.match(r.stdout, /:1:1 error file\.too-large The file is 65 MB \(2 lines\), over the 64 MB a document read whole may have/, r.stdout.slice(-500) + r.stderr);
    assert.equal(r.code, 1);
  });

  it('an NPU trace and a systrace with a line over --max-line-bytes: the line is reported (an error, a warning), the rest checked', async () => {
    const trace = join(dir, 'long.trace.jsonl');
    const lines = readFileSync(join(ROOT, 'examples/llm-layer.trace.jsonl'), 'utf8').split('\n');
    lines.splice(3, 0, `{"event_type":"NOTE","t_cycle":1,"pad":"${'a'.repeat(5000)}"}`);
    writeFileSync(trace, lines.join('\n'));
    const t = await runCli(['check', '--max-line-bytes', '4096', trace]);
    assert.match(t.stdout, /:4:1 error trace\.line-too-long /, t.stdout.slice(-500) + t.stderr);
    assert.equal(t.code, 1);
    const sys = join(dir, 'long.systrace');
    const rows = readFileSync(join(ROOT, 'examples/nnapi-mobilenet.systrace'), 'utf8').split('\n');
    rows.splice(5, 0, `# ${'x'.repeat(5000)}`);
    writeFileSync(sys, rows.join('\n'));
    const s = await runCli(['check', '--fail-on', 'warning', '--max-line-bytes', '4096', sys]);
    assert.match(s.stdout, /:6:1 warning nnapi\.line-too-long /, s.stdout.slice(-500) + s.stderr);
    assert.equal(s.code, 1);
  });

  it('a problem of the file is shown past --max-problems (the cap never hides that half the file is missing)', async () => {
    const gz = gzipSync(readFileSync(join(ROOT, 'examples/faulty.trace.jsonl')));
    const file = join(dir, 'cut-faulty.trace.jsonl.gz');
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length * 0.9)));
    const r = await runCli(['check', '--max-problems', '1', file]);
    const codes = r.stdout.trim().split('\n').map((l) => / \w+ ([a-z.-]+) /.exec(l)?.[1]);
    assert.deepEqual([codes[0], codes.at(-1)], ['too-many-problems', 'file.truncated'], r.stdout);
    assert.equal(codes.length, 3);
    assert.equal(r.code, 1);
  });
});
