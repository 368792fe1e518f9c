import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { INFERSCOPE_EXAMPLES } from '../gen/inferscopeExamples';
import { inferscopeTrace, PLANTED_TRACE_CODES } from '../gen/inferscopeGen';
import { PROFILER_FIXTURES } from '../gen/inferscopeProfiler';
import { ROOT, runCli } from './run';

interface Report { file: string; diagnostics: { range: { start: { line: number } }; code: string; severity: string }[] }

async function checkJson(...files: string[]): Promise<{ code: number | null; reports: Report[] }> {
  const r = await runCli(['check', '--format', 'json', ...files]);
  assert.ok(r.stdout, `no output: ${r.stderr}`);
  return { code: r.code, reports: JSON.parse(r.stdout) as Report[] };
}

describe('npu-trace check on InferScope files', () => {
  it('the committed examples are what the generator writes', () => {
    for (const [file, make] of Object.entries(INFERSCOPE_EXAMPLES)) assert.equal(readFileSync(join(ROOT, file), 'utf8'), make(), `${file} is stale`);
  });

  it('the example trace passes; the faulty one reports each planted code, exit 1', async () => {
    const good = await checkJson('examples/llm-requests.inferscope.json');
    assert.deepEqual(good.reports[0].diagnostics, []);
    assert.equal(good.code, 0);
    const bad = await checkJson('examples/faulty.inferscope.json');
    assert.deepEqual([...new Set(bad.reports[0].diagnostics.map((d) => d.code))].sort(), [...PLANTED_TRACE_CODES].sort());
    assert.equal(bad.code, 1);
  });

  it('an analysis result by name, in the text format with file:line:col', async () => {
    const r = await runCli(['check', 'examples/faulty.analysis.json']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^examples\/faulty\.analysis\.json:12:3 warning inferscope\.percent-sum /m);
    assert.match(r.stdout, /:46:19 error inferscope\.confidence-range /);
  });

  it('a compact .json of any name is recognised by its first key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inferscope-'));
    try {
      const f = join(dir, 'run.json');
      const t = inferscopeTrace({ requests: 1 });
      (t.events as Record<string, unknown>[])[0].duration_us = 7;
      writeFileSync(f, JSON.stringify(t));
      const { code, reports } = await checkJson(f);
      assert.deepEqual(reports[0].diagnostics.map((d) => d.code), ['inferscope.duration-mismatch']);
      assert.equal(code, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('analyze: markdown by default, --json the §3.1 result, --report html to a file; bad use exits 2', async () => {
    const md = await runCli(['analyze', 'examples/llm-requests.inferscope.json']);
    assert.equal(md.code, 0);
    assert.match(md.stdout, /^# InferScope Performance Report/);
    assert.match(md.stdout, /\| GPU compute \| 6\.6 ms \| 29% \|/);
    const js = await runCli(['analyze', '--json', 'examples/llm-requests.inferscope.json']);
    const a = JSON.parse(js.stdout) as { analysis_version: string; summary: { end_to_end_latency_us: number } };
    assert.equal(a.analysis_version, '1.0');
    assert.equal(a.summary.end_to_end_latency_us, 22800);
    const dir = mkdtempSync(join(tmpdir(), 'inferscope-'));
    try {
      const out = join(dir, 'r.html');
      const h = await runCli(['analyze', '--report', 'html', '-o', out, 'examples/llm-requests.inferscope.json']);
      assert.equal(h.code, 0);
      assert.equal(h.stdout, '');
      assert.match(readFileSync(out, 'utf8'), /^<!DOCTYPE html>[\s\S]*<svg /);
      // The analysis it writes is checked clean by check.
      const res = join(dir, 'r.analysis.json');
      await runCli(['analyze', '--json', '-o', res, 'examples/llm-requests.inferscope.json']);
      const { code, reports } = await checkJson(res);
      assert.deepEqual(reports[0].diagnostics, []);
      assert.equal(code, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal((await runCli(['analyze', '--report', 'pdf', 'examples/llm-requests.inferscope.json'])).code, 2);
    const wrong = await runCli(['analyze', 'examples/faulty.analysis.json']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /not an InferScope trace/);
  });
});

describe("npu-trace on traces as InferScope's own Profiler writes them", () => {
  /** The committed fixtures under a name the format registry knows by name, plain and gzipped. */
  function copies(dir: string): string[] {
    const out: string[] = [];
    for (const file of Object.keys(PROFILER_FIXTURES)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const base = join(dir, basename(file, '.json'));
      writeFileSync(`${base}.inferscope.json`, text);
      writeFileSync(`${base}.inferscope.json.gz`, gzipSync(text));
      out.push(`${base}.inferscope.json`, `${base}.inferscope.json.gz`);
    }
    return out;
  }

  it('check: no error and no warning on every fixture, plain and .gz; the call tracing stopped in is information', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inferscope-profiler-'));
    try {
      const { code, reports } = await checkJson(...copies(dir));
      assert.equal(code, 0);
      assert.equal(reports.length, 4);
      for (const r of reports) assert.deepEqual(r.diagnostics.map((d) => `${d.severity} ${d.code}`), ['information inferscope.call-open-at-end'], r.file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('analyze: says which layout it read, and finds the GPU-bound run InferScope finds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inferscope-profiler-'));
    try {
      for (const f of copies(dir)) {
        const js = await runCli(['analyze', '--json', f]);
        assert.equal(js.code, 0, js.stderr);
        const a = JSON.parse(js.stdout) as { trace_layout: string; bottleneck: { type: string } };
        assert.equal(a.trace_layout, 'profiler', f);
        assert.equal(a.bottleneck.type, 'gpu_bound', f);
        assert.equal(js.stderr, '');
      }
      const md = await runCli(['analyze', join(dir, 'gpt2_trace.inferscope.json')]);
      assert.match(md.stdout, /^Read as the layout InferScope's Profiler writes \(`\{"events": \[\.\.\.\]\}`\)/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
