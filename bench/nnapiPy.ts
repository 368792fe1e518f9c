// Issue #13's NNAPI row: `npu-trace nnapi-stats` against AOSP's reference Python parser
// (frameworks/ml/nn/tools/systrace_parser/parse_systrace.py), one fresh process per call as a CI
// script runs them. The parser is not in this repository (licence): the bench runs only when
// NPU_BENCH_NNAPI_PY names a local copy of parse_systrace.py (its `parser/` package beside it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fmt, median, REPO, row } from './util';

const CLI = join(REPO, 'dist/cli.js');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const FLAG_SETS = [[], ['--total-times'], ['--per-execution']];

interface Run { ms: number; cpuMs: number; code: number | null; stdout: string }

/** One fresh process: wall from spawn to exit, user + system CPU from /usr/bin/time. */
function once(cmd: string, args: string[], cwd: string): Run {
  const t = performance.now();
  const r = spawnSync(TIME ?? cmd, TIME ? ['-f', 'cpu %U %S', cmd, ...args] : args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  return { ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, code: r.status, stdout: r.stdout ?? '' };
}

function systraces(): string[] {
  const fixtures = join(REPO, 'test/fixtures/nnapi');
  const examples = join(REPO, 'examples');
  return [
    ...readdirSync(fixtures).filter((n) => /\.(systrace|atrace)(\.html)?$/.test(n)).map((n) => join(fixtures, n)),
    ...readdirSync(examples).filter((n) => /\.systrace$/.test(n)).map((n) => join(examples, n)),
  ];
}

export async function run(): Promise<void> {
  console.log('\n## nnapi-stats against the reference Python parser (fresh process per call, alternating)');
  const py = process.env.NPU_BENCH_NNAPI_PY;
  if (!py || !existsSync(py)) {
    console.log(`  skipped: set NPU_BENCH_NNAPI_PY to AOSP's frameworks/ml/nn/tools/systrace_parser/parse_systrace.py${py ? ` (${py} does not exist)` : ''}`);
    return;
  }
  const python = process.env.NPU_BENCH_PYTHON ?? 'python3';
  const rounds = Math.max(1, Number(process.env.NPU_BENCH_NNAPI_PY_ROUNDS ?? 3));
  const files = systraces();
  const cases = files.flatMap((f) => FLAG_SETS.map((flags) => [...flags, f]));
  const ours = (args: string[]) => once(process.execPath, [CLI, 'nnapi-stats', ...args], REPO);
  const theirs = (args: string[]) => once(python, [py, ...args], dirname(py));
  // The whole CLI bundle, as every command loaded it before nnapi-stats got its own: old vs new in one run.
  const full = (args: string[]) => once(process.execPath, [join(REPO, 'dist/cliMain.js'), 'nnapi-stats', ...args], REPO);

  // Same output where the reference accepts the file; where it aborts (nesting rules) we print the
  // numbers and diagnostics instead, so those pairs are only counted.
  let same = 0;
  let refused = 0;
  const differ: string[] = [];
  for (const args of [...cases, ...files.map((f) => ['--json', f])]) {
    const a = ours(args);
    const b = theirs(args);
    if (b.code !== 0) refused++;
    else if (a.stdout === b.stdout) same++;
    else differ.push(args.join(' '));
  }
  row(`stdout identical where the reference succeeds (${cases.length + files.length} calls)`, `${same} same, ${differ.length} differ`, `${refused} refused by the reference (exit ≠ 0)`);
  for (const d of differ.slice(0, 10)) console.log(`    differs: ${d}`);

  // Alternate within each case and reverse the order every round, so load drifts hit both.
  type Who = 'ours' | 'theirs' | 'full';
  const totals: Record<Who, { ms: number; cpu: number }>[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = { ours: { ms: 0, cpu: 0 }, theirs: { ms: 0, cpu: 0 }, full: { ms: 0, cpu: 0 } };
    for (const args of cases) {
      const order: Who[] = r % 2 === 0 ? ['ours', 'theirs', 'full'] : ['full', 'theirs', 'ours'];
      for (const who of order) {
        const x = who === 'ours' ? ours(args) : who === 'theirs' ? theirs(args) : full(args);
        t[who].ms += x.ms;
        t[who].cpu += x.cpuMs;
      }
    }
    totals.push(t);
  }
  const m = (who: Who, k: 'ms' | 'cpu') => median(totals.map((t) => t[who][k]));
  const label = `${files.length} systraces × ${FLAG_SETS.length} flag sets = ${cases.length} processes`;
  row(`nnapi-stats, ${label}: wall / CPU (median of ${rounds} rounds)`, `${fmt(m('ours', 'ms'))} / ${fmt(m('ours', 'cpu'))} ms`);
  row(`reference parse_systrace.py, the same ${cases.length} calls: wall / CPU`, `${fmt(m('theirs', 'ms'))} / ${fmt(m('theirs', 'cpu'))} ms`, 'target: ours faster');
  row(`the same ${cases.length} calls loading the whole CLI bundle (before): wall / CPU`, `${fmt(m('full', 'ms'))} / ${fmt(m('full', 'cpu'))} ms`);
  row('ratio ours ÷ reference: wall / CPU', `${fmt(m('ours', 'ms') / m('theirs', 'ms'), 2)} / ${fmt(m('ours', 'cpu') / m('theirs', 'cpu'), 2)}`);
}
