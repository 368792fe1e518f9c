// Issue #31's Chrome rows, on a trace shaped like the ones users open: a PyTorch 2.x training run as
// Kineto writes it (test/gen/kinetoTraining.ts: pretty-printed, with_stack frames, record_shapes
// args, ac2g/fwdbwd flows written f before s, [memory] instants, memcpy on two streams; ~108 MB,
// 365k events), beside the older generator's one-event-a-line trace (test/gen/chromeGen.ts) of the
// same size. Each figure sits beside its baseline of the same run, alternated:
// - `check`, cold (a fresh `node dist/cli.js` per call) against the same CLI on one thread and the
//   CLI of BASELINE, built from git;
// - the checker in this process, text in pieces (its CLI way) against lines with JSON.parse of every
//   event (the old way, the editor's), and against JSON.parse of each event with nothing else;
// - the timeline model as the worker builds it (text in pieces, events read in place, a part read on
//   another thread) against one thread and the way it did before (lines, JSON.parse of every
//   event), and its first preview.
import { readFileSync, writeFileSync } from 'node:fs';
import { ChromeChecker, chromeChunkChecker } from '../core/chrome/checks';
import { MAX_CHROME_LINE_BYTES } from '../core/chrome/descriptor';
import { ChromeReader } from '../core/chrome/reader';
import { ChromeTimelineBuilder } from '../core/chrome/timeline';
import { defaultDiagnosticSettings } from '../core/common/settings';
import { forEachLine, forEachText } from '../node/io/lines';
import { buildFromText } from '../node/workers/timelineText';
import { pytorchTrace } from '../test/gen/chromeGen';
import { kinetoTrainingTrace } from '../test/gen/kinetoTraining';
import { BASELINE, baselineCli } from './baseline';
import { coldN } from './cli';
import { dataFile, exists, fmt, loadNow, median, row, timed } from './util';

type Time = { wall: number; cpu: number };
const m = (xs: Time[]) => `${fmt(median(xs.map((x) => x.wall)))} / ${fmt(median(xs.map((x) => x.cpu)))} ms`;
const READ = { maxLineBytes: MAX_CHROME_LINE_BYTES };

async function checkPieces(file: string): Promise<number> {
  const c = chromeChunkChecker({ maxProblems: 100 });
  await forEachText(file, (t) => c.feed(t));
  return c.finish({ ...defaultDiagnosticSettings, maxProblems: 100 }).diagnostics.length;
}

async function checkLines(file: string): Promise<number> {
  const c = new ChromeChecker({ maxProblems: 100 });
  await forEachLine(file, (l, n) => c.add(l, n), undefined, READ);
  return c.finishCapped({ ...defaultDiagnosticSettings, maxProblems: 100 }).diagnostics.length;
}

/** The events split out and each given to JSON.parse, nothing more: the yardstick of issue #31. */
async function parseEach(file: string): Promise<number> {
  let n = 0;
  const r = new ChromeReader({ event: () => n++ });
  await forEachLine(file, (l, k) => r.addLine(l, k), undefined, READ);
  r.stream.end();
  return n;
}

/** The timeline model the old way (the worker's until issue #31's timeline row): lines, JSON.parse of every event. */
async function timelineLines(file: string): Promise<number> {
  const b = new ChromeTimelineBuilder();
  await forEachLine(file, (l, n) => b.addLine(l, n), undefined, READ);
  return b.finish().items.start.length;
}

/** The worker's way (node/workers/timelineText.ts): text in pieces, most events read in place; ms to its first preview too. */
async function timelineText(file: string): Promise<{ items: number; firstPaint: number }> {
  const t0 = performance.now();
  let firstPaint = NaN;
  const m = await buildFromText(file, file, () => {
    if (Number.isNaN(firstPaint)) firstPaint = performance.now() - t0;
  });
  return { items: m!.items.start.length, firstPaint };
}

