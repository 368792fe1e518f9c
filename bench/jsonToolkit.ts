// The JSON toolkit (core/json, core/common/intervals) through each format's own entry point: the
// NPU trace line readers on the flat-object reader, the Chrome event splitter fed lines, the
// InferScope streamed reader fed 1 MB chunks (pretty-printed and compact), the CMDQ and InferScope
// parsers with ranges, the kernel-profiler overlap. Only entry points that predate the toolkit are
// called, so each case runs again on the same entry point as it was at the baseline commit, before
// the toolkit (bench/baseline.ts builds it from git), alternately with this checkout's, in the same
// run (issue #28's "no format slower than before").
import * as chromeStream from '../core/chrome/stream';
import * as cmdqParser from '../core/cmdq/parser';
import * as inferscopeParser from '../core/inferscope/parser';
import * as inferscopeStream from '../core/inferscope/stream';
import { decode } from '../core/kprof/decode';
import * as kprofOverlap from '../core/kprof/overlap';
import { readNpy } from '../core/kprof/npy';
import * as fastBytes from '../core/trace/fastBytes';
import * as byteFields from '../core/trace/metrics/byteFields';
import { BASELINE, baselineModule } from './baseline';
import { pytorchTrace } from '../test/gen/chromeGen';
import { cmdqText } from '../test/gen/cmdqGen';
import { inferscopeTrace, pretty } from '../test/gen/inferscopeGen';
import { traceLines } from '../test/gen/genTrace';
import { genKprofLarge, npyBytes } from '../test/gen/kprofGen';
import { fmt, median, row, timed } from './util';

