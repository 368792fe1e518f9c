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
import { fastTraceBytes } from '../core/trace/fastBytes';
import { fieldsOfBytes, flatEventOfBytes } from '../core/trace/metrics/byteFields';
import { pytorchTrace } from '../test/gen/chromeGen';
import { cmdqText } from '../test/gen/cmdqGen';
import { inferscopeTrace, pretty } from '../test/gen/inferscopeGen';
import { traceLines } from '../test/gen/genTrace';
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

const decodeUtf8 = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('utf8');

/** Each line of `b` (ends at `ends`) through a byte reader; how many it was sure of. */
function byteLines(b: Uint8Array, ends: Int32Array, read: (b: Uint8Array, s: number, e: number) => boolean): number {
  let sure = 0;
  let s = 0;
  for (let k = 0; k < ends.length; k++) {
    if (read(b, s, ends[k])) sure++;
    s = ends[k] + 1;
  }
  return sure;
}

// The objects the byte readers fill, written out so that this file compiles on either side.
const flat = {
  type: undefined, t: undefined, tNs: undefined, cmd: undefined, job: undefined, tx: undefined, npu: undefined, core: undefined,
  channel: undefined, link: undefined, size: undefined, status: undefined, phase: undefined, layer: undefined, block: undefined,
  tenant: undefined, model: undefined, cmdType: undefined, jobType: undefined, opType: undefined, direction: undefined,
  component: undefined, code: undefined,
};
const fields = {
  type: -1, t: undefined, tNs: NaN, cmd: undefined, job: undefined, tx: undefined, npu: undefined, core: undefined,
  channel: undefined, size: undefined, bank: undefined, direction: undefined, phase: undefined, layer: undefined,
};

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
  const npu = Buffer.from([...traceLines({ events: 300_000 })].join('\n'));
  const ends = Int32Array.from((function* () { for (let i = npu.indexOf(10); i >= 0; i = npu.indexOf(10, i + 1)) yield i; })());
  const cases: [string, () => unknown][] = [
    [`NPU trace lines, checker's byte scanner, ${ends.length} lines (fastTraceBytes)`, () => byteLines(npu, ends, (b, s, e) => fastTraceBytes(b, s, e, decodeUtf8) !== undefined)],
    ['NPU trace lines, metrics byte reader (fieldsOfBytes)', () => byteLines(npu, ends, (b, s, e) => fieldsOfBytes(b, s, e, fields as never, decodeUtf8))],
    ['NPU trace lines, timeline byte reader (flatEventOfBytes)', () => byteLines(npu, ends, (b, s, e) => flatEventOfBytes(b, s, e, flat as never, decodeUtf8))],
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
