import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ChromePart } from '../core/chrome/parts';
import { chromeParts } from '../node/io/chromeParts';
import { PartsMerge } from '../core/chrome/partsMerge';
import type { DiagnosticSettings } from '../core/common/settings';
import type { CheckResult } from '../core/formatDescriptor';
import { forEachText } from '../node/io/lines';
import type { ChromePartJob, CheckWorkerMessage } from '../protocol/checkWorker';
import { plan, takeEarlyWorker, workerFile } from './checkThreads';

/**
 * The main thread's share of the file, against a worker's 1: it also merges the parts (the flows of
 * half a 108 MB PyTorch trace, 76k events, took it about a tenth of its reading).
 */
const MAIN_SHARE = 0.9;

/** A part checked by a worker thread (one started early when there is one); `stop` ends the thread. */
function inWorker(file: string, job: ChromePartJob): { part: Promise<ChromePart>; stop: () => void } {
  const w = takeEarlyWorker() ?? new Worker(file);
  w.ref();
  const stop = () => void w.terminate();
  const part = new Promise<ChromePart>((resolve, reject) => {
    w.on('message', (m: CheckWorkerMessage) => {
      if ('part' in m) resolve(m.part);
      else reject(new Error('error' in m ? m.error : 'unexpected message'));
    });
    w.on('error', reject);
    // A thread that ends without a word (it ran out of memory...) must not leave the check waiting.
    w.on('exit', (code) => reject(new Error(`the worker checking bytes ${job.chrome.start}–${job.chrome.end} of the trace exited (${code}) before its part was done`)));
    w.postMessage(job);
  });
  part.then(stop, stop);
  return { part, stop };
}

/**
 * `npu-trace check` of a big Chrome trace on every core: the file is cut into a part per thread at
 * what its layout says are event starts; the main thread reads the first and merges the others in
 * order, reading on itself from where a guess was wrong (core/chrome/partsMerge.ts). Undefined
 * when the file is not worth it (small, gzipped, no layout found) or a part could not be read on
 * from: then the one pass runs, and says the same.
 */
export async function checkChromeInParallel(file: string, settings: DiagnosticSettings): Promise<CheckResult | undefined> {
  if (/\.gz$/i.test(file)) return undefined;
  const { workers, minBytes } = plan();
  const size = statSync(file).size;
  const worker = workerFile();
  if (workers < 1 || size < minBytes || !worker) return undefined;
  const split = chromeParts(file, size, workers + 1, MAIN_SHARE);
  if (!split) return undefined;
  const { form, starts } = split;
  const bounds = [0, ...starts, size];
  const parts = starts.map((start, j) => inWorker(worker, { chrome: { file, start, end: bounds[j + 2], form, last: j === starts.length - 1, maxProblems: settings.maxProblems } }));
  // A part that failed is seen in order below; the others' failures are not left unhandled.
  for (const p of parts) p.part.catch(() => undefined);
  try {
    const m = new PartsMerge({ maxProblems: settings.maxProblems });
    await forEachText(file, (t) => m.feed(t), { range: { start: 0, end: starts[0] } });
    for (const p of parts) {
      const outcome = m.merge(await p.part);
      // Tests see what became of each part (a result that is the one pass's says nothing of it).
      if (process.env.NPU_CHECK_SHOW_PARTS === '1') process.stderr.write(`npu-trace: part at byte ${starts[parts.indexOf(p)]}: ${outcome}\n`);
      if (outcome === 'again') return undefined;
      if (outcome === 'read-on') {
        for (const q of parts) q.stop();
        await forEachText(file, (t) => m.readOn(t), { range: { start: starts[0], end: size } });
        break;
      }
    }
    return m.finishCapped(settings);
  } finally {
    for (const p of parts) p.stop();
  }
}