type Time = { wall: number; cpu: number };
/** Rounds of each case: the cases take 0.1–1 s, and five left the ratios ±15 % from run to run on a 2-core VM. */
const ROUNDS = 11;
const m = (xs: Time[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;

// The drivers that call each side's entry point. Each side gets copies of its own
// (`driversOfItsOwn`): V8 keeps type feedback per function literal, so one driver calling both
// sides' classes is a polymorphic call site that neither side has in use, and which side it
// inlines decides the ratio. They name nothing outside their parameters (they are compiled again
// from their text). Each holds on to the reader it made until its next run (`held`, a slot per
// reader class), on both sides: V8 keeps the maps of a class's instances only while one lives, so
// when the gc() before each run collected the last reader, the optimized code that depends on
// those maps was thrown away and compiled again every round — background compile time counted as
// CPU, more for a side compiled as more functions; a cost of the harness, not of either side.
function chromeEvents(m: typeof chromeStream, lines: string[], held: unknown[]): number {
  let n = 0;
  const s = new m.ChromeEventStream({ event: () => n++, broken: () => undefined });
  held[0] = s;
  for (let i = 0; i < lines.length; i++) s.feed(lines[i], i);
  s.end();
  return n;
}

function inferscopeStreamed(m: typeof inferscopeStream, text: string, held: unknown[]): number {
  const s = new m.InferscopeStream();
  held[1] = s;
  for (let at = 0; at < text.length; at += 1 << 20) s.feed(text.slice(at, at + (1 << 20)));
  const n = s.end().events.length;
  // The events themselves are not held on to.
  held[1] = new m.InferscopeStream();
  return n;
}

/** Each line of `b` (ends at `ends`) through one of the NPU trace byte readers; how many it was sure of. */
function byteLines(m: Modules, which: 0 | 1 | 2, b: Uint8Array, ends: Int32Array, decode: Decode, fields: unknown, flat: unknown): number {
  let sure = 0;
  let s = 0;
  for (let k = 0; k < ends.length; k++) {
    const e = ends[k];
    if (which === 0 ? m.fastBytes.fastTraceBytes(b, s, e, decode) !== undefined : which === 1 ? m.byteFields.fieldsOfBytes(b, s, e, fields as never, decode) : m.byteFields.flatEventOfBytes(b, s, e, flat as never, decode)) sure++;
    s = e + 1;
  }
  return sure;
}

const DRIVERS = { chromeEvents, inferscopeStreamed, byteLines, held: [] as unknown[] };
type Drivers = typeof DRIVERS;

/** The drivers compiled again from their text: code of this side's own. */
function driversOfItsOwn(): Drivers {
  const own = (f: (...a: never[]) => unknown) => new Function(`return (${f.toString()});`)() as never;
  return { chromeEvents: own(chromeEvents), inferscopeStreamed: own(inferscopeStreamed), byteLines: own(byteLines), held: [] };
}

type Decode = (b: Uint8Array, s: number, e: number) => string;
const decodeUtf8: Decode = (b, s, e) => Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('utf8');

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

/** The modules the cases call, from this checkout and as they were at the baseline. */
const NOW = { chromeStream, cmdqParser, inferscopeParser, inferscopeStream, kprofOverlap, fastBytes, byteFields };
type Modules = typeof NOW;
const FILES: Record<keyof Modules, string> = {
  chromeStream: 'core/chrome/stream.ts', cmdqParser: 'core/cmdq/parser.ts', inferscopeParser: 'core/inferscope/parser.ts', inferscopeStream: 'core/inferscope/stream.ts',
  kprofOverlap: 'core/kprof/overlap.ts', fastBytes: 'core/trace/fastBytes.ts', byteFields: 'core/trace/metrics/byteFields.ts',
};

function baselineModules(): Modules | string {
  const out: Partial<Record<keyof Modules, unknown>> = {};
  for (const [k, file] of Object.entries(FILES) as [keyof Modules, string][]) {
    const m = baselineModule<unknown>(file);
    if (m && typeof m === 'object' && 'why' in m) return (m as { why: string }).why;
    out[k] = m;
  }
  return out as Modules;
}

export async function run(): Promise<void> {
  console.log(`\n## JSON toolkit through each format, this checkout vs ${BASELINE} (before the toolkit), alternated in one run (median of ${ROUNDS}, wall / CPU; the ratio is the median of each round's now ÷ before)`);
  let old: Modules | string;
  try {
    old = baselineModules();
  } catch (e) {
    old = `could not build ${BASELINE}: ${(e as Error).message.split('\n')[0]}`;
  }
  if (typeof old === 'string') console.log(`No baseline (${old}): this checkout only.`);
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
  const cases: [string, (m: Modules, d: Drivers) => unknown][] = [
    [`NPU trace lines, checker's byte scanner, ${ends.length} lines (fastTraceBytes)`, (m, d) => d.byteLines(m, 0, npu, ends, decodeUtf8, fields, flat)],
    ['NPU trace lines, metrics byte reader (fieldsOfBytes)', (m, d) => d.byteLines(m, 1, npu, ends, decodeUtf8, fields, flat)],
    ['NPU trace lines, timeline byte reader (flatEventOfBytes)', (m, d) => d.byteLines(m, 2, npu, ends, decodeUtf8, fields, flat)],
    [`Chrome events, ${fmt(chrome.length / 1e6, 1)} MB one event a line (ChromeEventStream)`, (m, d) => d.chromeEvents(m.chromeStream, chromeLines, d.held)],
    ['Chrome events, the same trace on one line', (m, d) => d.chromeEvents(m.chromeStream, chromeOneLine, d.held)],
    [`InferScope streamed, ${fmt(isPretty.length / 1e6, 1)} MB pretty-printed (InferscopeStream)`, (m, d) => d.inferscopeStreamed(m.inferscopeStream, isPretty, d.held)],
    [`InferScope streamed, ${fmt(isCompact.length / 1e6, 1)} MB compact`, (m, d) => d.inferscopeStreamed(m.inferscopeStream, isCompact, d.held)],
    ['InferScope parsed with ranges, pretty-printed (parseInferscope)', (m) => m.inferscopeParser.parseInferscope(isPretty).events.length],
    [`CMDQ parsed with ranges, 100k entries, ${fmt(cmdq.length / 1e6, 1)} MB (parseCmdq)`, (m) => m.cmdqParser.parseCmdq(cmdq).entries.length],
    [`kprof producer/consumer overlap, ${kprof.regionCount} regions (groupOverlap)`, (m) => m.kprofOverlap.groupOverlap(kprof, 0, 1).overlapNs],
  ];
  // `JT_ONLY=<regex>`: only the cases whose names match (CONTRIBUTING.md), for working on one.
  const only = process.env.JT_ONLY;
  if (only) cases.splice(0, cases.length, ...cases.filter((c) => new RegExp(only).test(c[0])));
  const sides: [string, Modules, Drivers][] = typeof old === 'string' ? [['now', NOW, DRIVERS]] : [['now', NOW, driversOfItsOwn()], ['baseline', old, driversOfItsOwn()]];
  const times = sides.map(() => cases.map((): Time[] => []));
  const values = sides.map((): unknown[] => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < cases.length; k++) {
      // Old and new in turn, each first every other round, so that neither always runs warmer.
      for (let j = 0; j < sides.length; j++) {
        const side = (j + r) % sides.length;
        const t = await timed(() => cases[k][1](sides[side][1], sides[side][2]));
        times[side][k].push(t);
        values[side][k] = t.value;
      }
    }
  }
  for (let k = 0; k < cases.length; k++) {
    if (sides.length === 1) {
      row(`${cases[k][0]} → ${String(values[0][k])}`, m(times[0][k]));
      continue;
    }
    // Paired by round: a slow stretch of a shared machine slows both sides of a round, not one side's median.
    const ratio = median(times[0][k].map((x, r) => x.cpu / times[1][k][r].cpu));
    // CPU counts V8's background threads (GC, and optimizing compiles: a side compiled as more functions pays more when its code is thrown away each round), wall does not.
    const wallRatio = median(times[0][k].map((x, r) => x.wall / times[1][k][r].wall));
    const same = values[0][k] === values[1][k] ? '' : `; results differ: ${String(values[1][k])} before`;
    row(`${cases[k][0]} → ${String(values[0][k])}: now; ${BASELINE}`, `${m(times[0][k])}; ${m(times[1][k])}`, `CPU now ÷ before ${fmt(ratio, 2)}×, wall ${fmt(wallRatio, 2)}×${same}`);
  }
}
