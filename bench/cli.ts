// The CLI as users run it in CI: a fresh `node dist/cli.js` process per call, timed from spawn to
// exit, with its own peak RSS (read by a preload at exit: "peakKb cpuTime", the peak being Linux's
// VmHWM). Warm in-process numbers are in the format sections; these are the cold ones.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTrace } from '../test/gen/genTrace';
import { cmdqFull, cmdqIndent2, cmdqText } from '../test/gen/cmdqGen';
import { BASELINE, BEFORE_31, baselineCli } from './baseline';
import { dataFile, exists, fmt, loadNow, median, REPO, row } from './util';

const CLI = join(REPO, 'dist/cli.js');
const PRELOAD = join(REPO, 'test/hostile/rss-preload.cjs');

interface Cold {
  ms: number;
  rssMb: number;
  code: number | null;
  /** User + system CPU of the process, all its threads (from /usr/bin/time when there is one). */
  cpuMs: number;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

export function cold(args: string[], nodeArgs: string[] = [], env: Record<string, string> = {}): Cold {
  const dir = mkdtempSync(join(tmpdir(), 'npu-bench-'));
  const rssFile = join(dir, 'rss');
  const t = performance.now();
  const argv = [...nodeArgs, '--require', PRELOAD, ...args];
  const r = spawnSync(TIME ?? process.execPath, TIME ? ['-f', 'cpu %U %S', process.execPath, ...argv] : argv, {
    cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env, NPU_HOSTILE_RSS_FILE: rssFile }, maxBuffer: 64 << 20,
  });
  const ms = performance.now() - t;
  let rssMb = NaN;
  try { rssMb = Number(readFileSync(rssFile, 'utf8').split(' ')[0]) / 1024; } catch { /* died early */ }
  rmSync(dir, { recursive: true, force: true });
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr?.toString() ?? '');
  return { ms, rssMb, code: r.status, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN };
}

/** Median wall and CPU time and the largest peak RSS of `n` fresh processes. */
export function coldN(n: number, args: string[], nodeArgs: string[] = [], env: Record<string, string> = {}): { ms: number; cpuMs: number; rssMb: number; codes: string } {
  const runs = Array.from({ length: n }, () => cold(args, nodeArgs, env));
  return { ms: median(runs.map((r) => r.ms)), cpuMs: median(runs.map((r) => r.cpuMs)), rssMb: Math.max(...runs.map((r) => r.rssMb)), codes: [...new Set(runs.map((r) => r.code))].join(',') };
}

/** Issue #13's yardstick: every line read with readline and given to JSON.parse, nothing else. */
const BARE_LOOP = "const rl = require('node:readline').createInterface({ input: require('node:fs').createReadStream(process.argv[1]), crlfDelay: Infinity });"
  + " let n = 0; rl.on('line', (l) => { try { JSON.parse(l); n++; } catch {} });";

function ensureText(name: string, make: () => string): string {
  const f = dataFile(name);
  if (!exists(f)) writeFileSync(f, make());
  return f;
}

