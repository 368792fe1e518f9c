// Perfetto protobuf traces: the same NNAPI marks as a text systrace and as a protobuf trace (ftrace
// print events), each to a timeline model and to the nnapi-stats summary, streamed from disk, each in
// a process of its own. 200 000 marks by default; `npm run bench -- perfetto1g` for a protobuf trace
// of about 1 GB (its own section of RESULTS.md).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { forEachLine } from '../node/io/lines';
import { readSystrace } from '../node/io/readSystrace';
import { analyze } from '../core/nnapi/analysis';
import { summaryJson } from '../core/nnapi/summary';
import { PerfettoFile } from '../core/perfetto/file';
import { PerfettoTimelineBuilder } from '../core/perfetto/timeline';
import { NnapiTimelineBuilder } from '../core/nnapi/timeline';
import { parseRowLine } from '../core/nnapi/row';
import { ftracePrints, processTree, secondsToNs, servicePackets, TraceWriter, type PrintSpec, type ProcSpec } from '../test/gen/perfettoGen';
import { writeSystrace } from '../test/gen/nnapiGen';
import { dataFile, exists, fmt, loadNow, median, row, timed } from './util';

const TIME = / (\d+\.\d+): tracing_mark_write: /;

/** The protobuf form of a text systrace on disk, written as it is read (bundles of 1000 prints, the process tree at the end). */
export async function convert(text: string, out: string): Promise<void> {
  const w = createWriteStream(out);
  const put = async (b: Uint8Array) => {
    if (!w.write(b)) await once(w, 'drain');
  };
  const head = new TraceWriter();
  servicePackets(head);
  await put(head.finish());
  const procs = new Map<number, ProcSpec>();
  let batch: PrintSpec[] = [];
  const flush = async () => {
    const t = new TraceWriter();
    ftracePrints(t, batch, { perBundle: 1000 });
    batch = [];
    await put(t.finish());
  };
  for await (const line of createInterface({ input: createReadStream(text), crlfDelay: Infinity })) {
    const r = parseRowLine(line);
    if (r?.kind !== 'row') continue;
    const tid = Number(r.pid);
    const tgid = Number(r.tgidColumn);
    if (Number.isInteger(tgid) && tgid > 0) {
      let p = procs.get(tgid);
      if (!p) procs.set(tgid, (p = { pid: tgid, cmdline: `proc${tgid}`, threads: [] }));
      if (p.threads.length < 64 && !p.threads.some((x) => x.tid === tid)) p.threads.push({ tid, name: r.task.trim() });
    }
    batch.push({ ts: secondsToNs(TIME.exec(line)![1]), tid, buf: r.mark });
    if (batch.length === 10_000) await flush();
  }
  if (batch.length) await flush();
  const tail = new TraceWriter();
  processTree(tail, [...procs.values()], 0n);
  await put(tail.finish());
  w.end();
  await once(w, 'close');
}

async function feed(file: string, f: (b: Uint8Array) => void): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) f(chunk as Buffer);
}

const CASES = {
  async pbTimeline(file: string): Promise<string> {
    const b = new PerfettoTimelineBuilder();
    await feed(file, (c) => b.feed(c));
    return String(b.finish().items.start.length);
  },
  async textTimeline(file: string): Promise<string> {
    const nb = new NnapiTimelineBuilder();
    await forEachLine(file, (l, n) => nb.addLine(l, n));
    return String(nb.finish().items.start.length);
  },
  async pbStats(file: string): Promise<string> {
    const f = new PerfettoFile();
    await feed(file, (x) => f.feed(x));
    return digest(summaryJson(f.end({ nnapi: true }).nnapi!, {}));
  },
  async textStats(file: string): Promise<string> {
    return digest(summaryJson(analyze(await readSystrace(file)), {}));
  },
};
type Case = keyof typeof CASES;

/** The summary compared between the two forms by its hash: it is printed across processes. */
const digest = (s: string) => createHash('sha256').update(s).digest('hex');

interface CaseResult { cpuMs: number; wallMs: number; maxRssMb: number; value: string }

/** Run by the bench in a child process (`--perfetto-case <case> <file>`): one case, its CPU and wall time and the process's peak RSS. */
export async function perfettoCase(name: string, file: string): Promise<void> {
  const f = CASES[name as Case];
  if (!f) throw new Error(`no case ${name}`);
  const r = await timed(() => f(file));
  const res: CaseResult = { cpuMs: r.cpu, wallMs: r.wall, maxRssMb: process.resourceUsage().maxRSS / 1024, value: r.value };
  console.log(JSON.stringify(res));
}

/**
 * Each case in a fresh process of the same bundle: its peak RSS is its own (the resident memory of
 * the reader, the model and the summary together), not what earlier cases left in the heap.
 */
function child(name: Case, file: string): CaseResult {
  const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], '--perfetto-case', name, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${name} failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as CaseResult;
}

export async function run(big = false): Promise<void> {
  console.log(`\n## perfetto${big ? ' 1 GB' : ''} (protobuf traces against the text systrace of the same marks)`);
  const marks = big ? 20_500_000 : 200_000;
  const name = big ? 'perfetto-1g' : 'perfetto-200k';
  const text = dataFile(`${name}.systrace`);
  const pb = dataFile(`${name}.perfetto-trace`);
  if (!exists(text)) await writeSystrace(text, marks);
  if (!exists(pb)) await convert(text, pb);
  const mb = (f: string) => statSync(f).size / 1e6;
  console.log(`  ${name}: text ${fmt(mb(text))} MB, protobuf ${fmt(mb(pb))} MB; each case in its own process (${loadNow()} at the start)`);
  const rounds = big ? 1 : 3;
  const t: Record<Case, CaseResult[]> = { pbTimeline: [], textTimeline: [], pbStats: [], textStats: [] };
  for (let r = 0; r < rounds; r++) {
    for (const c of Object.keys(t) as Case[]) t[c].push(child(c, c.startsWith('pb') ? pb : text));
    const last = (c: Case) => t[c][t[c].length - 1].value;
    if (last('pbStats') !== last('textStats')) throw new Error('the protobuf and text summaries differ');
    if (last('pbTimeline') !== last('textTimeline')) throw new Error(`the protobuf and text timelines differ: ${last('pbTimeline')} vs ${last('textTimeline')} items`);
  }
  // CPU time: the wall time of a shared machine says more about its load than about the reader.
  const s = (x: CaseResult[]) => `${fmt(median(x.map((y) => y.cpuMs)) / 1000, 2)} s CPU, ${fmt(median(x.map((y) => y.wallMs)) / 1000, 1)} s wall, ${fmt(Math.max(...x.map((y) => y.maxRssMb)))} MB peak RSS`;
  row(`protobuf ${fmt(mb(pb))} MB → timeline (${t.pbTimeline[0].value} slices)`, s(t.pbTimeline));
  row(`text ${fmt(mb(text))} MB → timeline (same marks)`, s(t.textTimeline));
  row('protobuf → nnapi-stats --json', s(t.pbStats));
  row('text → nnapi-stats --json', s(t.textStats));
  console.log(`  ${loadNow()} at the end`);
  if (big && !process.env.NPU_BENCH_KEEP_DATA) {
    // 2.5 GB of generated data: removed (NPU_BENCH_KEEP_DATA=1 keeps them for another run).
    rmSync(text, { force: true });
    rmSync(pb, { force: true });
  }
}
