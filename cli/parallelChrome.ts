import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ChromePart } from '../core/chrome/parts';
import { chromeParts } from '../node/io/chromeParts';
import { PartsMerge } from '../core/chrome/partsMerge';
import type { DiagnosticSettings } from '../core/common/settings';
import type { CheckResult } from '../core/formatDescriptor';
import { forEachText } from '../node/io/lines';
import { STOP_PARTS, type ChromePartsJob, type CheckWorkerMessage } from '../protocol/checkWorker';
import { plan, takeEarlyWorker, workerFile } from './checkThreads';
import { checkChromePart, claimPart, partRange } from './chromePart';

/**
 * Parts per thread. One part per thread, sized by a guess of each thread's speed, left a thread
 * idle when the guess was wrong (the main thread waited up to 340 ms of 1.2–1.5 s for the worker's
 * half of a 108 MB PyTorch trace); with several, a thread done early takes the next part, and what
 * is left at the end is at most a part. Each part's flows and state are merged by the main thread,
 * so not many more (eight a thread were no faster).
 */
const PARTS_PER_THREAD = 4;

/** A worker claiming parts of `job`; `stop` ends the thread. */
function partsWorker(file: string, job: ChromePartsJob, done: (index: number, part: ChromePart) => void, failed: (e: Error) => void): { stop: () => void } {
  const w = takeEarlyWorker() ?? new Worker(file);
  w.ref();
  let stopped = false;
  w.on('message', (m: CheckWorkerMessage) => {
    if ('part' in m) done(m.index, m.part);
    else failed(new Error('error' in m ? m.error : 'unexpected message'));
  });
  w.on('error', failed);
  // A thread that ends without a word (it ran out of memory...) must not leave the check waiting.
  w.on('exit', (code) => {
    if (!stopped) failed(new Error(`a worker checking parts of the trace exited (${code}) before they were done`));
  });
  w.postMessage(job);
  return {
    stop: () => {
      stopped = true;
      void w.terminate();
    },
  };
}

/**
 * `npu-trace check` of a big Chrome trace on every core: the file is cut into parts at what its
 * layout says are event starts; the main thread reads the first, every thread (the main one too,
 * after the first) claims the next part left and checks it, and the main thread merges the parts in
 * order, reading on itself from where a guess was wrong (core/chrome/partsMerge.ts). Undefined when
 * the file is not worth it (small, gzipped, no layout found) or a part could not be read on from:
 * then the one pass runs, and says the same.
 */
export async function checkChromeInParallel(file: string, settings: DiagnosticSettings): Promise<CheckResult | undefined> {
  if (/\.gz$/i.test(file)) return undefined;
  const { workers, minBytes } = plan();
  const size = statSync(file).size;
  const worker = workerFile();
  if (workers < 1 || size < minBytes || !worker) return undefined;
  const split = chromeParts(file, size, (workers + 1) * PARTS_PER_THREAD, 1);
  if (!split) return undefined;
  const { form, starts } = split;
  // The parts after the first, which any thread claims: part k is bytes [bounds[k], bounds[k + 1]).
  const job: ChromePartsJob = { chrome: { file, form, maxProblems: settings.maxProblems, bounds: [...starts, size], ctl: new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)) } };
  const count = starts.length;
  const done = new Map<number, ChromePart>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const pool = Array.from({ length: Math.min(workers, count) }, () => partsWorker(worker, job, (k, part) => {
    done.set(k, part);
    wake?.();
  }, (e) => {
    failure ??= e;
    wake?.();
  }));
  const stopAll = () => {
    Atomics.store(job.chrome.ctl, STOP_PARTS, 1);
    for (const w of pool) w.stop();
  };
  try {
    const m = new PartsMerge({ maxProblems: settings.maxProblems });
    await forEachText(file, (t) => m.feed(t), { range: { start: 0, end: starts[0] } });
    for (let j = 0; j < count; j++) {
      // Until part j is done, this thread checks the next part left, or waits for a worker's.
      while (!done.has(j)) {
        if (failure) throw failure;
        const k = claimPart(job.chrome);
        if (k >= 0) done.set(k, await checkChromePart(partRange(job.chrome, k)));
        else await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      const part = done.get(j)!;
      done.delete(j);
      const outcome = m.merge(part);
      // Tests see what became of each part (a result that is the one pass's says nothing of it).
      if (process.env.NPU_CHECK_SHOW_PARTS === '1') process.stderr.write(`npu-trace: part at byte ${starts[j]}: ${outcome}\n`);
      if (outcome === 'again') return undefined;
      if (outcome === 'read-on') {
        stopAll();
        await forEachText(file, (t) => m.readOn(t), { range: { start: starts[0], end: size } });
        break;
      }
    }
    return m.finishCapped(settings);
  } finally {
    stopAll();
  }
}
