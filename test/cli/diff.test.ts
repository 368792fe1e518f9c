// `npu-trace diff` as users run it: the bundled dist/cli.js in a child process, on pairs from the
// NPU trace generator (test/gen/genTrace.ts) with and without a planted regression.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import type { DiffResult } from '../../core/diff/types';
import { PLANTED_PAIR, writeTrace } from '../gen/genTrace';
import { ROOT, runCli } from './run';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/diff.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

let dir = '';
let base = '', slowed = '', same = '';
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'diff-cli-'));
  base = join(dir, 'base.trace.jsonl');
  slowed = join(dir, 'slowed.trace.jsonl');
  same = join(dir, 'same.trace.jsonl');
  await writeTrace(base, PLANTED_PAIR.base);
  await writeTrace(slowed, PLANTED_PAIR.slower);
  await writeTrace(same, { events: 1e7, commands: 600, seed: 3 });
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function json(args: string[]): Promise<DiffResult> {
  const r = await runCli(['diff', '--json', ...args]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as DiffResult;
  assert.ok(validate(out), JSON.stringify(validate.errors));
  return out;
}

describe('npu-trace diff', () => {
  it('finds the planted phase first, names its test, and its total is the stats figure', async () => {
    const r = await json([base, slowed]);
    assert.equal(r.a.format, 'npu-trace');
    assert.equal(`${r.regressions[0].kind}:${r.regressions[0].key}`, 'phase:MLP');
    assert.ok(r.regressions[0].reported);
    assert.match(r.test.name, /Mann-Whitney U/);
    assert.match(r.test.correction, /Benjamini-Hochberg/);
    const byPhase = await json(['--by', 'phase', base, slowed]);
    assert.deepEqual(byPhase.groups.filter((g) => g.reported).map((g) => g.key), ['MLP']);
    const st = await runCli(['stats', '--json', slowed]);
    const phases = (JSON.parse(st.stdout) as { phases: { phase: string; latency_sum_cycles: number }[] }).phases;
    for (const p of phases) assert.equal(byPhase.groups.find((g) => g.key === p.phase)!.b.total, p.latency_sum_cycles, p.phase);
  });

  it('two runs of the same build report nothing', async () => {
    const r = await json([base, same]);
    assert.deepEqual(r.groups.filter((g) => g.reported || g.significant).map((g) => g.key), []);
    const text = await runCli(['diff', base, same]);
    assert.match(text.stdout, /No significant regression or improvement among \d+ groups compared/);
  });

  it('--fail-on-regression exits 1 on a regression over it and 0 otherwise', async () => {
    const slow = await runCli(['diff', '--fail-on-regression', '5%', base, slowed]);
    assert.equal(slow.code, 1, slow.stderr);
    assert.match(slow.stderr, /regression over 5%: phase MLP took 5\d\.\d% more time/);
    assert.equal((await runCli(['diff', '--fail-on-regression', '5%', base, same])).code, 0);
    // MLP took ~51% more and the run ~20%: under a 60% gate.
    assert.equal((await runCli(['diff', '--fail-on-regression', '60', base, slowed])).code, 0);
    assert.equal((await runCli(['diff', '--fail-on-regression', 'lots', base, slowed])).code, 2);
  });

  it('annotates the regressions on their first line in B (SARIF, GitHub)', async () => {
    const s = await runCli(['diff', '--format', 'sarif', '--by', 'phase', base, slowed]);
    assert.equal(s.code, 0, s.stderr);
    const log = JSON.parse(s.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] };
    assert.deepEqual(log.runs[0].tool.driver.rules.map((r) => r.id), ['diff.regression']);
    const res = log.runs[0].results;
    assert.equal(res.length, 1);
    const line = res[0].locations[0].physicalLocation.region.startLine;
    assert.match(readFileSync(slowed, 'utf8').split('\n')[line - 1], /"phase":"MLP"/);
    const g = await runCli(['diff', '--format', 'github', '--by', 'phase', base, slowed]);
    assert.match(g.stdout, new RegExp(`^::warning file=.*slowed\\.trace\\.jsonl,line=${line},.*title=diff\\.regression::phase "MLP" got slower`));
  });

  it('refuses two formats, a format without times and an unknown --by (exit 2)', async () => {
    const two = await runCli(['diff', base, join(ROOT, 'examples/llm-requests.inferscope.json')]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /A is NPU trace, B is InferScope.*: diff compares two runs of one format/);
    const cmdq = join(ROOT, 'examples/golden.cmdq.json');
    const c = await runCli(['diff', cmdq, cmdq]);
    assert.equal(c.code, 2);
    assert.match(c.stderr, /CMDQ.* cannot be compared: a command queue holds no times/);
    const by = await runCli(['diff', '--by', 'kernel', base, same]);
    assert.equal(by.code, 2);
    assert.match(by.stderr, /grouped by phase, layer, cmd_type, engine/);
    assert.equal((await runCli(['diff', base])).code, 2);
  });

  it('names the file that cannot be read, A here or B in the worker thread (exit 2)', async () => {
    const bad = join(dir, 'bad.trace.jsonl.gz');
    writeFileSync(bad, 'not gzip at all');
    for (const [a, b] of [[bad, base], [base, bad]]) {
      const r = await runCli(['diff', a, b]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^npu-trace diff: .*bad\.trace\.jsonl\.gz: /);
    }
  });

  it('escapes what the files name before the terminal', async () => {
    const ev = (phase: string, cmd: number, t: number, d: number) => [
      { event_type: 'CMD_ENQUEUE', t_cycle: t, cmd_id: cmd, cmd_type: 'MATMUL', phase },
      { event_type: 'CMD_START', t_cycle: t + 1, cmd_id: cmd, phase },
      { event_type: 'CMD_END', t_cycle: t + 1 + d, cmd_id: cmd, phase },
    ];
    const write = (name: string, scale: number) => {
      const lines = Array.from({ length: 40 }, (_, i) => ev('\u001b]0;owned\u0007MLP', i + 1, i * 1000, (100 + (i % 7)) * scale)).flat();
      const f = join(dir, name);
      writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n'));
      return f;
    };
    const r = await runCli(['diff', write('e1.trace.jsonl', 1), write('e2.trace.jsonl', 2)]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Regressions/);
    const controls = [...r.stdout].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'));
    assert.deepEqual(controls, []);
  });
});
