// The shipped CLI (`dist/cli.js`, built by `npm run build`), not the sources.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, runCli } from './run';

const FIX = 'test/fixtures/nnapi';

async function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runCli(args);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

type RunJson = { starting_mark: string; self_times: Record<string, Record<string, number | null>>; template_inputs: Record<string, number | null>; execution_counts: Record<string, number> };

describe('npu-trace nnapi-stats', () => {
  it('--json prints one object per run with the hand-derived numbers', async () => {
    const r = await cli('nnapi-stats', '--json', join(FIX, 'benchmark.systrace'));
    assert.equal(r.status, 0, r.stderr);
    const runs = JSON.parse(r.stdout) as RunJson[];
    assert.deepEqual(runs.map((x) => x.starting_mark), ['B|100|[NN_LA_PO]bench_model', 'B|100|[NN_LA_PO]second']);
    // See test/unit/nnapi/contract.test.ts: self PE LR 17, LA 9; counts PWU 1, PBM 2.
    assert.ok(Math.abs(runs[0].self_times.PE.LR! - 17) < 0.01);
    assert.ok(Math.abs(runs[0].self_times.PE.LA! - 9) < 0.01);
    assert.deepEqual(runs[0].execution_counts, { PBM: 2, PO: 0, PWU: 1 });
  });

  it('--per-execution --total-times divides the benchmark totals by its executions', async () => {
    const r = await cli('nnapi-stats', '--json', '--per-execution', '--total-times', join(FIX, 'benchmark.systrace'));
    const [run] = JSON.parse(r.stdout) as RunJson[];
    assert.ok(Math.abs(run.template_inputs.LR_PE! - 5.5) < 0.01);
    assert.ok(Math.abs(run.template_inputs.LA_PE! - 8.5) < 0.01);
    const text = (await cli('nnapi-stats', '--per-execution', join(FIX, 'benchmark.systrace'))).stdout;
    assert.match(text, /self-times, ms wall-clock\) +Benchmark/);
  });

  it('prints the text table with the driver and CPU rows', async () => {
    const r = await cli('nnapi-stats', join(FIX, 'driver.atrace'));
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.split('\n');
    assert.equal(rows[0], 'B|100|[NN_LA_PO]mobilenet');
    const cpu = rows.find((l) => l.startsWith('CPU'))!;
    assert.deepEqual(cpu.trim().split(/\s+/), ['CPU', '-', '-', '4.00', '-', '-', '-', '-', '-', '4.00']);
  });

  it('reads the same numbers from the HTML export as from the text trace', async () => {
    const html = await cli('nnapi-stats', '--json', join(FIX, 'driver.systrace.html'));
    const text = await cli('nnapi-stats', '--json', join(FIX, 'driver.atrace'));
    assert.equal(html.status, 0, html.stderr);
    assert.equal(html.stdout, text.stdout);
  });

  it('reports nesting violations on stderr and exits 1', async () => {
    const r = await cli('nnapi-stats', join(FIX, 'nesting.systrace'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /nesting\.systrace:7:\d+ error nnapi\.phase-nesting/);
    assert.match(r.stderr, /nesting\.systrace:11:\d+ error nnapi\.layer-nesting/);
  });

  it('says so when a run is incomplete and prints no object for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    const f = join(dir, 'open.systrace');
    writeFileSync(f, '  NeuralNetworks-100  (  100) [001] ...1   100.000000: tracing_mark_write: B|100|[NN_LR_PP]open\n');
    const r = await cli('nnapi-stats', '--json', f);
    assert.equal(r.status, 1);
    assert.deepEqual(JSON.parse(r.stdout), []);
    assert.match(r.stderr, /Incomplete trace, not able to print all statistics/);
  });

  // Each golden file holds, per option set (`=== nnapi-stats <options>`), the stdout of the built CLI
  // on that fixture at commit 5aa633f (before the CLI and the editor shared one run type): the
  // output must stay byte for byte what it was. A deliberate change regenerates them with
  // `node dist/cli.js nnapi-stats <options> <fixture>` per section.
  for (const golden of readdirSync(join(FIX, 'golden'))) {
    it(`prints byte for byte the golden output of ${golden}`, async () => {
      const fixture = join(FIX, golden.replace(/\.nnapi-stats\.txt$/, ''));
      const sections = readFileSync(join(FIX, 'golden', golden), 'utf8').split(/^=== nnapi-stats (.*)\n/m).slice(1);
      assert.equal(sections.length, 16);
      for (let i = 0; i < sections.length; i += 2) {
        const opts = sections[i].split(' ').filter(Boolean);
        assert.equal((await cli('nnapi-stats', ...opts, fixture)).stdout, sections[i + 1], `nnapi-stats ${sections[i]}`);
      }
    });
  }

  it('loads its own small bundle, not the whole CLI: a fresh process per systrace in CI (issue #13)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    const loaded = join(dir, 'loaded.json');
    const preload = join(dir, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));`);
    const r = await runCli(['nnapi-stats', '--json', join(FIX, 'driver.atrace')], ROOT, { NODE_OPTIONS: `--require ${preload}` });
    assert.equal(r.code, 0, r.stderr);
    const dist = (JSON.parse(readFileSync(loaded, 'utf8')) as string[]).filter((f) => f.startsWith(join(ROOT, 'dist')));
    const bytes = dist.reduce((n, f) => n + statSync(f).size, 0);
    // The full CLI bundle is 1.5 MB; compiling it cost more than the reference parser's whole run.
    assert.ok(bytes < 256 * 1024, `nnapi-stats loaded ${bytes} bytes of dist/: ${dist.join(', ')}`);
    assert.ok(!dist.some((f) => f.endsWith('cliMain.js')), dist.join(', '));
  });

  it('exits 2 on unusable arguments', async () => {
    assert.equal((await cli('nnapi-stats')).status, 2);
    assert.equal((await cli('nnapi-stats', '--bogus', join(FIX, 'driver.atrace'))).status, 2);
    assert.equal((await cli('nnapi-stats', 'no/such/file.systrace')).status, 2);
    const flagValue = await cli('nnapi-stats', '--json=1', join(FIX, 'driver.atrace'));
    assert.equal(flagValue.status, 2);
    assert.match(flagValue.stderr, /^npu-trace nnapi-stats: Option '--json' does not take an argument/);
  });

  it('reads its options with node:util parseArgs, as check and stats do: `--` ends them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    writeFileSync(join(dir, '-dash.systrace'), readFileSync(join(FIX, 'driver.atrace')));
    const r = await runCli(['nnapi-stats', '--json', '--', '-dash.systrace'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, (await cli('nnapi-stats', '--json', join(FIX, 'driver.atrace'))).stdout);
  });
});

describe('npu-trace check on systraces', () => {
  it('checks .systrace files with the nnapi codes', async () => {
    const r = await cli('check', '--format', 'json', join(FIX, 'nesting.systrace'));
    assert.equal(r.status, 1);
    const [res] = JSON.parse(r.stdout) as { diagnostics: { code: string; range: { start: { line: number } } }[] }[];
    assert.deepEqual(res.diagnostics.map((d) => [d.code, d.range.start.line]), [['nnapi.phase-nesting', 6], ['nnapi.layer-nesting', 10]]);
  });

  it('accepts clean traces, HTML exports included, and files starting with # tracer: nop', async () => {
    assert.equal((await cli('check', join(FIX, 'driver.systrace.html'), join(FIX, 'benchmark.systrace'))).status, 0);
    const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
    const f = join(dir, 'capture.txt');
    const row = (t: string, m: string) => `  NeuralNetworks-100  (  100) [001] ...1   ${t}: tracing_mark_write: ${m}\n`;
    writeFileSync(f, '# tracer: nop\n' + row('100.000000', 'B|100|[NN_LR_PP]a') + row('100.001000', 'E') + row('100.002000', 'E'));
    const r = await cli('check', f);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /capture\.txt:4:\d+ error nnapi\.unmatched-end/);
  });
});

describe('npu-trace on systraces with terminal escape sequences in their marks', () => {
  // OSC (retitle the terminal), CSI (erase the line), BEL, C1 CSI: shown as text, never sent.
  const evil = '\u001b]0;pwned\u0007\u001b[2K\u009b31m';
  const row = (t: string, m: string) => `  NeuralNetworks-100  (  100) [001] ...1   ${t}: tracing_mark_write: ${m}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'nnapi-'));
  const f = join(dir, 'evil.systrace');
  writeFileSync(f, row('100.000000', `B|100|[NN_LA_PO]run${evil}`) + row('100.001000', `B|100|[NN_LR_PC]c${evil}`) + row('100.002000', `B|100|[NN_L${evil}_PC]x`)
    + row('100.003000', 'E') + row('100.004000', 'E') + row('100.005000', 'E') + row('100.006000', `B|100|[NN_LR_PP]open${evil}`));
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

  it('nnapi-stats prints the marks and messages with their controls escaped', async () => {
    const r = await cli('nnapi-stats', f);
    assert.equal(r.status, 1);
    assert.ok(!CONTROL.test(r.stdout), JSON.stringify(r.stdout.slice(0, 200)));
    assert.ok(!CONTROL.test(r.stderr), JSON.stringify(r.stderr));
    assert.ok(r.stdout.startsWith('B|100|[NN_LA_PO]run\\x1b]0;pwned\\x07\\x1b[2K\\x9b31m\n'), r.stdout.slice(0, 80));
    // The reference reads the last `[..]` as the tag, and the function name up to the first `]`.
    assert.match(r.stderr, /nnapi\.unknown-tag \[2K\\x9b31m_PC\] is not a tag/);
    assert.match(r.stderr, /open\\x1b \(LR_PP\) on thread 100 is still open at the end of the run started by B\|100\|\[NN_LA_PO\]run\\x1b\]0;pwned\\x07\\x1b\[2K\\x9b31m:/);
  });

  it('check prints the messages with their controls escaped', async () => {
    const r = await cli('check', f);
    assert.equal(r.status, 1);
    assert.ok(!CONTROL.test(r.stdout), JSON.stringify(r.stdout));
    assert.match(r.stdout, /nnapi\.unknown-tag \[2K\\x9b31m_PC\] is not a tag/);
  });
});
