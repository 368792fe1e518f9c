// The JSON toolkit (core/json, core/common/intervals) through each format's own entry point: the
// Chrome event splitter fed lines, the InferScope streamed reader fed 1 MB chunks (pretty-printed
// and compact), the CMDQ and InferScope parsers with ranges, the kernel-profiler overlap. Only
// entry points that predate the toolkit are called, so this file runs unchanged on a checkout from
// before it: run it there and here, alternately, to compare (issue #28's "no format slower").
import { ChromeEventStream } from '../core/chrome/stream';
import { parseCmdq } from '../core/cmdq/parser';
import { parseInferscope } from '../core/inferscope/parser';
import { InferscopeStream } from '../core/inferscope/stream';
import { decode } from '../core/kprof/decode';
import { groupOverlap } from '../core/kprof/overlap';
import { readNpy } from '../core/kprof/npy';
import { pytorchTrace } from '../test/gen/chromeGen';
import { cmdqText } from '../test/gen/cmdqGen';
import { inferscopeTrace, pretty } from '../test/gen/inferscopeGen';
import { genKprofLarge, npyBytes } from '../test/gen/kprofGen';
import { fmt, median, row, timed } from './util';

type Time = { wall: number; cpu: number };
const m = (xs: Time[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;

function chromeEvents(lines: string[]): number {
  let n = 0;
  const s = new ChromeEventStream({ event: () => n++, broken: () => undefined });
  for (let i = 0; i < lines.length; i++) s.feed(lines[i], i);
  s.end();
  return n;
}

function inferscopeStreamed(text: string): number {
  const s = new InferscopeStream();
  for (let at = 0; at < text.length; at += 1 << 20) s.feed(text.slice(at, at + (1 << 20)));
  return s.end().events.length;
}

export async function run(): Promise<void> {
  console.log('\n## JSON toolkit through each format (median of 5, wall / CPU)');
  const chrome = pytorchTrace(6_000);
  const chromeLines = chrome.split('\n');
  const chromeOneLine = [JSON.stringify(JSON.parse(chrome))];
  const isPretty = pretty(inferscopeTrace({ requests: 4_000, kernels: 3 }));
  const isCompact = JSON.stringify(JSON.parse(isPretty));
  const cmdq = cmdqText(100_000);
  const g = genKprofLarge(132, 2, 8_000);
  const kprof = decode(readNpy(npyBytes(g.words))[0]);
  const cases: [string, () => unknown][] = [
    [`Chrome events, ${fmt(chrome.length / 1e6, 1)} MB one event a line (ChromeEventStream)`, () => chromeEvents(chromeLines)],
    ['Chrome events, the same trace on one line', () => chromeEvents(chromeOneLine)],
    [`InferScope streamed, ${fmt(isPretty.length / 1e6, 1)} MB pretty-printed (InferscopeStream)`, () => inferscopeStreamed(isPretty)],
    [`InferScope streamed, ${fmt(isCompact.length / 1e6, 1)} MB compact`, () => inferscopeStreamed(isCompact)],
    ['InferScope parsed with ranges, pretty-printed (parseInferscope)', () => parseInferscope(isPretty).events.length],
    [`CMDQ parsed with ranges, 100k entries, ${fmt(cmdq.length / 1e6, 1)} MB (parseCmdq)`, () => parseCmdq(cmdq).entries.length],
    [`kprof producer/consumer overlap, ${kprof.regionCount} regions (groupOverlap)`, () => groupOverlap(kprof, 0, 1).overlapNs],
  ];
  const times: Time[][] = cases.map(() => []);
  const values: unknown[] = [];
  for (let r = 0; r < 5; r++) {
    for (let k = 0; k < cases.length; k++) {
      const t = await timed(cases[k][1]);
      times[k].push(t);
      values[k] = t.value;
    }
  }
  for (let k = 0; k < cases.length; k++) row(`${cases[k][0]} → ${String(values[k])}`, m(times[k]));
}
