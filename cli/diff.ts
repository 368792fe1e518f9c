import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Diagnostic } from '../core/common/diagnostic';
import { escapeControl } from '../core/common/escape';
import { compareRuns, gateFailures } from '../core/diff/compare';
import { pairProblem } from '../core/diff/pair';
import type { DiffResult, DiffRun } from '../core/diff/types';
import type { FormatDescriptor } from '../core/formatDescriptor';
import { diffRunOfFile } from '../node/io/diffOfFile';
import { runJob } from '../node/jobs/runJob';
import { type DiffJob, readDiffMessage } from '../protocol/diffWorker';
import { formatOfFile } from '../node/io/firstLine';
import { diffText } from './diffText';
import { githubAnnotations } from './github';
import { sarifLog } from './sarif';
import type { RuleDoc } from './sarifRules';

export const DIFF_USAGE = '  npu-trace diff [--json | --format text|json|sarif|github] [--by KIND[,KIND…]] [--fail-on-regression P%] <A> <B>\n';

class DiffUsage extends Error {}

const OUTPUTS = ['text', 'json', 'sarif', 'github'] as const;

/** The one rule of `diff --format sarif`: a reported regression, on its group's first line in B. */
export const DIFF_RULE: RuleDoc = {
  id: 'diff.regression', severity: 'warning', short: 'Comparison: a significant regression',
  helpText: 'A group of items (a phase, a kernel, …) got slower from A to B: its Mann-Whitney U test is significant after the Benjamini-Hochberg correction and its mean moved by at least the minimum effect (docs/diff.md).',
  helpMarkdown: 'A group of items (a phase, a kernel, …) got slower from A to B: its Mann–Whitney U test is significant after the Benjamini–Hochberg correction and its mean moved by at least the minimum effect ([docs/diff.md](docs/diff.md)).',
};

/** `5%`, `5` or `0.5%`: a fraction. */
function percent(v: string): number {
  const m = /^(\d{1,6}(?:\.\d{1,6})?)%?$/.exec(v.trim());
  if (!m) throw new DiffUsage(`--fail-on-regression takes a percentage such as 5%, got ${JSON.stringify(v.slice(0, 40))}`);
  return Number(m[1]) / 100;
}

/**
 * `npu-trace diff A B`: what changed between two runs of one format (docs/diff.md). Exit 0 with
 * the comparison, 1 when `--fail-on-regression` is given and a reported regression is over it, 2
 * on unusable arguments, an unreadable file, two formats, or a format that cannot be compared.
 */
