import * as vscode from 'vscode';
import { Worker } from 'node:worker_threads';
import type { TimelineModel } from '../../core/timeline/model';
import type { TraceStats } from '../../core/trace/metrics/types';
import type { BuildReport, BuildRequest, WorkerRequest } from './workerProtocol';

/**
 * Runs one model build in a worker thread. The promise rejects with a CancellationError when
 * `token` fires (the worker is terminated at once: parsing stops mid-file).
 */
export function buildInWorker(workerFile: string, req: BuildRequest, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void, onPreview?: (m: TimelineModel) => void): Promise<TimelineModel> {
  return runWorker(workerFile, req, token, onProgress, onPreview).then((r) => r as TimelineModel);
}

/** The trace metrics of [from, to] (either end open) computed in a worker by the core's collector; cancellable like a build. */
export function statsInWorker(workerFile: string, req: BuildRequest, window: { from?: number; to?: number }, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void): Promise<TraceStats> {
  return runWorker(workerFile, { ...req, stats: window }, token, onProgress).then((r) => r as TraceStats);
}

/** The file as Chrome Trace JSON written to `out` by the worker (two passes: `onPass` says which); resolves with the bytes written. */
export function exportInWorker(workerFile: string, req: BuildRequest, out: string, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void, onPass?: (pass: 1 | 2) => void): Promise<number> {
  return runWorker(workerFile, { ...req, export: { out } }, token, onProgress, undefined, onPass).then((r) => r as number);
}

function runWorker(workerFile: string, req: WorkerRequest, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void, onPreview?: (m: TimelineModel) => void, onPass?: (pass: 1 | 2) => void): Promise<TimelineModel | TraceStats | number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: req, transferList: req.kind === 'bytes' ? [req.bytes.buffer as ArrayBuffer] : [] });
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      sub.dispose();
      void worker.terminate();
      f();
    };
    const sub = token.onCancellationRequested(() => finish(() => reject(new vscode.CancellationError())));
    worker.on('message', (r: BuildReport) => {
      switch (r.kind) {
        case 'progress': onProgress?.(r.bytesRead); return;
        case 'preview': if (!settled) onPreview?.(r.model); return;
        case 'done': finish(() => resolve(r.model)); return;
        case 'stats': finish(() => resolve(r.stats)); return;
        case 'exported': finish(() => resolve(r.bytes)); return;
        case 'pass': onPass?.(r.pass); return;
        case 'error': finish(() => reject(new Error(r.message))); return;
        default: { const never: never = r; return never; }
      }
    });
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`The timeline worker stopped (exit code ${code}).`))));
  });
}
