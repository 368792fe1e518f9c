import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECK_DEFAULTS, checkFile } from '../cli/check';
import { writeTrace } from '../test/gen/genTrace';
import { editorCore } from './editorCore';
import { naiveCheck } from './naive';
import { coreEdits, lspEdits, type EditKind, type EditorCore, type EditTimes, type Step } from './traceEdits';
import { VARIANTS, writeVariant, type Variant } from './traceVariants';
import { dataFile, exists, fmt, median, percentile, row, timed } from './util';

async function ensure(name: string, events: number): Promise<string> {
  const f = dataFile(name);
  if (!exists(f)) await writeTrace(f, { events });
  return f;
}

/** The check in a child process, for its peak memory alone (`threads`: NPU_CHECK_THREADS, undefined for the default). */
function childPeak(file: string, threads?: string): { ms: number; maxRssMb: number } {
  const env = { ...process.env };
  if (threads !== undefined) env.NPU_CHECK_THREADS = threads;
  const r = spawnSync(process.execPath, [__filename, '--child-check', file], { encoding: 'utf8', env });
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; maxRssMb: number };
}

export async function childCheck(file: string): Promise<void> {
  const t = performance.now();
  await checkFile(file, CHECK_DEFAULTS);
  console.log(JSON.stringify({ ms: performance.now() - t, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

/** `checkFile` in one thread (NPU_CHECK_THREADS=0), the check as it was before the parallel path. */
async function oneThread<T>(f: () => Promise<T>): Promise<T> {
  const before = process.env.NPU_CHECK_THREADS;
  process.env.NPU_CHECK_THREADS = '0';
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env.NPU_CHECK_THREADS;
    else process.env.NPU_CHECK_THREADS = before;
  }
}

export async function run(): Promise<void> {
  console.log('\n## npu-trace (.trace.jsonl)');
  const f100k = await ensure('trace-100k.trace.jsonl', 100_000);
  const f1m = await ensure('trace-1m.trace.jsonl', 1_000_000);
  const only = (process.env.NPU_BENCH_TRACE ?? 'check,edits').split(',');
  if (only.includes('check')) await checks(f1m);
  if (only.includes('edits')) await edits(f100k, f1m);
}

/** `check` of the generator's 1M-line trace and of its variants, each against the naive baseline in the same run. */
async function checks(f1m: string): Promise<void> {
  const files: [string, string][] = [['generator', f1m]];
  // NPU_BENCH_VARIANTS=generator,optional: only those files.
  const wanted = process.env.NPU_BENCH_VARIANTS?.split(',');
  for (const v of Object.keys(VARIANTS) as Variant[]) {
    if (wanted && !wanted.includes(v)) continue;
    const f = dataFile(`trace-1m-${v}.trace.jsonl`);
    if (!exists(f)) await writeVariant(v, f1m, f);
    files.push([v, f]);
  }
  const rounds = Number(process.env.NPU_BENCH_ROUNDS ?? 3);
  for (const [name, f] of files) {
    if (wanted && !wanted.includes(name)) continue;
    const ours: { wall: number; cpu: number }[] = [];
    const one: { wall: number; cpu: number }[] = [];
    const naive: { wall: number; cpu: number }[] = [];
    let problems = -1;
    for (let r = 0; r < rounds; r++) {
      const a = await timed(() => checkFile(f, CHECK_DEFAULTS));
      problems = a.value.diagnostics.length;
      ours.push(a);
      one.push(await oneThread(() => timed(() => checkFile(f, CHECK_DEFAULTS))));
      naive.push(await timed(() => naiveCheck(f)));
    }
    const ow = median(ours.map((x) => x.wall)), oc = median(ours.map((x) => x.cpu));
    const sw = median(one.map((x) => x.wall)), sc = median(one.map((x) => x.cpu));
    const nw = median(naive.map((x) => x.wall)), nc = median(naive.map((x) => x.cpu));
    const mb = statSync(f).size / 1e6;
    console.log(`  check 1M lines, ${name === 'generator' ? "the generator's trace" : VARIANTS[name as Variant]} (${fmt(mb)} MB, ${problems} problems shown)`);
    row('  ours, every core, median of ' + rounds + ' (wall / CPU)', `${fmt(ow)} / ${fmt(oc)} ms`, name === 'generator' ? 'target ≤ 1000 ms' : '');
    row('  ours, one thread (NPU_CHECK_THREADS=0), same run', `${fmt(sw)} / ${fmt(sc)} ms`);
    row('  naive readline+JSON.parse+ajv, same run (wall / CPU)', `${fmt(nw)} / ${fmt(nc)} ms`);
    row('  speed-up over naive, every core; one thread (wall)', `${fmt(nw / ow, 2)}×; ${fmt(nw / sw, 2)}×`, name === 'generator' ? 'target ≥ 2×' : '');
  }
  for (const [label, threads] of [['every core', undefined], ['one thread', '0']] as const) {
    const peak = childPeak(f1m, threads);
    row(`peak RSS of a check of 1M events, ${label} (separate process)`, `${fmt(peak.maxRssMb)} MB`, `(${fmt(peak.ms)} ms)${threads ? '' : ' target ≤ 300 MB'}`);
  }
}

/**
 * Editing: the same sequence of edits (typed characters, inserted and deleted lines, 100 lines
 * pasted and cut), each followed by a hover elsewhere (the first request), definition, references
 * and the outline, in the core and through the server over stdio, at 100k and 1M lines. `NPU_BENCH_BASELINE` names an
 * older checkout (built, with `out/bench/editorCore.js` bundled from bench/editorCore.ts) to print
 * its numbers beside these.
 */
async function edits(f100k: string, f1m: string): Promise<void> {
  const sizes = (process.env.NPU_BENCH_SIZES ?? '100k,1M').split(',');
  const base = process.env.NPU_BENCH_BASELINE;
  const oldCore = base ? ((await import(pathToFileURL(join(base, 'out/bench/editorCore.js')).href)) as { editorCore: EditorCore }).editorCore : undefined;
  const oldServer = base ? join(base, 'dist/server.js') : undefined;
  for (const [label, f] of [['100k', f100k], ['1M', f1m]] as const) {
    if (!sizes.includes(label)) continue;
    const text = readFileSync(f, 'utf8');
    const modes: [string, (core?: EditorCore, server?: string) => Promise<EditTimes>][] = [
      ['core', async (core) => coreEdits(core ?? editorCore, text)],
      ['LSP over stdio', (_core, server) => lspEdits(text, server)],
    ];
    for (const [mode, go] of modes) {
      if (process.env.NPU_BENCH_MODES && !process.env.NPU_BENCH_MODES.split(',').includes(mode.split(' ')[0])) continue;
      // NPU_BENCH_NEW_FIRST: the second run of a pair pays for the first one's garbage; swap to see it.
      const newFirst = process.env.NPU_BENCH_NEW_FIRST === '1';
      let now = newFirst ? await go(undefined, undefined) : undefined;
      (globalThis as { gc?: () => void }).gc?.();
      const old = base ? await go(oldCore, oldServer) : undefined;
      (globalThis as { gc?: () => void }).gc?.();
      now ??= await go(undefined, undefined);
      (globalThis as { gc?: () => void }).gc?.();
      printEdits(`${label} lines, ${mode}`, now, old, mode === 'core');
    }
  }
}

function printEdits(title: string, now: EditTimes, old: EditTimes | undefined, cpu: boolean): void {
  console.log(`  editing ${title} (ms${old ? '; old → new' : ''})`);
  const show = (f: (t: EditTimes) => string) => (old ? `${f(old)} → ${f(now)}` : f(now));
  const mp = (xs: number[]) => `${fmt(median(xs), 2)} / ${fmt(percentile(xs, 95), 2)}`;
  const all = (t: EditTimes, s: Step) => Object.values(t.byKind).flatMap((k) => k[s]);
  row('  open → diagnostics; then the outline', show((t) => `${fmt(t.open)}; ${fmt(t.openSymbols, 1)}`));
  row('  first edit → diagnostics', show((t) => fmt(t.first.edit, 1)));
  row('  after it: hover; definition; outline', show((t) => `${fmt(t.first.hover, 2)}; ${fmt(t.first.definition, 2)}; ${fmt(t.first.symbols, 2)}`));
  const kinds: [EditKind, string][] = [['typed', 'typed edit (32, incl. the first)'], ['inserted', 'inserted line (15)'], ['deleted', 'deleted line (15)'],
    ['paste100', 'paste of 100 lines (5)'], ['cut100', 'cut of 100 lines (5)']];
  for (const [k, name] of kinds) {
    row(`  ${name} → diagnostics, median / p95`, show((t) => mp(t.byKind[k].edit)), cpu ? `CPU ${show((t) => mp(t.cpu[k]))}` : '');
  }
  const steps: [Step, string][] = [['hover', 'first hover'], ['definition', 'definition'], ['references', 'references'], ['symbols', 'outline (after them)']];
  for (const [s, name] of steps) row(`  ${name} after each edit (67), median / p95`, show((t) => mp(all(t, s))), s === 'hover' ? 'target ≤ 5 ms' : '');
  if (now.floor.length) row('  floor: a request the server does not know (67), median / p95', show((t) => mp(t.floor)));
}
