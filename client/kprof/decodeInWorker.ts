import { Worker } from 'node:worker_threads';
import { KprofFormatError } from '../../core/kprof/errors';
import { transferList, type DecodedView, type KprofWorkerReport, type KprofWorkerRequest } from './workerProtocol';

/** Raised when the decode was cancelled (the worker is terminated). */
export class KprofCancelled extends Error {
  constructor() { super('Decoding the buffer was cancelled'); }
}

/**
 * Runs one request in `workerFile` (dist/kprofWorker.js). The host's thread only posts and
 * receives: the bytes go in transferred, the opened launches and decoded arrays come back
 * transferred. A format problem rejects with a KprofFormatError, as the in-process decode throws.
 */
export function decodeInWorker(workerFile: string, req: KprofWorkerRequest, opts: { onPhase?: (phase: 'reading' | 'decoding') => void; onCancel?: (cancel: () => void) => void } = {}): Promise<DecodedView> {
  return new Promise((resolve, reject) => {
    // The caller gives up `bytes` / `words`: transferred, not copied, when large and the whole of
    // their buffer (a view into a buffer something else holds is copied, so nothing else is detached).
    const v = req.kind === 'open' ? req.bytes : req.words;
    const whole = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
    const worker = new Worker(workerFile, { workerData: req, transferList: whole ? transferList([v]) : [] });
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      f();
    };
    opts.onCancel?.(() => finish(() => reject(new KprofCancelled())));
    worker.on('message', (r: KprofWorkerReport) => {
      if (r.kind === 'phase') opts.onPhase?.(r.phase);
      else if (r.kind === 'done') finish(() => resolve({ opened: r.opened, decoded: r.decoded, model: r.model, summary: r.summary }));
      else finish(() => reject(r.format ? new KprofFormatError(r.message) : new Error(r.message)));
    });
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`The profiler buffer worker stopped (exit code ${code}).`))));
  });
}
