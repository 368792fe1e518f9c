import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FAULTY_EXAMPLE, GOOD_EXAMPLE, faultyExample, goodExample } from '../gen/exampleTraces';
import { traceLines, writeTrace } from '../gen/genTrace';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli.js');

interface Report { file: string; diagnostics: { range: { start: { line: number } }; code: string; severity: string }[] }

function check(...files: string[]): { status: number | null; reports: Report[] } {
  const r = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', ...files], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.ok(r.stdout, `no output from the CLI: ${r.stderr}`);
  return { status: r.status, reports: JSON.parse(r.stdout) as Report[] };
}

test('the committed examples are what the generator writes (run `npm run examples` after changing it)', () => {
  assert.equal(readFileSync(join(ROOT, GOOD_EXAMPLE), 'utf8'), `${goodExample().join('\n')}\n`);
  assert.equal(readFileSync(join(ROOT, FAULTY_EXAMPLE), 'utf8'), `${faultyExample().lines.join('\n')}\n`);
});

test('the good example is a few thousand events of every engine and passes the checker with no diagnostic', () => {
  const text = readFileSync(join(ROOT, GOOD_EXAMPLE), 'utf8');
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length >= 2000 && lines.length <= 5000, `${lines.length} lines`);
  for (const t of ['CMD_ENQUEUE', 'DMA_START', 'TE_START', 'VE_START', 'SRAM_ACCESS', 'SRAM_CONFLICT', 'DRAM_TX_START', 'NOC_TX_START', 'IRQ_EMIT', 'TOKEN_COMPLETE']) {
    assert.ok(text.includes(`"event_type":"${t}"`), `no ${t} in the good example`);
  }
  for (const p of ['LN1', 'QKV_PROJ', 'ATTENTION_SCORE', 'ATTENTION_APPLY', 'MLP', 'LN2']) assert.ok(text.includes(`"phase":"${p}"`), `no phase ${p}`);
  const { status, reports } = check(GOOD_EXAMPLE);
  assert.deepEqual(reports[0].diagnostics, []);
  assert.equal(status, 0);
});

test('the faulty example gives exactly the planted diagnostics, at least ten distinct codes', () => {
  const { mistakes } = faultyExample();
  const { status, reports } = check(FAULTY_EXAMPLE);
  const got = reports[0].diagnostics.map((d) => `${d.range.start.line} ${d.code} ${d.severity}`).sort();
  assert.deepEqual(got, mistakes.map((m) => `${m.line} ${m.code} ${m.severity}`).sort());
  assert.ok(new Set(mistakes.map((m) => m.code)).size >= 10);
  assert.equal(status, 1);
});

test('the generator writes exactly N valid events, the same bytes for the same seed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gentrace-'));
  try {
    const a = join(dir, 'a.trace.jsonl');
    const r = await writeTrace(a, { events: 7001, seed: 9, layers: 3 });
    assert.equal(r.events, 7001);
    const text = readFileSync(a, 'utf8');
    assert.equal(text.split('\n').length - 1, 7001);
    assert.equal(r.bytes, Buffer.byteLength(text));
    assert.equal([...traceLines({ events: 7001, seed: 9, layers: 3 })].join('\n') + '\n', text);
    assert.notEqual([...traceLines({ events: 50, seed: 10 })].join('\n'), [...traceLines({ events: 50, seed: 9 })].join('\n'));
    const { status, reports } = check(a);
    assert.deepEqual(reports[0].diagnostics, []);
    assert.equal(status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
