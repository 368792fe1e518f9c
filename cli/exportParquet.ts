import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { clip } from '../core/common/clip';
import { escapeControl } from '../core/common/escape';
import { formatByName } from '../core/detectFormat';
import { outputRefusal, runIdRefusal } from './outputPath';
import { baseName, nameMatches } from '../core/fileHead';
import { exportParquetFile, parquetFormat, runOf } from '../node/export/parquetFile';
import { inWorkers, type Outcome } from '../node/export/parquetThreads';
import { percentOf, percentSteps } from '../node/export/progress';
import type { ExportProgress, ParquetJob } from '../protocol/parquetWorker';

/** `--run-id` and file names become directory names: one plain name each. */
const SAFE_RUN = /^[^/\\\0]{1,200}$/;

/** The worker bundle beside the CLI bundle (dist/), or undefined when running from source. */
function workerFile(): string | undefined {
  return [join(__dirname, 'exportParquetWorker.js'), join(__dirname, '..', 'dist', 'exportParquetWorker.js')].find((f) => existsSync(f));
}

const MB = (n: number) => (n / (1 << 20)).toFixed(1);

/** The CLI's status line on a terminal (rewritten in place with `\r`): short enough not to wrap. */
function progressLine(head: string, file: string, p: ExportProgress): string {
  return `\r\x1b[K${head} ${escapeControl(clip(basename(file), 60))}: ${percentOf(p)}% (${MB(p.bytesRead)} of ${MB(p.size)} MB)`;
}

/** Whether a file of a directory argument has Parquet tables, by its name alone (`formatByName`). */
function exportable(file: string): boolean {
  const f = formatByName(file);
  if (!f?.parquetTables) return false;
  const base = baseName(file);
  return !f.parquetNames || f.parquetNames.some((g) => nameMatches(g, base));
}

function expand(args: string[]): string[] {
  return args.flatMap((a) => statSync(a, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(a, { recursive: true, encoding: 'utf8' }).filter(exportable).sort().map((f) => join(a, f))
    : [a]);
}

/**
 * `npu-trace export FILE|DIR… --to parquet -o OUT_DIR [--run-id NAME] [--jobs N]`: each file in turn
 * (or N at a time in worker threads), a line on stderr per file as it is done (its tables' rows),
 * exit 0, or 2 when a file could not be exported (the others still are).
 */
export async function exportParquetCommand(args: string[], outDir: string | undefined, runId: string | undefined, jobsArg: string | undefined, usage: (msg: string) => number, force?: boolean): Promise<number> {
  if (!outDir || outDir === '-') return usage('--to parquet needs -o OUT_DIR (a directory: one subdirectory of tables per file)');
  const refused = outputRefusal('-o', outDir, force) ?? (runId === undefined ? undefined : runIdRefusal(runId, force));
  if (refused) return usage(refused);
  const files = expand(args);
  if (!files.length) return usage('no NPU trace, systrace or InferScope trace in the directories given');
  if (runId !== undefined && files.length !== 1) return usage('--run-id names one file; with many, each run is named after its file');
  const threads = jobsArg === undefined ? 1 : Number(jobsArg);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) return usage(`--jobs takes a number of threads from 1 to 64, got ${JSON.stringify(jobsArg)}`);
  const runs = files.map((f) => runId ?? runOf(f));
  const seen = new Set<string>();
  for (const r of runs) {
    if (!SAFE_RUN.test(r) || r === '.' || r === '..') return usage(`${JSON.stringify(r)} cannot name a run directory`);
    const runDir = outputRefusal('-o', join(outDir, r), force);
    if (runDir) return usage(runDir);
    if (seen.has(r)) return usage(`two files are named ${JSON.stringify(r)}: export them in separate calls with --run-id`);
    seen.add(r);
  }
  let code = 0;
  const t0 = performance.now();
  // On a terminal, a status line of the file read last (percent of its bytes), rewritten in place
  // and cleared before each line a file is done; never in a pipe or a log.
  let status = false;
  const progress = process.stderr.isTTY ? (i: number, p: ExportProgress) => {
    process.stderr.write(progressLine(`npu-trace export: [${i + 1}/${files.length}]`, files[i], p));
    status = true;
  } : undefined;
  const report = (i: number, o: Outcome) => {
    if (status) process.stderr.write('\r\x1b[K');
    status = false;
    const head = `npu-trace export: [${i + 1}/${files.length}] ${escapeControl(files[i])}`;
    if ('error' in o) {
      process.stderr.write(`${head}: ${escapeControl(o.error)}\n`);
      code = 2;
      return;
    }
    const r = o.result;
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    const counts = Object.entries(r.rows).map(([t, n]) => `${n} ${t}`).join(', ');
    process.stderr.write(`${head} -> ${escapeControl(r.dir)}: ${counts}, ${r.bytes} bytes at ${s} s\n`);
    for (const n of r.notes ?? []) process.stderr.write(`${head}: warning: ${escapeControl(n)}\n`);
  };
  const jobs: ParquetJob[] = [];
  files.forEach((file, i) => {
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) jobs.push({ i, file, outDir, run: runs[i], npu: parquetFormat(file)?.parquetTables === 'npu' });
    else report(i, { error: 'no such file' });
  });
  // In worker threads whenever the bundle is there (one at a time without --jobs): a heap per file, bounded for NPU traces.
  const bundle = workerFile();
  if (bundle) await inWorkers(bundle, jobs, threads, report, progress);
  else {
    for (const j of jobs) {
      try {
        const onProgress = progress && percentSteps(statSync(j.file).size, (p) => progress(j.i, p));
        report(j.i, { result: await exportParquetFile(j.file, j.outDir, j.run, onProgress) });
      } catch (e) {
        report(j.i, { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return code;
}
