import * as vscode from 'vscode';
import { Worker } from 'node:worker_threads';
import type { TimelineModel } from '../../core/timeline/model';
import type { BuildReport, BuildRequest } from './workerProtocol';

/**
 * Runs one model build in a worker thread. The promise rejects with a CancellationError when
 * `token` fires (the worker is terminated at once: parsing stops mid-file).
 */
export function buildInWorker(workerFile: string, req: BuildRequest, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void, onPreview?: (m: TimelineModel) => void): Promise<TimelineModel> {
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
        case 'error': finish(() => reject(new Error(r.message))); return;
        default: { const never: never = r; return never; }
      }
    });
    worker.on('error', (e) => finish(() => reject(e)));
    worker.on('exit', (code) => finish(() => reject(new Error(`The timeline worker stopped (exit code ${code}).`))));
  });
}
