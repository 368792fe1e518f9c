import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ChromePart, PartForm } from '../core/chrome/parts';
import { PartsMerge } from '../core/chrome/partsMerge';
import type { DiagnosticSettings } from '../core/common/settings';
import type { CheckResult } from '../core/formatDescriptor';
import { forEachText } from '../node/io/lines';
import type { ChromePartJob, CheckWorkerMessage } from '../protocol/checkWorker';
import { plan, takeEarlyWorker, workerFile } from './checkThreads';

/** How far past a split point the next event start is looked for before that split is dropped. */
const MAX_SEARCH = 4 << 20;
const HEAD = 1 << 16;

/**
 * How the file's events are laid out, from its head: its form, and the bytes that come just before
 * an event's `{` — a line break and the indent of the first event when it starts a line (Kineto's
 * and Python's pretty-printed files), else `},{`. Undefined when the head is not a Chrome trace's.
 */
function layoutOf(fd: number): { form: PartForm; before: Buffer } | undefined {
  const buf = Buffer.alloc(HEAD);
  const head = buf.toString('latin1', 0, readSync(fd, buf, 0, HEAD, 0));
  const m = /^(?:\xef\xbb\xbf)?\s*([[{])/.exec(head);
  if (!m) return undefined;
  const form: PartForm = m[1] === '[' ? 'array' : 'object';
  let open = m.index + m[0].length - 1;
  if (form === 'object') {
    const k = head.indexOf('"traceEvents"');
    open = k < 0 ? -1 : head.indexOf('[', k);
  }
  if (open < 0) return undefined;
  // The first event, and what stands before it on its line.
  const first = /^\s*\{/.exec(head.slice(open + 1));
  if (!first) return undefined;
  const at = open + first[0].length;
  const line = Math.max(head.lastIndexOf('\n', at), head.lastIndexOf('\r', at));
  const indent = head.slice(line + 1, at);
  return { form, before: Buffer.from(line > open && /^[ \t]*$/.test(indent) ? `${head[line]}${indent}` : '},', 'latin1') };
}

/** The offset of the first `{` after `from` that follows `before` (blanks between for `},`), or -1. */
function nextStart(fd: number, from: number, size: number, before: Buffer): number {
  const buf = Buffer.allocUnsafe(1 << 16);
  const spaced = before.toString('latin1') === '},';
  for (let at = from; at < size && at < from + MAX_SEARCH; at += buf.length - 64) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= before.length) return -1;
    for (let i = buf.subarray(0, n).indexOf(before); i >= 0; i = buf.subarray(0, n).indexOf(before, i + 1)) {
      let k = i + before.length;
      if (spaced) while (k < n && (buf[k] === 32 || buf[k] === 10 || buf[k] === 13 || buf[k] === 9)) k++;
      if (k < n && buf[k] === 0x7b) return at + k;
    }
  }
  return -1;
}

/**
 * The main thread's share of the file, against a worker's 1: it also merges the parts (the flows of
 * half a 108 MB PyTorch trace, 76k events, took it about a tenth of its reading).
 */
const MAIN_SHARE = 0.9;

/** Where the parts start: the event start next after each share of the file, distinct. */
function partStarts(fd: number, size: number, parts: number, before: Buffer): number[] {
  const out: number[] = [];
  const total = MAIN_SHARE + parts - 1;
  for (let k = 1; k < parts; k++) {
    const s = nextStart(fd, Math.floor(((MAIN_SHARE + k - 1) * size) / total), size, before);
    if (s > (out[out.length - 1] ?? 0) && s < size) out.push(s);
  }
  return out;
}

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
  const fd = openSync(file, 'r');
  let starts: number[];
  let form: PartForm;
  try {
    const layout = layoutOf(fd);
    if (!layout) return undefined;
    form = layout.form;
    starts = partStarts(fd, size, workers + 1, layout.before);
  } finally {
    closeSync(fd);
  }
  if (!starts.length) return undefined;
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
