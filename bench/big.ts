// `npm run bench -- big`: a 10M-event trace (≈ 2 GB, and its .gz) through the CLI as fresh
// processes (time and peak RSS) and through the timeline. Minutes of work and gigabytes of disk,
// so it runs only when named, never in `npm run bench` or CI. BIG_BENCH_PARTS=cli or =timeline runs
// only that part. The timeline compares with the old renderer only when TIMELINE_BASELINE names one.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { writeTrace } from '../test/gen/genTrace';
import { dataFile, exists, fmt, REPO, row } from './util';
import { run as timeline } from './timeline';

const CLI = join(REPO, 'dist/cli.js');
const PRELOAD = join(REPO, 'test/hostile/rss-preload.cjs');
const EVENTS = Number(process.env.BIG_BENCH_EVENTS ?? 10_000_000);
const PARTS = (process.env.BIG_BENCH_PARTS ?? 'cli,timeline').split(',');

function cold(args: string[]): { ms: number; rssMb: number; code: number | null } {
  const rssFile = dataFile('big.rss');
  rmSync(rssFile, { force: true });
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--require', PRELOAD, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NPU_HOSTILE_RSS_FILE: rssFile } });
  const ms = performance.now() - t;
  let rssMb = NaN;
  try { rssMb = Number(readFileSync(rssFile, 'utf8').split(' ')[0]) / 1024; } catch { /* died */ }
  return { ms, rssMb, code: r.status };
}

export async function run(): Promise<void> {
  console.log(`\n## big: ${EVENTS.toLocaleString('en-US')} events`);
  if (PARTS.includes('cli')) await cliPart();
  // A second page with the old renderer doubles minutes and memory at this size: only when asked.
  if (PARTS.includes('timeline')) await timeline(EVENTS, process.env.TIMELINE_BASELINE ?? 'none');
}

async function cliPart(): Promise<void> {
  const file = dataFile(`trace-${EVENTS}.trace.jsonl`);
  if (!exists(file)) {
    const t = performance.now();
    await writeTrace(file, { events: EVENTS });
    row('generated', `${fmt(statSync(file).size / 1e9, 2)} GB in ${fmt((performance.now() - t) / 1000)} s`);
  }
  const gz = `${file}.gz`;
  if (!exists(gz)) await pipeline(createReadStream(file), createGzip({ level: 1 }), createWriteStream(gz));
  row('sizes', `${fmt(statSync(file).size / 1e9, 2)} GB; .gz ${fmt(statSync(gz).size / 1e9, 2)} GB`);
  for (const [what, args] of [['check', ['check', file]], ['check .gz', ['check', gz]], ['stats', ['stats', '--json', file]], ['stats .gz', ['stats', '--json', gz]]] as const) {
    const r = cold([...args]);
    row(`${what} (fresh process)`, `${fmt(r.ms / 1000, 1)} s; ${fmt(r.rssMb)} MB`, `exit ${r.code}; target RSS ≤ 500 MB`);
  }
}
