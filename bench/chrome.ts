// Chrome Trace JSON both ways. Export: `npu-trace export` of the 1M-event trace (model pass +
// byte pass, written to a temp file) against a plain JSON.parse of every line with the same reader.
// Import: the timeline of a ~200 MB PyTorch-shaped trace as the timeline worker builds it (text in
// pieces, events read in place: node/workers/timelineText.ts) and line by line (the way before),
// against JSON.parse of the whole text (which builds no model). Alternating in this process, so
// all see the same machine.
// Then the export of that trace, whose flows (one ac2g arrow per launch) are written back.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportChromeTrace } from '../node/export/chromeTraceFile';
import { MAX_CHROME_LINE_BYTES as MAX_JSON_LINE } from '../core/chrome/descriptor';
import { forEachLine, forEachLineBytes } from '../node/io/lines';
import { ChromeTimelineBuilder } from '../core/chrome/timeline';
import { buildFromText } from '../node/workers/timelineText';
import { pytorchTrace } from '../test/gen/chromeGen';
import { writeTrace } from '../test/gen/genTrace';
import { dataFile, exists, fmt, median, row, timed } from './util';

export async function run(): Promise<void> {
  console.log('\n## Chrome Trace JSON (export and import)');
  const f = dataFile('trace-1m.trace.jsonl');
  if (!exists(f)) await writeTrace(f, { events: 1_000_000 });
  const out = join(tmpdir(), `npu-bench-export-${process.pid}.json`);
  const ex: { wall: number; cpu: number }[] = [];
  const plain: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < 3; r++) {
    plain.push(await timed(() => forEachLine(f, (line) => { if (line) JSON.parse(line); })));
    ex.push(await timed(() => exportChromeTrace(f, (add) => forEachLine(f, add).then(() => undefined), out, undefined,
      (onBytes, onText) => forEachLineBytes(f, onBytes, onText, { utf8Chunks: true }).then(() => undefined), { modelFromBytes: true })));
  }
  rmSync(out, { force: true });
  row('export 1M events to Chrome JSON (median of 3, wall / CPU)', `${fmt(median(ex.map((x) => x.wall)))} / ${fmt(median(ex.map((x) => x.cpu)))} ms`, 'target ≤ 3000 ms');
  row('plain JSON.parse of every line, same reader (wall / CPU)', `${fmt(median(plain.map((x) => x.wall)))} / ${fmt(median(plain.map((x) => x.cpu)))} ms`);

  const big = dataFile('chrome-pytorch-200mb.pt.trace.json');
  if (!exists(big)) writeFileSync(big, pytorchTrace(61_000));
  const ours: { wall: number; cpu: number }[] = [];
  const lines: { wall: number; cpu: number }[] = [];
  const whole: { wall: number; cpu: number }[] = [];
  let items = 0;
  for (let r = 0; r < 2; r++) {
    const a = await timed(async () => (await buildFromText(big, big))!);
    items = a.value.items.start.length;
    ours.push(a);
    const l = await timed(async () => {
      const b = new ChromeTimelineBuilder();
      await forEachLine(big, (t, n) => b.addLine(t, n), undefined, { maxLineBytes: MAX_JSON_LINE });
      return b.finish();
    });
    if (l.value.items.start.length !== items) throw new Error(`the two ways drew ${items} and ${l.value.items.start.length} items`);
    lines.push(l);
    whole.push(await timed(() => (JSON.parse(readFileSync(big, 'utf8')) as { traceEvents: unknown[] }).traceEvents.length));
  }
  row(`timeline of ${items} slices, 200 MB, as the timeline worker builds it (text in pieces, events read in place; median of 2, wall / CPU)`, `${fmt(median(ours.map((x) => x.wall)))} / ${fmt(median(ours.map((x) => x.cpu)))} ms`, 'target ≤ 5000 ms');
  row('  the same, line by line (the way before)', `${fmt(median(lines.map((x) => x.wall)))} / ${fmt(median(lines.map((x) => x.cpu)))} ms`);
  row('JSON.parse of the whole text, no model (wall / CPU)', `${fmt(median(whole.map((x) => x.wall)))} / ${fmt(median(whole.map((x) => x.cpu)))} ms`);

  const back: { wall: number; cpu: number }[] = [];
  const big2 = { maxLineBytes: MAX_JSON_LINE, utf8Chunks: true };
  for (let r = 0; r < 2; r++) {
    back.push(await timed(() => exportChromeTrace(big, (add) => forEachLine(big, add, undefined, big2).then(() => undefined), out, undefined,
      (onBytes, onText) => forEachLineBytes(big, onBytes, onText, big2).then(() => undefined), { modelFromBytes: true })));
  }
  rmSync(out, { force: true });
  row('export of that trace to Chrome JSON, its ac2g flows included (median of 2, wall / CPU)', `${fmt(median(back.map((x) => x.wall)))} / ${fmt(median(back.map((x) => x.cpu)))} ms`);
}
