// `npu-trace diff` of two 1M-event traces against one `stats` of one of them (issue #34: ≤ 2×),
// both cold CLI processes as CI runs them, alternated so both see the same load.
import { join } from 'node:path';
import { writeTrace } from '../test/gen/genTrace';
import { cold } from './cli';
import { dataFile, exists, fmt, median, REPO, row } from './util';

const CLI = join(REPO, 'dist/cli.js');

export async function run(): Promise<void> {
  console.log('\n## npu-trace diff (two runs compared)');
  const a = dataFile('trace-1m.trace.jsonl');
  if (!exists(a)) await writeTrace(a, { events: 1_000_000 });
  // The second run: another seed with one phase slowed, as a regression to find.
  const b = dataFile('trace-1m-slow-mlp.trace.jsonl');
  if (!exists(b)) await writeTrace(b, { events: 1_000_000, seed: 2, slow: { phase: 'MLP', factor: 1.5 } });
  const stats: number[] = [];
  const diff: number[] = [];
  const statsCpu: number[] = [];
  const diffCpu: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < 3; i++) {
    const s = cold([CLI, 'stats', '--json', a]);
    const d = cold([CLI, 'diff', '--json', a, b]);
    code = d.code;
    stats.push(s.ms);
    statsCpu.push(s.cpuMs);
    diff.push(d.ms);
    diffCpu.push(d.cpuMs);
  }
  const sw = median(stats), dw = median(diff);
  row('stats --json of one 1M-event trace (median of 3, wall / CPU)', `${fmt(sw)} / ${fmt(median(statsCpu))} ms`);
  row('diff --json of two 1M-event traces (median of 3, wall / CPU)', `${fmt(dw)} / ${fmt(median(diffCpu))} ms`, `exit ${code}`);
  row('diff ÷ stats (wall / CPU)', `${fmt(dw / sw, 2)}× / ${fmt(median(diffCpu) / median(statsCpu), 2)}×`, 'target ≤ 2×');
}
