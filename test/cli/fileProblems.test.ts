// The reader's problems of the file itself (a cut .gz) reach the output and the exit status for
// every format `check` reads as text: issue #29 found Chrome traces dropping them (exit 0 on half a file).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, runCli } from './run';

const SOURCES: [string, string][] = [
  ['chrome.trace.json.gz', 'test/fixtures/real/pytorch/kineto-2021.pt.trace.json'],
  ['npu.trace.jsonl.gz', 'examples/llm-layer.trace.jsonl'],
  ['profiler.inferscope.json.gz', 'test/fixtures/real/inferscope/gpt2_trace.json'],
  ['run.systrace.gz', 'examples/nnapi-mobilenet.systrace'],
];

describe('npu-trace check: a cut .gz of every text format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'npu-cut-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, source] of SOURCES) {
    it(`${name}: file.truncated is shown and fails the run`, async () => {
      const gz = gzipSync(readFileSync(join(ROOT, source)));
      const file = join(dir, name);
      writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
      const r = await runCli(['check', file]);
      assert.match(r.stdout, / error file\.truncated The gzip data ends in the middle of the file/, r.stdout.slice(-500) + r.stderr);
      assert.equal(r.code, 1);
    });
  }
});