export async function diff(args: string[]): Promise<number> {
  let opts: { output: (typeof OUTPUTS)[number]; by?: string[]; gate?: number; files: [string, string] };
  try {
    const { values: v, positionals } = parseArgs({
      args, allowPositionals: true,
      options: { json: { type: 'boolean' }, format: { type: 'string' }, by: { type: 'string' }, 'fail-on-regression': { type: 'string' } },
    });
    if (positionals.length !== 2) throw new DiffUsage(positionals.length < 2 ? 'give two files: the baseline A and the new run B' : 'give exactly two files');
    if (v.format !== undefined && !(OUTPUTS as readonly string[]).includes(v.format)) throw new DiffUsage(`--format takes text, json, sarif or github, got ${JSON.stringify(v.format.slice(0, 40))}`);
    if (v.json && v.format !== undefined && v.format !== 'json') throw new DiffUsage('give --json or --format, not both');
    opts = {
      output: v.json ? 'json' : (v.format as (typeof OUTPUTS)[number] | undefined) ?? 'text',
      by: v.by?.split(',').map((s) => s.trim()).filter(Boolean),
      gate: v['fail-on-regression'] === undefined ? undefined : percent(v['fail-on-regression']),
      files: [positionals[0], positionals[1]],
    };
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const formats: FormatDescriptor[] = [];
  for (const file of opts.files) {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return fail(`${escapeControl(file)}: no such file`);
    let fmt: FormatDescriptor | undefined;
    try {
      fmt = formatOfFile(file);
    } catch (e) {
      return fail(`${escapeControl(file)}: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    }
    if (!fmt) return fail(`${escapeControl(file)}: not a file of a known format`);
    formats.push(fmt);
  }
  const [fa, fb] = formats;
  const problem = pairProblem(fa, fb);
  if (problem || !fa.diff) return fail(problem ?? '');
  const kinds = fa.diff.kinds;
  const unknown = opts.by?.filter((k) => !kinds.includes(k));
  if (unknown?.length) return usage(`--by ${escapeControl(unknown[0].slice(0, 40))}: a ${fa.displayName} run is grouped by ${kinds.join(', ')}`);

  // B in a worker thread while A is read here: on two cores, two files in about the time of one.
  const worker = workerFile();
  const read = (file: string, inWorker: boolean): Promise<DiffRun> =>
    (inWorker && worker ? runJob(worker, { file, format: fa.id } satisfies DiffJob, { read: readDiffMessage, name: 'the diff worker' }) : diffRunOfFile(file, fa))
      .catch((e: unknown) => Promise.reject(new Error(`${escapeControl(file)}: ${escapeControl(e instanceof Error ? e.message : String(e))}`)));
  let runs: DiffRun[];
  try {
    runs = await Promise.all([read(opts.files[0], false), read(opts.files[1], true)]);
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  runs.forEach((r, i) => r.notes?.forEach((n) => process.stderr.write(`npu-trace diff: ${escapeControl(opts.files[i])}: ${escapeControl(n)}\n`)));
  const r = compareRuns({ file: opts.files[0], format: fa.id, run: runs[0] }, { file: opts.files[1], format: fa.id, run: runs[1] }, { kinds: opts.by });
  process.stdout.write(output(r, opts.output));
  if (opts.gate === undefined) return 0;
  const failed = gateFailures(r, opts.gate);
  for (const g of failed.groups) {
    process.stderr.write(`npu-trace diff: regression over ${100 * opts.gate}%: ${escapeControl(g.kind)} ${escapeControl(g.key)} took ${(100 * g.rel.total!).toFixed(1)}% more time\n`);
  }
  if (failed.run) process.stderr.write(`npu-trace diff: regression over ${100 * opts.gate}%: the run's span grew ${(100 * r.run.span_rel!).toFixed(1)}%\n`);
  return failed.groups.length || failed.run ? 1 : 0;
}

function output(r: DiffResult, as: (typeof OUTPUTS)[number]): string {
  if (as === 'json') return `${JSON.stringify(r, null, 2)}\n`;
  if (as === 'text') return diffText(r);
  const diagnostics = regressionDiagnostics(r);
  const results = [{ file: r.b.file, diagnostics, hasError: false }];
  if (as === 'sarif') return `${JSON.stringify(sarifLog(results, [], process.cwd(), [DIFF_RULE]), null, 2)}\n`;
  const lines = githubAnnotations(results);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The reported regressions as diagnostics on their group's first line in B (groups without one are left out). */
export function regressionDiagnostics(r: DiffResult): Diagnostic[] {
  const pctOf = (x: number | null) => (x === null ? 'n/a' : `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);
  return r.regressions.filter((g) => g.reported && g.line !== null).map((g) => ({
    range: { start: { line: g.line! - 1, character: 0 }, end: { line: g.line! - 1, character: 0 } },
    severity: 'warning' as const,
    code: DIFF_RULE.id,
    message: `${g.kind} ${JSON.stringify(g.key)} got slower: total ${g.a.total} → ${g.b.total} ${r.b.unit} (${pctOf(g.rel.total)}), mean ${pctOf(g.rel.mean)}, p = ${g.p_value!.toPrecision(2)} (Mann-Whitney U, Benjamini-Hochberg) against ${r.a.file}`,
  }));
}

/** The worker bundle beside the CLI bundle (dist/), or undefined when running from source (one thread then). */
function workerFile(): string | undefined {
  return [join(__dirname, 'diffWorker.js'), join(__dirname, '..', 'dist', 'diffWorker.js')].find((f) => existsSync(f));
}

function usage(msg: string): number {
  process.stderr.write(`npu-trace diff: ${escapeControl(msg)}\nUsage:\n${DIFF_USAGE}`);
  return 2;
}

function fail(msg: string): number {
  process.stderr.write(`npu-trace diff: ${msg}\n`);
  return 2;
}
