/**
 * Timeline benchmark (not a timed test): a generated 1M-event trace through the real worker
 * (dist/timelineWorker.js) and the built page (dist/webview) in headless Chromium.
 *   - command → first paint: worker build (file on disk → model) + in-page receive/validate/layout/first frame.
 *     The worker also runs as it was at BEFORE_31 (bench/baseline.ts), alternately with this one, for the same-run comparison.
 *     The columns reach the page as binary (bench/timelineDelivery.ts: fetched from 127.0.0.1, not timed), then
 *     the host's message is posted to the page's own handler; the VS Code postMessage hop cannot run here, the
 *     page's own structured clone of the message stands in for it.
 *   - frames: 200 frames of wheel zoom and drag pan, without and with a filter, and steps through search
 *     matches; per frame the render() call and the time users meet (input event → end of drawing),
 *     p50/p95, and the page's main-thread busy time (CDP TaskDuration). Each case runs twice on this
 *     page and twice on a baseline page whose renderer is webview/render.ts at TIMELINE_BASELINE
 *     (default: before the filtered-frame change; `none`: no baseline page), alternating which goes first, in one run.
 *   - webview memory: JS heap + ArrayBuffer backing stores after GC, minus the empty page, per event.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TimelineModel } from '../core/timeline/model';
import { filterBy, openTimelinePage, repoRoot, type TimelinePage } from '../test/webview/page';
import { ColumnServer, postStaged, stageModel } from './timelineDelivery';
import { writeTimelineTrace } from './timelineTrace';
import { baselineCli, BEFORE_31 } from './baseline';
import { median } from './util';

const ROOT = repoRoot();
/** The renderer before filtered frames skipped pixels (the parent of that change). */
const BASELINE_DEFAULT = 'b7dc5b47d9d16635c999aa5b0e1b8b8a50c0f04c';

