/**
 * Opens and decodes a profiler buffer off the extension host's thread (bundled as
 * dist/kprofWorker.js): a 16M-record buffer takes about a second to decode, longer to inflate
 * from an `.npz`, and the host must stay responsive meanwhile. Cancelling terminates the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { KprofFormatError } from '../../core/kprof/errors';
import { modelBuffers } from '../../core/timeline/model';
import { decodedArrays, transferList, type KprofWorkerReport, type KprofWorkerRequest } from '../../protocol/kprofWorker';
import { inflateRaw } from '../io/kprofFiles';
import { runRequest } from './kprofDecode';

const post = (r: KprofWorkerReport, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(r, transfer);

function run(req: KprofWorkerRequest): void {
  try {
    const r = runRequest(req, inflateRaw, (phase) => post({ kind: 'phase', phase }));
    const transfer = new Set([...transferList([...decodedArrays(r.decoded), ...(r.opened?.launches ?? []).map((l) => l.words)]), ...modelBuffers(r.model)]);
    post({ kind: 'done', ...r }, [...transfer]);
  } catch (e) {
    post({ kind: 'error', format: e instanceof KprofFormatError, message: e instanceof Error ? e.message : String(e) });
  }
}

run(workerData as KprofWorkerRequest);
