// Perfetto protobuf traces: the same NNAPI marks as a text systrace and as a protobuf trace (ftrace
// print events), each to a timeline model and to the nnapi-stats summary, streamed from disk in this
// process. 200 000 marks by default; NPU_BENCH_PERFETTO_1G=1 for a protobuf trace of about 1 GB.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
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
import { dataFile, exists, fmt, median, row, timed } from './util';

const TIME = / (\d+\.\d+): tracing_mark_write: /;

/** The protobuf form of a text systrace on disk, written as it is read (bundles of 1000 prints, the process tree at the end). */
async function convert(text: string, out: string): Promise<void> {
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

export async function run(): Promise<void> {
  console.log('\n## perfetto (protobuf traces against the text systrace of the same marks)');
  const big = !!process.env.NPU_BENCH_PERFETTO_1G;
  const marks = big ? 15_000_000 : 200_000;
  const name = big ? 'perfetto-1g' : 'perfetto-200k';
  const text = dataFile(`${name}.systrace`);
  const pb = dataFile(`${name}.perfetto-trace`);
  if (!exists(text)) await writeSystrace(text, marks);
  if (!exists(pb)) await convert(text, pb);
  const mb = (f: string) => statSync(f).size / 1e6;
  console.log(`  ${name}: text ${fmt(mb(text))} MB, protobuf ${fmt(mb(pb))} MB`);
  const rounds = big ? 1 : 3;
  const t: Record<string, number[]> = { pbTimeline: [], textTimeline: [], pbStats: [], textStats: [] };
  let items = 0;
  for (let r = 0; r < rounds; r++) {
    const a = await timed(async () => {
      const b = new PerfettoTimelineBuilder();
      await feed(pb, (c) => b.feed(c));
      return b.finish().items.start.length;
    });
    items = a.value;
    t.pbTimeline.push(a.cpu);
    const b = await timed(async () => {
      const nb = new NnapiTimelineBuilder();
      await forEachLine(text, (l, n) => nb.addLine(l, n));
      return nb.finish().items.start.length;
    });
    t.textTimeline.push(b.cpu);
    const c = await timed(async () => {
      const f = new PerfettoFile();
      await feed(pb, (x) => f.feed(x));
      return summaryJson(f.end({ nnapi: true }).nnapi!, {});
    });
    t.pbStats.push(c.cpu);
    const d = await timed(async () => summaryJson(analyze(await readSystrace(text)), {}));
    t.textStats.push(d.cpu);
    if (c.value !== d.value) throw new Error('the protobuf and text summaries differ');
    if (a.value !== b.value) throw new Error(`the protobuf and text timelines differ: ${a.value} vs ${b.value} items`);
  }
  // CPU time: the wall time of a shared machine says more about its load than about the reader.
  const s = (x: number[]) => `${fmt(median(x) / 1000, 2)} s CPU`;
  row(`protobuf ${fmt(mb(pb))} MB → timeline (${items} slices)`, s(t.pbTimeline));
  row(`text ${fmt(mb(text))} MB → timeline (same marks)`, s(t.textTimeline));
  row('protobuf → nnapi-stats --json', s(t.pbStats));
  row('text → nnapi-stats --json', s(t.textStats));
}
