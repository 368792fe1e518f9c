/**
 * Timeline benchmark (not a timed test): a generated 1M-event trace through the real worker
 * (dist/timelineWorker.js) and the built page (dist/webview) in headless Chromium.
 *   - command → first paint: worker build (file on disk → model) + in-page receive/validate/layout/first frame.
 *     The VS Code postMessage hop cannot run here; the page's own structured clone of the message stands in for it.
 *   - pan/zoom: draw time of 300 frames of wheel zoom and drag pan; p50/p95.
 *   - webview memory: JS heap + ArrayBuffer backing stores after GC, minus the empty page, per event.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TimelineModel } from '../core/timeline/model';
import { encode, modelMessage, openTimelinePage, repoRoot } from '../test/webview/page';
import { writeTimelineTrace } from './timelineTrace';

const ROOT = repoRoot();

/** Runs the real worker on a file; resolves with the preview (if any) and the complete model, with their times. */
function buildInWorker(file: string): Promise<{ preview?: TimelineModel; tPreview: number; model: TimelineModel; tDone: number }> {
  const t0 = performance.now();
  return new Promise((res, rej) => {
    const w = new Worker(join(ROOT, 'dist/timelineWorker.js'), { workerData: { kind: 'file', fileName: file, path: file } });
    let preview: TimelineModel | undefined, tPreview = NaN;
    w.on('message', (r: { kind: string; model?: TimelineModel; message?: string }) => {
      if (r.kind === 'preview') { preview = r.model; tPreview = performance.now() - t0; }
      if (r.kind === 'done') { res({ preview, tPreview, model: r.model!, tDone: performance.now() - t0 }); void w.terminate(); }
      if (r.kind === 'error') { rej(new Error(r.message)); void w.terminate(); }
    });
    w.on('error', rej);
  });
}

const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))];

export async function run(events = Number(process.env.TIMELINE_BENCH_EVENTS ?? 1_000_000)): Promise<void> {
  const dir = join(ROOT, 'bench/.data');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `timeline-${events}.trace.jsonl`);
  if (!existsSync(file)) await writeTimelineTrace(file, events);
  const bytes = statSync(file).size;
  console.log(`timeline: ${events.toLocaleString('en-US')} events, ${(bytes / 1048576).toFixed(0)} MB`);

  const built = await buildInWorker(file);
  const model = built.model;
  const items = model.items.start.length;
  console.log(`  worker: preview of the first ${built.preview?.lineCount.toLocaleString('en-US') ?? '–'} lines after ${built.tPreview.toFixed(0)} ms; complete model (read + parse + pair + layout) after ${built.tDone.toFixed(0)} ms → ${items.toLocaleString('en-US')} items`);

  const p = await openTimelinePage({ width: 1600, height: 900 });
  try {
    const cdp = await p.page.context().newCDPSession(p.page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const u = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number; embedderHeapUsedSize?: number };
      return u.usedSize + (u.backingStorageSize ?? 0) + (u.embedderHeapUsedSize ?? 0);
    };
    const before = await heap();
    /** Posts a model as the host would and returns the time from postMessage to its first frame (decoding the harness encoding is not timed). */
    const paint = async (m: TimelineModel, complete: boolean): Promise<number> => {
      await p.page.evaluate((enc) => {
        const w = window as unknown as { __decode(v: unknown): unknown; __pending: unknown };
        w.__pending = w.__decode(enc);
      }, encode({ ...modelMessage(m, 'bench.trace.jsonl'), complete }) as never);
      // A string: tsx would wrap a named function in a helper the page does not have.
      return (await p.page.evaluate(`new Promise((r) => {
        const t = performance.now();
        window.__timeline.perf.firstPaint = 0;
        window.postMessage(window.__pending, '*');
        window.__pending = undefined;
        const poll = () => (window.__timeline.perf.firstPaint ? r(window.__timeline.perf.firstPaint - t) : requestAnimationFrame(poll));
        requestAnimationFrame(poll);
      })`)) as number;
    };
    if (built.preview) {
      const pp = await paint(built.preview, false);
      console.log(`  command → first paint (preview): ${(built.tPreview + pp).toFixed(0)} ms = worker ${built.tPreview.toFixed(0)} + page ${pp.toFixed(0)} (target ≤ 2000)`);
    }
    const pc = await paint(model, true);
    console.log(`  command → complete timeline painted: ${(built.tDone + pc).toFixed(0)} ms = worker ${built.tDone.toFixed(0)} + page ${pc.toFixed(0)}`);

    // Pan and zoom as a user would: wheel at the pointer, then drags.
    await p.page.evaluate(() => { (window as unknown as { __timeline: { perf: { frames: number[] } } }).__timeline.perf.frames.length = 0; });
    await p.page.mouse.move(900, 300);
    for (let k = 0; k < 120; k++) {
      await p.page.mouse.wheel(0, k < 80 ? -120 : 120);
      await p.frame();
    }
    for (let k = 0; k < 90; k++) {
      await p.page.mouse.down();
      await p.page.mouse.move(900 - 40, 300 + (k % 2 ? 3 : -3), { steps: 1 });
      await p.page.mouse.up();
      await p.page.mouse.move(900, 300);
      await p.frame();
    }
    for (let k = 0; k < 90; k++) {
      await p.page.mouse.wheel(0, k < 60 ? 200 : -150);
      await p.frame();
    }
    const frames = await p.page.evaluate(() => (window as unknown as { __timeline: { perf: { frames: number[] } } }).__timeline.perf.frames.slice());
    console.log(`  pan/zoom frame (draw) time over ${frames.length} frames: p50 ${pct(frames, 0.5).toFixed(2)} ms, p95 ${pct(frames, 0.95).toFixed(2)} ms, max ${Math.max(...frames).toFixed(2)} ms (target p95 ≤ 16.7)`);
    const after = await heap();
    console.log(`  webview memory for the model: ${((after - before) / 1048576).toFixed(1)} MB = ${((after - before) / events).toFixed(1)} B/event (target ≤ 100)`);
    console.log(`  model crossing to the webview: ${(itemsBytes(model) / events).toFixed(1)} B/event (target ≤ 24)`);
    if (p.errors.length) console.log(`  page errors: ${p.errors.join('; ')}`);
  } finally {
    await p.close();
  }
}

function itemsBytes(m: TimelineModel): number {
  let b = m.rowItemStart.byteLength + m.rowMaxDur.byteLength + m.ctxAttrs.byteLength;
  for (const c of Object.values(m.items)) b += (c as ArrayBufferView).byteLength;
  for (const c of m.counters) b += c.values.byteLength;
  return b;
}

