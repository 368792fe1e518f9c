// `npu-trace stats` against the floor the issue measures it by: a plain JSON.parse of every line,
// read with the same line splitter, alternating in this process so all see the same machine. The
// collector fed parsed lines (what the timeline worker and the reference path do) is measured too.
import { forEachLine } from '../node/io/lines';
import { statsOfFile } from '../node/io/statsOfFile';
import { MetricsCollector } from '../core/trace/metrics/collector';
import { writeTrace } from '../test/gen/genTrace';
import { dataFile, exists, fmt, median, row, timed } from './util';

export async function run(): Promise<void> {
  console.log('\n## npu-trace stats (trace metrics)');
  const f = dataFile('trace-1m.trace.jsonl');
  if (!exists(f)) await writeTrace(f, { events: 1_000_000 });
  const ours: { wall: number; cpu: number }[] = [];
  const parsed: { wall: number; cpu: number }[] = [];
  const plain: { wall: number; cpu: number }[] = [];
  let findings = -1;
  for (let r = 0; r < 3; r++) {
    plain.push(await timed(() => forEachLine(f, (line) => { if (line) JSON.parse(line); })));
    const a = await timed(() => statsOfFile(f));
    findings = a.value.findings.length;
    ours.push(a);
    parsed.push(await timed(async () => {
      const c = new MetricsCollector();
      await forEachLine(f, (line) => c.addLine(line));
      return c.finish();
    }));
  }
  const m = (xs: { wall: number; cpu: number }[]) => [median(xs.map((x) => x.wall)), median(xs.map((x) => x.cpu))];
  const [ow, oc] = m(ours), [qw, qc] = m(parsed), [pw, pc] = m(plain);
  row('stats of 1M events from disk (median of 3, wall / CPU)', `${fmt(ow)} / ${fmt(oc)} ms`, 'target ≤ 1500 ms');
  row('plain JSON.parse of every line, same reader (wall / CPU)', `${fmt(pw)} / ${fmt(pc)} ms`);
  row('stats ÷ plain pass (wall / CPU)', `${fmt(ow / pw, 2)}× / ${fmt(oc / pc, 2)}×`, `target ≤ 1.3×; ${findings} findings`);
  row('the collector fed JSON.parse per line (wall / CPU)', `${fmt(qw)} / ${fmt(qc)} ms`, 'the timeline worker\'s way');
}
