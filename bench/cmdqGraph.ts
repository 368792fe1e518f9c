import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CmdqDocument } from '../core/cmdq/document';
import { analyzeGraph } from '../core/cmdq/graph/analysis';
import { DEFAULT_COST_MODEL } from '../core/cmdq/graph/cost';
import { graphDot } from '../core/cmdq/graph/dot';
import { graphJson } from '../core/cmdq/graph/report';
import { cmdqText } from '../test/gen/cmdqGen';
import { dataFile, fmt, median, row, timed } from './util';

/** `npm run bench cmdqGraph`: the dependency graph analysis of the 100k-entry CMDQ (`npu-trace cmdq-graph`, the graph view). */
export async function run(): Promise<void> {
  console.log('\n## cmdq dependency graph (100k entries, median of 3, wall / CPU)');
  const file = dataFile('cmdq-100k.cmdq.json');
  if (!existsSync(file)) writeFileSync(file, cmdqText(100_000));
  const text = readFileSync(file, 'utf8');
  const runs = { parse: [] as { wall: number; cpu: number }[], analyze: [] as { wall: number; cpu: number }[], json: [] as { wall: number; cpu: number }[], dot: [] as { wall: number; cpu: number }[] };
  let summary = '';
  for (let r = 0; r < 3; r++) {
    const p = await timed(() => {
      const doc = CmdqDocument.parse(text);
      return { doc, g: doc.graph };
    });
    runs.parse.push(p);
    const { doc, g } = p.value;
    const a = await timed(() => analyzeGraph(doc.parsed.entries, g, DEFAULT_COST_MODEL));
    runs.analyze.push(a);
    summary = `${a.value.levelCounts.length} levels, critical ${a.value.criticalLength}, run ${a.value.makespan} cycles`;
    runs.json.push(await timed(() => JSON.stringify(graphJson(doc.parsed.entries, a.value, DEFAULT_COST_MODEL)).length));
    runs.dot.push(await timed(() => graphDot(doc.parsed.entries, g, a.value).length));
  }
  const show = (xs: { wall: number; cpu: number }[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;
  row('parse + dependency graph (CSR)', show(runs.parse));
  row('analysis: levels, costs, critical path, slack, list scheduling', show(runs.analyze), summary);
  row('--json report (build + stringify)', show(runs.json));
  row('--dot output', show(runs.dot));
}
