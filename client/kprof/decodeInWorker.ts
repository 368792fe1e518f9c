import { JobCancelled, runJob } from '../../node/jobs/runJob';
import { readKprofReport, transferList, type DecodedView, type KprofWorkerRequest } from '../../protocol/kprofWorker';

/** Raised when the decode was cancelled (the worker is terminated). */
export class KprofCancelled extends Error {
  constructor() { super('Decoding the buffer was cancelled'); }
}

/**
 * Runs one request in `workerFile` (dist/kprofWorker.js). The host's thread only posts and
 * receives: the bytes go in transferred, the opened launches and decoded arrays come back
 * transferred. A format problem rejects with a KprofFormatError, as the in-process decode throws;
 * `signal` terminates the worker and rejects with KprofCancelled.
 */
export async function decodeInWorker(workerFile: string, req: KprofWorkerRequest, opts: { onPhase?: (phase: 'reading' | 'decoding') => void; signal?: AbortSignal } = {}): Promise<DecodedView> {
  // The caller gives up `bytes` / `words`: transferred, not copied, when large and the whole of
  // their buffer (a view into a buffer something else holds is copied, so nothing else is detached).
  const v = req.kind === 'open' ? req.bytes : req.words;
  const whole = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
  try {
    return await runJob(workerFile, req, { read: readKprofReport, onProgress: opts.onPhase, signal: opts.signal, transfer: whole ? transferList([v]) : [], name: 'the profiler buffer worker' });
  } catch (e) {
    throw e instanceof JobCancelled ? new KprofCancelled() : e;
  }
}
