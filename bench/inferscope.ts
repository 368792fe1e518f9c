import { analyze } from '../core/inferscope/analyze';
import { InferscopeDocument } from '../core/inferscope/document';
import { inferscopeTrace, pretty } from '../test/gen/inferscopeGen';
import { fmt, median, row, timed } from './util';

/** `npm run bench inferscope`: a ~200k-event trace as Python pretty-prints it, against JSON.parse of the same text. */
export async function run(): Promise<void> {
  console.log('\n## inferscope (.inferscope.json)');
  const text = pretty(inferscopeTrace({ requests: 17_000, kernels: 3 }));
  const events = InferscopeDocument.parse(text).parsed.events.length;
  row('generated trace', `${events} events, ${fmt(text.length / 1e6, 1)} MB`);
  const jp: { wall: number; cpu: number }[] = [];
  const check: { wall: number; cpu: number }[] = [];
  const an: { wall: number; cpu: number }[] = [];
  let problems = -1;
  for (let r = 0; r < 3; r++) {
    jp.push(await timed(() => JSON.parse(text) as unknown));
    const c = await timed(() => InferscopeDocument.parse(text).capped({ severity: {}, maxProblems: 1000 }));
    problems = c.value.diagnostics.length;
    check.push(c);
    const doc = InferscopeDocument.parse(text);
    an.push(await timed(() => analyze(doc)));
  }
  const m = (xs: { wall: number; cpu: number }[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;
  row('JSON.parse of the same text (median of 3, wall / CPU)', m(jp));
  row('validation: parse with ranges + schema + all checks (wall / CPU)', m(check), 'target ≤ 1500 ms');
  row('analysis of the parsed trace (wall / CPU)', m(an), 'target ≤ 1500 ms');
  row('problems found', `${problems}`, 'expect 0');
}
