// Parquet export (issue #20): `npu-trace export --to parquet` of the 1M-event trace as users run it
// (the built CLI in a child process, so its peak RSS is its own), against the size of the same trace
// gzipped (counted, never written). NPU_BENCH_PARQUET_10M=1 adds the 10M-event trace (minutes).
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { writeTrace } from '../test/gen/genTrace';
import { dataFile, exists, fmt, REPO, row } from './util';

/** Runs the CLI's export in a child that reports its own CPU time and peak RSS at exit. */
function childExport(file: string, out: string): { wallMs: number; cpuMs: number; rssMb: number; events: number } {
  const usage = join(out, 'usage.json');
  const report = `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(usage)}, JSON.stringify(process.resourceUsage()))); require(process.argv[1]);`;
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-e', report, join(REPO, 'dist/cli.js'), 'export', file, '--to', 'parquet', '-o', out, '--run-id', 'bench'], { encoding: 'utf8' });
  const wallMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`export failed: ${r.stderr}`);
  const u = JSON.parse(readFileSync(usage, 'utf8')) as NodeJS.ResourceUsage;
  const events = Number(/: (\d+) events/.exec(r.stderr)?.[1] ?? NaN);
  return { wallMs, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rssMb: u.maxRSS / 1024, events };
}

async function gzipSize(file: string): Promise<number> {
  if (file.endsWith('.gz')) return statSync(file).size;
  let n = 0;
  await pipeline(createReadStream(file), createGzip(), new Writable({ write: (c: Buffer, _e, cb) => { n += c.length; cb(); } }));
  return n;
}

async function one(file: string, label: string): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'npu-bench-parquet-'));
  try {
    const r = childExport(file, out);
    const dir = join(out, 'bench');
    const bytes = readdirSync(dir).reduce((a, f) => a + statSync(join(dir, f)).size, 0);
    const gz = await gzipSize(file);
    row(`export ${label} to Parquet, CLI (wall / CPU)`, `${fmt(r.wallMs)} / ${fmt(r.cpuMs)} ms`);
    row('  peak RSS', `${fmt(r.rssMb)} MB`, 'target ≤ 500 MB (10M events)');
    row('  Parquet bytes (3 tables) / per event', `${fmt(bytes / 1e6, 1)} MB / ${fmt(bytes / r.events, 1)} B`);
    row('  the .trace.jsonl.gz / per event', `${fmt(gz / 1e6, 1)} MB / ${fmt(gz / r.events, 1)} B`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log('\n## Parquet export');
  const f = dataFile('trace-1m.trace.jsonl');
  if (!exists(f)) await writeTrace(f, { events: 1_000_000 });
  await one(f, '1M events');
  const f10 = dataFile('trace-10000000.trace.jsonl.gz');
  if (process.env.NPU_BENCH_PARQUET_10M && exists(f10)) await one(f10, '10M events (.gz)');
}