export async function run(): Promise<void> {
  console.log('\n## npu-trace CLI, cold (a fresh process per call, as in CI; median of 3 unless said)');
  const bare = coldN(5, ['-e', '0']);
  row('bare `node -e 0` (median of 5)', `${fmt(bare.ms)} ms`);
  const help = coldN(5, [CLI, '--help']);
  row('`npu-trace --help` (median of 5)', `${fmt(help.ms)} ms`, 'target ≤ 150 ms');
  const one = ensureText('cmdq-2.cmdq.json', () => cmdqText(2));
  const oneRun = coldN(5, [CLI, 'check', one]);
  row('`check` of a two-entry CMDQ (median of 5)', `${fmt(oneRun.ms)} ms`, 'target ≤ 150 ms');

  const compact = ensureText('cmdq-100k.cmdq.json', () => cmdqText(100_000));
  const indent2 = ensureText('cmdq-100k-indent2.cmdq.json', () => cmdqIndent2(100_000));
  for (const [name, f] of [['compact (one entry per line)', compact], ['Python json.dump(indent=2)', indent2]] as const) {
    const mb = readFileSync(f).length / 1e6;
    const r = coldN(5, [CLI, 'check', f]);
    row(`check 100k-entry CMDQ, ${name}, ${fmt(mb, 1)} MB (median of 5): wall / CPU; RSS`, `${fmt(r.ms)} / ${fmt(r.cpuMs)} ms; ${fmt(r.rssMb)} MB`,
      `exit ${r.codes}; ${fmt(r.ms - oneRun.ms)} / ${fmt(r.cpuMs - oneRun.cpuMs)} ms beyond start-up (target ≤ 500)`);
  }

  // Issue #31: the realistic queue (every field of its opcode on every entry, json.dump(indent=2),
  // 29 MB) is the figure that counts; the generator's layouts above stay beside it. Old and new
  // alternate so both see the same load; start-up is the two-entry check of the same side.
  const full = ensureText('cmdq-100k-full.cmdq.json', () => cmdqFull(100_000));
  const before31 = baselineCli(BEFORE_31);
  const sides: [string, string][] = [['now', CLI]];
  if ('why' in before31) console.log(`No ${BEFORE_31} CLI to compare with: ${before31.why}.`);
  else sides.push([BEFORE_31, before31.file]);
  const fullRuns = new Map<string, { check: Cold[]; start: Cold[] }>(sides.map(([k]) => [k, { check: [], start: [] }]));
  for (let i = 0; i < 5; i++) {
    for (const [k, cli] of i % 2 ? [...sides].reverse() : sides) {
      fullRuns.get(k)!.check.push(cold([cli, 'check', full]));
      fullRuns.get(k)!.start.push(cold([cli, 'check', one]));
    }
  }
  const beyond = new Map<string, { wall: number; cpu: number }>();
  for (const [k] of sides) {
    const r = fullRuns.get(k)!;
    const wall = median(r.check.map((x) => x.ms)) - median(r.start.map((x) => x.ms));
    const cpu = median(r.check.map((x) => x.cpuMs)) - median(r.start.map((x) => x.cpuMs));
    beyond.set(k, { wall, cpu });
    row(`check 100k-entry CMDQ, every field on every entry, indent=2, ${fmt(readFileSync(full).length / 1e6, 1)} MB, ${k} (median of 5, alternated): beyond start-up, wall / CPU; RSS`,
      `${fmt(wall)} / ${fmt(cpu)} ms; ${fmt(Math.max(...r.check.map((x) => x.rssMb)))} MB`, `exit ${[...new Set(r.check.map((x) => x.code))].join(',')}; target ≤ 500 ms (moonshot ≤ 250)`);
  }
  const old31 = beyond.get(BEFORE_31);
  if (old31) row(`  the same, now ÷ ${BEFORE_31} beyond start-up (wall / CPU)`, `${fmt(beyond.get('now')!.wall / old31.wall, 2)}× / ${fmt(beyond.get('now')!.cpu / old31.cpu, 2)}×`, loadNow());

  const trace = dataFile('trace-1m.trace.jsonl');
  if (!exists(trace)) await writeTrace(trace, { events: 1_000_000 });
  // Every core (the default), one thread and issue #13's bare loop (readline + JSON.parse of every
  // line, nothing else), alternated so all see the same load.
  const runs: Record<string, Cold[]> = { par: [], one: [], bare: [], stats: [] };
  // Nine rounds: issue #31's two ratios below move by a tenth between runs of five.
  const ROUNDS_31 = 9;
  for (let i = 0; i < ROUNDS_31; i++) {
    runs.par.push(cold([CLI, 'check', trace]));
    runs.one.push(cold([CLI, 'check', trace], [], { NPU_CHECK_THREADS: '0' }));
    runs.bare.push(cold(['-e', BARE_LOOP, trace]));
    runs.stats.push(cold([CLI, 'stats', '--json', trace]));
  }
  {
    // Issue #31's rows: check against the bare loop, and stats against check, in the same alternation.
    const wall = (k: string) => median(runs[k].map((r) => r.ms));
    row('issue #31: check (every core) vs the bare loop, cold, same run', `${fmt(wall('bare') / wall('par'), 2)}× faster`, `target ≥ 2.5× (moonshot ≥ 3×); ${loadNow()}`);
    row('issue #31: stats --json vs check (every core), cold, same run', `${fmt(wall('stats'))} vs ${fmt(wall('par'))} ms: ${fmt(wall('stats') / wall('par'), 2)}×`,
      `target ≤ 1× (stats no slower than check); bare loop ${fmt(wall('bare'))} ms`);
  }
  for (const [k, label] of [['par', 'every core'], ['one', 'one thread (NPU_CHECK_THREADS=0)'], ['bare', 'bare readline + JSON.parse loop']] as const) {
    const rs = runs[k];
    const ms = rs.map((r) => r.ms);
    row(`check of the generator's 1M-event trace, ${label} (median of ${ROUNDS_31}, range): wall / CPU; RSS`,
      `${fmt(median(ms))} (${fmt(Math.min(...ms))}–${fmt(Math.max(...ms))}) / ${fmt(median(rs.map((r) => r.cpuMs)))} ms; ${fmt(Math.max(...rs.map((r) => r.rssMb)))} MB`,
      `exit ${[...new Set(rs.map((r) => r.code))].join(',')}${k === 'par' ? `; target ≤ 1000 ms and ≥ 2× the bare loop: ${fmt(median(runs.bare.map((r) => r.ms)) / median(ms), 2)}×` : ''}`);
  }
  const optional = dataFile('trace-1m-optional.trace.jsonl');
  if (exists(optional)) {
    for (const [label, env] of [['every core', {}], ['one thread', { NPU_CHECK_THREADS: '0' }]] as const) {
      const r = coldN(3, [CLI, 'check', optional], [], env);
      row(`check of the all-optional-fields variant, ${label}: wall / CPU; RSS`, `${fmt(r.ms)} / ${fmt(r.cpuMs)} ms; ${fmt(r.rssMb)} MB`, `exit ${r.codes}`);
    }
  }
  const st = coldN(3, [CLI, 'stats', '--json', trace]);
  row('stats --json of the generator\'s 1M-event trace', `${fmt(st.ms)} ms; ${fmt(st.rssMb)} MB`, `exit ${st.codes}; target ≤ 1500 ms`);
  // The same commands with the CLI as it was before issue #28's JSON toolkit, alternated with this
  // one's so that both see the same load (CPU time is the figure to compare on a shared machine).
  for (const rev of [BASELINE, BEFORE_31]) {
    const old = baselineCli(rev);
    if ('why' in old) {
      console.log(`No ${rev} CLI to compare with: ${old.why}.`);
      continue;
    }
    const cases = rev === BASELINE
      ? [['stats --json', ['stats', '--json', trace], {}], ['check, one thread', ['check', trace], { NPU_CHECK_THREADS: '0' }]] as const
      : [['stats --json', ['stats', '--json', trace], {}], ['stats --json, one thread', ['stats', '--json', trace], { NPU_CHECK_THREADS: '0' }], ['check, every core', ['check', trace], {}]] as const;
    for (const [label, args, env] of cases) {
      const pair: Record<'now' | 'before', Cold[]> = { now: [], before: [] };
      for (let i = 0; i < 5; i++) {
        for (const side of i % 2 ? (['before', 'now'] as const) : (['now', 'before'] as const)) pair[side].push(cold([side === 'now' ? CLI : old.file, ...args], [], env));
      }
      const cpu = (rs: Cold[]) => median(rs.map((r) => r.cpuMs));
      const wall = (rs: Cold[]) => median(rs.map((r) => r.ms));
      row(`${label} of the 1M-event trace, this checkout vs ${rev}, alternated (median of 5): wall / CPU`,
        `${fmt(wall(pair.now))} / ${fmt(cpu(pair.now))} ms; ${fmt(wall(pair.before))} / ${fmt(cpu(pair.before))} ms`, `CPU now ÷ before ${fmt(cpu(pair.now) / cpu(pair.before), 2)}×; ${loadNow()}`);
    }
  }

  const fixtures = join(REPO, 'test/fixtures/nnapi');
  const systraces = readdirSync(fixtures).filter((n) => /\.(systrace|atrace)(\.html)?$/.test(n)).map((n) => join(fixtures, n));
  const flagSets = [[], ['--total-times'], ['--per-execution']];
  const t0 = performance.now();
  let n = 0;
  for (const f of systraces) for (const flags of flagSets) { cold([CLI, 'nnapi-stats', ...flags, f]); n++; }
  row(`nnapi-stats: ${systraces.length} fixture systraces × 3 flag sets, one process each`, `${fmt(performance.now() - t0)} ms for ${n} runs`);
}

