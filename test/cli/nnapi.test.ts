import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const FIX = 'test/fixtures/nnapi';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

type RunJson = { starting_mark: string; self_times: Record<string, Record<string, number | null>>; template_inputs: Record<string, number | null>; execution_counts: Record<string, number> };

describe('npu-trace nnapi-stats', () => {
  it('--json prints one object per run with the hand-derived numbers', () => {
    const r = cli('nnapi-stats', '--json', join(FIX, 'benchmark.systrace'));
    assert.equal(r.status, 0, r.stderr);
    const runs = JSON.parse(r.stdout) as RunJson[];
    assert.deepEqual(runs.map((x) => x.starting_mark), ['B|100|[NN_LA_PO]bench_model', 'B|100|[NN_LA_PO]second']);
    // See test/unit/nnapi/contract.test.ts: self PE LR 17, LA 9; counts PWU 1, PBM 2.
    assert.ok(Math.abs(runs[0].self_times.PE.LR! - 17) < 0.01);
    assert.ok(Math.abs(runs[0].self_times.PE.LA! - 9) < 0.01);
    assert.deepEqual(runs[0].execution_counts, { PBM: 2, PO: 0, PWU: 1 });
  });

  it('--per-execution --total-times divides the benchmark totals by its executions', () => {
    const r = cli('nnapi-stats', '--json', '--per-execution', '--total-times', join(FIX, 'benchmark.systrace'));
    const [run] = JSON.parse(r.stdout) as RunJson[];
    assert.ok(Math.abs(run.template_inputs.LR_PE! - 5.5) < 0.01);
    assert.ok(Math.abs(run.template_inputs.LA_PE! - 8.5) < 0.01);
    const text = cli('nnapi-stats', '--per-execution', join(FIX, 'benchmark.systrace')).stdout;
    assert.match(text, /self-times, ms wall-clock\) +Benchmark/);
  });

  it('prints the text table with the driver and CPU rows', () => {
    const r = cli('nnapi-stats', join(FIX, 'driver.atrace'));
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.split('\n');
    assert.equal(rows[0], 'B|100|[NN_LA_PO]mobilenet');
    const cpu = rows.find((l) => l.startsWith('CPU'))!;
    assert.deepEqual(cpu.trim().split(/\s+/), ['CPU', '-', '-', '4.00', '-', '-', '-', '-', '-', '4.00']);
  });

  it('reads the same numbers from the HTML export as from the text trace', () => {
    const html = cli('nnapi-stats', '--json', join(FIX, 'driver.systrace.html'));
    const text = cli('nnapi-stats', '--json', join(FIX, 'driver.atrace'));
    assert.equal(html.status, 0, html.stderr);
    assert.equal(html.stdout, text.stdout);
  });

  it('reports nesting violations on stderr and exits 1', () => {
    const r = cli('nnapi-stats', join(FIX, 'nesting.systrace'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /nesting\.systrace:7:\d+ error nnapi\.phase-nesting/);
    assert.match(r.stderr, /nesting\.systrace:11:\d+ error nnapi\.layer-nesting/);
  });

  it('says so when a run is incomplete and prints no object for it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    const f = join(dir, 'open.systrace');
    writeFileSync(f, '  NeuralNetworks-100  (  100) [001] ...1   100.000000: tracing_mark_write: B|100|[NN_LR_PP]open\n');
    const r = cli('nnapi-stats', '--json', f);
    assert.equal(r.status, 1);
    assert.deepEqual(JSON.parse(r.stdout), []);
    assert.match(r.stderr, /Incomplete trace, not able to print all statistics/);
  });

  it('exits 2 on unusable arguments', () => {
    assert.equal(cli('nnapi-stats').status, 2);
    assert.equal(cli('nnapi-stats', '--bogus', join(FIX, 'driver.atrace')).status, 2);
    assert.equal(cli('nnapi-stats', 'no/such/file.systrace').status, 2);
  });
});

describe('npu-trace check on systraces', () => {
  it('checks .systrace files with the nnapi codes', () => {
    const r = cli('check', '--format', 'json', join(FIX, 'nesting.systrace'));
    assert.equal(r.status, 1);
    const [res] = JSON.parse(r.stdout) as { diagnostics: { code: string; range: { start: { line: number } } }[] }[];
    assert.deepEqual(res.diagnostics.map((d) => [d.code, d.range.start.line]), [['nnapi.phase-nesting', 6], ['nnapi.layer-nesting', 10]]);
  });

  it('accepts clean traces, HTML exports included, and files starting with # tracer: nop', () => {
    assert.equal(cli('check', join(FIX, 'driver.systrace.html'), join(FIX, 'benchmark.systrace')).status, 0);
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    const f = join(dir, 'capture.txt');
    const row = (t: string, m: string) => `  NeuralNetworks-100  (  100) [001] ...1   ${t}: tracing_mark_write: ${m}\n`;
    writeFileSync(f, '# tracer: nop\n' + row('100.000000', 'B|100|[NN_LR_PP]a') + row('100.001000', 'E') + row('100.002000', 'E'));
    const r = cli('check', f);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /capture\.txt:4:\d+ error nnapi\.unmatched-end/);
  });
});