/** Runs the real worker on a file; resolves with the preview (if any) and the complete model, with their times. */
function buildInWorker(file: string, worker = join(ROOT, 'dist/timelineWorker.js')): Promise<{ preview?: TimelineModel; tPreview: number; model: TimelineModel; tDone: number }> {
  const t0 = performance.now();
  return new Promise((res, rej) => {
    const w = new Worker(worker, { workerData: { kind: 'file', fileName: file, path: file } });
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

/** `baseline`: the git revision of the renderer to compare with, or 'none'. */
export async function run(events = Number(process.env.TIMELINE_BENCH_EVENTS ?? 1_000_000), baseline = process.env.TIMELINE_BASELINE ?? BASELINE_DEFAULT): Promise<void> {
  const dir = join(ROOT, 'bench/.data');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `timeline-${events}.trace.jsonl`);
  if (!existsSync(file)) await writeTimelineTrace(file, events);
  const bytes = statSync(file).size;
  console.log(`timeline: ${events.toLocaleString('en-US')} events, ${(bytes / 1048576).toFixed(0)} MB`);

  // This thread only waits meanwhile: the process's CPU time is the worker's (on a shared machine, compare it).
  const timedBuild = async (worker?: string) => {
    const cpu0 = process.cpuUsage();
    const b = await buildInWorker(file, worker);
    const c = process.cpuUsage(cpu0);
    return { ...b, cpuMs: (c.user + c.system) / 1000 };
  };
  const built = await timedBuild();
  const model = built.model;
  const items = model.items.start.length;
  console.log(`  worker: preview of the first ${built.preview?.lineCount.toLocaleString('en-US') ?? '–'} lines after ${built.tPreview.toFixed(0)} ms; complete model (read + parse + pair + layout) after ${built.tDone.toFixed(0)} ms, CPU ${built.cpuMs.toFixed(0)} ms → ${items.toLocaleString('en-US')} items`);
  // The same build by the worker as it was when issue #31 began, alternately with this one (median of 3 each).
  const old = baselineCli(BEFORE_31);
  if ('why' in old) console.log(`  (no baseline worker: ${old.why})`);
  else {
    const oldWorker = join(old.file, '..', 'timelineWorker.js');
    const now: { tDone: number; cpuMs: number }[] = [], before: { tDone: number; cpuMs: number }[] = [];
    for (let r = 0; r < 3; r++) {
      now.push(await timedBuild());
      const o = await timedBuild(oldWorker);
      if (o.model.items.start.length !== items) throw new Error(`the worker of ${BEFORE_31} drew ${o.model.items.start.length} items, this one ${items}`);
      before.push(o);
    }
    const m = (xs: { tDone: number; cpuMs: number }[]) => `${median(xs.map((x) => x.tDone)).toFixed(0)} / ${median(xs.map((x) => x.cpuMs)).toFixed(0)} ms`;
    console.log(`  worker, complete model, alternated (median of 3, wall / CPU): this checkout ${m(now)}; ${BEFORE_31} ${m(before)}; CPU now ÷ before ${(median(now.map((x) => x.cpuMs)) / median(before.map((x) => x.cpuMs))).toFixed(2)}×`);
  }

  const p = await openTimelinePage({ width: 1600, height: 900, bypassCSP: true });
  const server = await ColumnServer.start();
  try {
    const cdp = await p.page.context().newCDPSession(p.page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const u = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number; embedderHeapUsedSize?: number };
      return u.usedSize + (u.backingStorageSize ?? 0) + (u.embedderHeapUsedSize ?? 0);
    };
    const before = await heap();
    /** Posts a model as the host would and returns the time from postMessage to its first frame (fetching the columns is not timed). */
    const paint = async (m: TimelineModel, complete: boolean): Promise<number> => {
      await stageModel(p, server, m, 'bench.trace.jsonl', complete);
      return postStaged(p);
    };
    if (built.preview) {
      const pp = await paint(built.preview, false);
      console.log(`  command → first paint (preview): ${(built.tPreview + pp).toFixed(0)} ms = worker ${built.tPreview.toFixed(0)} + page ${pp.toFixed(0)} (target ≤ 2000)`);
    }
    const pc = await paint(model, true);
    console.log(`  command → complete timeline painted: ${(built.tDone + pc).toFixed(0)} ms = worker ${built.tDone.toFixed(0)} + page ${pc.toFixed(0)}`);

    const old = baseline === 'none' ? undefined : await openBaseline(p.browser, baseline);
    if (old) {
      await stageModel(old, server, model, 'bench.trace.jsonl', true);
      await postStaged(old);
    }
    const pages: [string, TimelinePage][] = [['new', p], ...(old ? [[`old (render.ts at ${baseline.slice(0, 7)})`, old] as [string, TimelinePage]] : [])];
    const filtered = (act: (q: TimelinePage) => Promise<void>) => async (q: TimelinePage) => {
      await filterBy(q, '0', 'MLP');
      await act(q);
      await filterBy(q, '-1', undefined);
    };
    const cases: [string, (q: TimelinePage) => Promise<void>][] = [
      ['whole trace in view, 60 drag pans, no filter', dragWhole],
      ['whole trace in view, 60 drag pans, filter phase = MLP', filtered(dragWhole)],
      ['wheel zoom in and out + drag pans (200 frames), no filter', panZoom],
      ['wheel zoom in and out + drag pans (200 frames), filter phase = MLP', filtered(panZoom)],
      ['filter change: phase = MLP / QKV_PROJ alternately, 20 picks (whole trace in view)', switchFilter],
      ['search "TE_START": Enter → next match selected, revealed and outlined (60 steps)', async (q) => searchSteps(q, 'TE_START', 60)],
    ];
    // Warm both pages up (JIT, caches), then run every case twice per page, alternating which page goes first.
    for (const [, q] of pages) await dragWhole(q);
    for (const [name, act] of cases) {
      console.log(`  ${name}: render() p50 / p95 · input → drawn p50 / p95 · page main-thread busy time per frame · frame CPU (thread time) p50 / p95`);
      const got = pages.map(() => ({ frames: [] as number[], latency: [] as number[], cpuMs: 0, frameCpu: [] as number[] }));
      for (let round = 0; round < 2; round++) {
        for (let j = 0; j < pages.length; j++) {
          const k = round % 2 ? pages.length - 1 - j : j;
          const r = await measure(pages[k][1], act);
          got[k].frames.push(...r.frames);
          got[k].latency.push(...r.latency);
          got[k].frameCpu.push(...r.frameCpu);
          got[k].cpuMs += r.cpuMs;
        }
      }
      pages.forEach(([label], k) => {
        const r = got[k];
        console.log(`    ${label.padEnd(28)} ${fmt(r.frames)} ms · ${fmt(r.latency)} ms · ${(r.cpuMs / Math.max(1, r.frames.length)).toFixed(2)} ms (${r.frames.length} frames) · ${r.frameCpu.length ? fmt(r.frameCpu) : '–'} ms`);
      });
    }
    // Chromium delivers wheel and pointer moves aligned to animation frames and the page draws on the
    // next one, so input → drawn cannot go below about one or two frame intervals whatever render() costs.
    console.log('  target: render() p95 ≤ 16.7 ms; input → drawn is reported as users meet it (its floor is one to two frames, 16.7–33 ms)');
    if (old) await old.close();
    const after = await heap();
    console.log(`  webview memory for the model: ${((after - before) / 1048576).toFixed(1)} MB = ${((after - before) / events).toFixed(1)} B/event (JS heap + ArrayBuffer backing stores after GC, CDP Runtime.getHeapUsage; target ≤ 100 at 1M, ≤ 30 at 10M events)`);
    console.log(`  model crossing to the webview: ${(itemsBytes(model) / events).toFixed(1)} B/event (target ≤ 24)`);
    if (p.errors.length) console.log(`  page errors: ${p.errors.join('; ')}`);
  } finally {
    await server.close();
    await p.close();
  }
}

const fmt = (a: number[]) => `${pct(a, 0.5).toFixed(2)} / ${pct(a, 0.95).toFixed(2)}`;

/** The page with the baseline renderer, in the same browser; undefined when it cannot be built (no git, unknown revision). */
async function openBaseline(browser: TimelinePage['browser'], rev: string): Promise<TimelinePage | undefined> {
  const dist = join(ROOT, 'out/bench/webview-baseline');
  const r = spawnSync(process.execPath, [join(ROOT, 'bench/timelineBaseline.mjs'), rev, dist], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) {
    console.log(`  (no baseline: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]})`);
    return undefined;
  }
  return openTimelinePage({ width: 1600, height: 900, browser, dist, bypassCSP: true });
}

/**
 * Runs `act` and returns the page's frames drawn meanwhile (render time, input → drawn), its main-thread
 * busy time, and the CPU time of each frame: the thread time (`tdur`) of the animation-frame callbacks in a
 * Chromium trace, the frames.length costliest of them (the others are the harness's empty waits). Wall
 * times count the time other processes hold the core; on this shared machine the CPU time says what a frame costs.
 */
async function measure(q: TimelinePage, act: (q: TimelinePage) => Promise<void>): Promise<{ frames: number[]; latency: number[]; cpuMs: number; frameCpu: number[] }> {
  const cdp = await q.page.context().newCDPSession(q.page);
  await cdp.send('Performance.enable');
  const busy = async () => ((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.find((x) => x.name === 'TaskDuration')!.value * 1000;
  await q.page.evaluate('(() => { const p = window.__timeline.perf; p.frames.length = 0; p.latency.length = 0; })()');
  const cpu0 = await busy();
  await q.browser.startTracing(q.page, { categories: ['devtools.timeline'] });
  await act(q);
  const trace = JSON.parse((await q.browser.stopTracing()).toString('utf8')) as { traceEvents: { name: string; ph: string; dur?: number; tdur?: number }[] };
  const cpuMs = (await busy()) - cpu0;
  const r = (await q.page.evaluate('(() => { const p = window.__timeline.perf; return { frames: p.frames.slice(), latency: p.latency.slice() }; })()')) as { frames: number[]; latency: number[] };
  await cdp.detach();
  const callbacks = trace.traceEvents.filter((e) => e.name === 'FireAnimationFrame' && e.ph === 'X' && e.tdur !== undefined).sort((a, b) => b.tdur! - a.tdur!);
  return { ...r, cpuMs, frameCpu: callbacks.slice(0, r.frames.length).map((e) => e.tdur! / 1000) };
}

/** The view that visits the most items: everything in view (after F), panned back and forth. */
async function dragWhole(q: TimelinePage): Promise<void> {
  const m = q.page.mouse;
  await q.page.keyboard.press('f');
  await q.frame();
  for (let k = 0; k < 60; k++) {
    await m.move(900, 300);
    await m.down();
    await m.move(900 + (k % 2 ? 30 : -30), 300, { steps: 1 });
    await m.up();
    await q.frame();
  }
}

/** Pan and zoom as a user would: wheel at the pointer, then drags, then wheel back out. */
async function panZoom(q: TimelinePage): Promise<void> {
  const m = q.page.mouse;
  await m.move(900, 300);
  for (let k = 0; k < 80; k++) {
    await m.wheel(0, k < 50 ? -120 : 120);
    await q.frame();
  }
  for (let k = 0; k < 60; k++) {
    await m.down();
    await m.move(900 + (k % 2 ? 40 : -40), 300 + (k % 2 ? 3 : -3), { steps: 1 });
    await m.up();
    await m.move(900, 300);
    await q.frame();
  }
  for (let k = 0; k < 60; k++) {
    await m.wheel(0, k < 40 ? 200 : -150);
    await q.frame();
  }
  await q.page.keyboard.press('f');
  await q.frame();
}

/** Picks `phase` = value in the toolbar as a user does (undefined: no filter). */

/** Each pick rebuilds what the renderer walks (the passing items per row, O(n) once per change). */
async function switchFilter(q: TimelinePage): Promise<void> {
  await q.page.keyboard.press('f');
  await filterBy(q, '0', 'MLP');
  for (let k = 0; k < 20; k++) {
    await q.page.evaluate((value) => {
      const v = document.querySelector('vscode-dropdown[aria-label="Filter value"]') as HTMLElement & { value: string };
      v.value = value;
      v.dispatchEvent(new Event('change'));
    }, k % 2 ? 'MLP' : 'QKV_PROJ');
    await q.frame();
  }
  await filterBy(q, '-1', undefined);
}

async function searchSteps(q: TimelinePage, query: string, steps: number): Promise<void> {
  const input = q.page.locator('vscode-text-field').locator('input');
  await input.fill(query);
  await q.frame();
  for (let k = 0; k < steps; k++) {
    await input.press('Enter');
    await q.frame();
  }
  await input.fill('');
  await q.frame();
}

function itemsBytes(m: TimelineModel): number {
  let b = m.rowItemStart.byteLength + m.rowMaxDur.byteLength + m.ctxAttrs.byteLength;
  for (const c of Object.values(m.items)) b += (c as ArrayBufferView).byteLength;
  for (const c of m.counters) b += c.values.byteLength;
  return b;
}