export async function run(): Promise<void> {
  console.log(`\n## PyTorch/Kineto traces as users have them (issue #31): check and timeline, this checkout vs ${BASELINE} and vs JSON.parse of each event, alternated (median of 3, wall / CPU)`);
  const real = dataFile('kineto-training.pt.trace.json');
  if (!exists(real)) writeFileSync(real, kinetoTrainingTrace().text);
  const gen = dataFile('chrome-pytorch-108mb.pt.trace.json');
  if (!exists(gen)) writeFileSync(gen, pytorchTrace(33_000));
  const inputs: [string, string][] = [['realistic Kineto training trace', real], ['generator trace, one event a line', gen]];
  for (const [what, file] of inputs) {
    const mb = readFileSync(file).length / 1e6;
    const cases: [string, () => Promise<number>][] = [['check, text in pieces, events read in place (the CLI\'s way)', () => checkPieces(file)], ['check, lines and JSON.parse of every event (the old way)', () => checkLines(file)], ['JSON.parse of each event, nothing else', () => parseEach(file)]];
    const times = cases.map((): Time[] => []);
    const values: number[] = [];
    for (let r = 0; r < 3; r++) {
      for (let j = 0; j < cases.length; j++) {
        const k = (j + r) % cases.length;
        const t = await timed(cases[k][1]);
        times[k].push(t);
        values[k] = t.value;
      }
    }
    console.log(`  ${what}: ${fmt(mb, 1)} MB`);
    row(`${what}, ${fmt(mb)} MB: ${cases[0][0]} → ${values[0]} problems`, m(times[0]), `target ≤ 1000 ms; ${fmt(mb / (median(times[0].map((x) => x.cpu)) / 1000))} MB/s of CPU`);
    row(`  ${cases[1][0]} → ${values[1]} problems`, m(times[1]), `in pieces ÷ this: CPU ${fmt(median(times[0].map((x) => x.cpu)) / median(times[1].map((x) => x.cpu)), 2)}×`);
    row(`  ${cases[2][0]} → ${values[2]} events`, m(times[2]), `in pieces ÷ this: CPU ${fmt(median(times[0].map((x) => x.cpu)) / median(times[2].map((x) => x.cpu)), 2)}×`);
  }

  // Cold, as a user runs it: this checkout's CLI and the baseline's, alternated.
  const COLD_ROUNDS = 7;
  const old = baselineCli();
  const cli = ['dist/cli.js', 'check', real];
  const now: { ms: number; cpuMs: number; rssMb: number; codes: string }[] = [];
  const before: typeof now = [];
  // The same CLI on one thread: the parts on every core (cli/parallelChrome.ts) against the one pass.
  const oneThread: typeof now = [];
  // Seven rounds: this machine's speed moves by a fifth from minute to minute, and three medians
  // a minute apart differed by more than the change measured.
  for (let r = 0; r < COLD_ROUNDS; r++) {
    now.push(coldN(1, cli));
    oneThread.push(coldN(1, cli, [], { NPU_CHECK_THREADS: '0' }));
    if ('file' in old) before.push(coldN(1, [old.file, 'check', real]));
  }
  const bare = coldN(3, ['-e', '0']);
  const c = (xs: typeof now) => `${fmt(median(xs.map((x) => x.ms)))} / ${fmt(median(xs.map((x) => x.cpuMs)))} ms; ${fmt(Math.max(...xs.map((x) => x.rssMb)))} MB`;
  row(`check of the realistic trace, cold (npu-trace check: its parts on every core; median of ${COLD_ROUNDS}): wall / CPU; RSS`, c(now), `exit ${now.map((x) => x.codes).join(',')}; target ≤ 1000 ms; bare node ${fmt(bare.ms)} / ${fmt(bare.cpuMs)} ms`);
  row('  the same on one thread (NPU_CHECK_THREADS=0)', c(oneThread), `exit ${oneThread.map((x) => x.codes).join(',')}; every core ÷ one thread: wall ${fmt(median(now.map((x) => x.ms)) / median(oneThread.map((x) => x.ms)), 2)}×`);
  if ('file' in old) row(`  the same with the CLI of ${BASELINE}`, c(before), `exit ${before.map((x) => x.codes).join(',')}; now ÷ before: CPU ${fmt(median(now.map((x) => x.cpuMs)) / median(before.map((x) => x.cpuMs)), 2)}×`);
  else console.log(`  no baseline CLI: ${old.why}`);

  // The timeline model as the worker builds it now (a part read on another thread), on one thread,
  // and as it did before, alternated.
  const tl: Time[] = [], oneTl: Time[] = [], oldTl: Time[] = [], paint: number[] = [];
  let items = 0, oneItems = 0, oldItems = 0;
  const timelineOneThread = async () => {
    process.env.NPU_TIMELINE_READ_THREAD = '0';
    try {
      const t = await timed(() => timelineText(real));
      oneItems = t.value.items;
      oneTl.push(t);
    } finally {
      delete process.env.NPU_TIMELINE_READ_THREAD;
    }
  };
  for (let r = 0; r < 3; r++) {
    const before = async () => {
      const t = await timed(() => timelineLines(real));
      oldItems = t.value;
      oldTl.push(t);
    };
    if (r % 2) await before();
    if (r % 2) await timelineOneThread();
    const t = await timed(() => timelineText(real));
    items = t.value.items;
    paint.push(t.value.firstPaint);
    tl.push(t);
    if (r % 2 === 0) await timelineOneThread();
    if (r % 2 === 0) await before();
  }
  row(`timeline model of the realistic trace, ${items} items (the worker's builder: text in pieces, events read in place, a part on another thread; median of 3)`, m(tl), `target complete ≤ 1500 ms; first paint ${fmt(median(paint))} ms wall (target ≤ 500 ms); ${loadNow()}`);
  row(`  the same on one thread (NPU_TIMELINE_READ_THREAD=0), ${oneItems} items`, m(oneTl), `two threads ÷ one: wall ${fmt(median(tl.map((x) => x.wall)) / median(oneTl.map((x) => x.wall)), 2)}×, CPU ${fmt(median(tl.map((x) => x.cpu)) / median(oneTl.map((x) => x.cpu)), 2)}×`);
  row(`  the same, lines and JSON.parse of every event (the worker's way before), ${oldItems} items`, m(oldTl), `now ÷ before: CPU ${fmt(median(tl.map((x) => x.cpu)) / median(oldTl.map((x) => x.cpu)), 2)}×`);
}
