// `npu-trace stats` against the floor the issue measures it by: a plain JSON.parse of every line,
// read with the same line splitter, alternating in this process so all see the same machine. The
// collector fed parsed lines (what the timeline worker and the reference path do) is measured too.
import { forEachLine } from '../node/io/lines';
import { statsOfFile } from '../node/io/statsOfFile';
import { MetricsCollector } from '../core/trace/metrics/collector';
import { UnionBuilder, unionOf } from '../core/common/intervals';
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

  // The union of an unordered list (spans closed out of start order, a Chrome trace's slices): its
  // starts and ends sorted apart and swept (unionOf, Intervals.union) against the way before it,
  // indices ordered by a comparator, alternated; both give the same pairs.
  const n = 1_000_000;
  const s = new Float64Array(n);
  const e = new Float64Array(n);
  // xorshift32: every draw its own value (an LCG multiplied in doubles past 2^53 gave 16k distinct
  // values in 1M, duplicate starts the sort had little to do with).
  let x = 2463534242;
  const rand = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  for (let i = 0; i < n; i++) {
    s[i] = rand() * 1e9;
    e[i] = s[i] + rand() * 1e4;
  }
  const byComparator = () => {
    const idx = new Uint32Array(n);
    for (let i = 0; i < n; i++) idx[i] = i;
    idx.sort((a, b) => s[a] - s[b]);
    const b = new UnionBuilder(2 * n);
    for (let i = 0; i < n; i++) b.add(s[idx[i]], e[idx[i]]);
    return b.done();
  };
  const sweep: { wall: number; cpu: number }[] = [];
  const comparator: { wall: number; cpu: number }[] = [];
  let same = true;
  for (let r = 0; r < 5; r++) {
    const a = await timed(async () => unionOf(s, e));
    const b = await timed(async () => byComparator());
    sweep.push(a);
    comparator.push(b);
    same &&= a.value.length === b.value.length && a.value.every((v, i) => v === b.value[i]);
  }
  const [sw, sc] = m(sweep), [cw, cc] = m(comparator);
  row('union of 1M unordered intervals: starts and ends sorted apart (median of 5, wall / CPU)', `${fmt(sw)} / ${fmt(sc)} ms`, `${fmt(sw / cw, 2)}× the comparator's wall`);
  row('  the same by indices ordered with a comparator (the way before)', `${fmt(cw)} / ${fmt(cc)} ms`, same ? 'same pairs' : 'DIFFERENT pairs');
}
