import * as vscode from 'vscode';
import type { TimelineModel } from '../../core/timeline/model';
import type { TraceStats } from '../../core/trace/metrics/types';
import { JobCancelled, runJob } from '../../node/jobs/runJob';
import { readBuildReport, type BuildProgress, type BuildRequest, type BuildResult, type PacketFields, type WorkerRequest } from '../../protocol/timelineWorker';

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

/** A binary trace's details: the fields of the packets holding these byte offsets, decoded in a worker; cancellable like a build. */
export function packetsInWorker(workerFile: string, req: BuildRequest, offsets: number[], token: vscode.CancellationToken): Promise<PacketFields[]> {
  return runWorker(workerFile, { ...req, packets: { offsets } }, token).then((r) => r as PacketFields[]);
}

async function runWorker(workerFile: string, req: WorkerRequest, token: vscode.CancellationToken, onProgress?: (bytesRead: number) => void, onPreview?: (m: TimelineModel) => void, onPass?: (pass: 1 | 2) => void): Promise<BuildResult> {
  const stop = new AbortController();
  const sub = token.onCancellationRequested(() => stop.abort());
  if (token.isCancellationRequested) stop.abort();
  const progress = (p: BuildProgress) => {
    if (p.kind === 'progress') onProgress?.(p.bytesRead);
    else if (p.kind === 'preview') onPreview?.(p.model);
    else onPass?.(p.pass);
  };
  try {
    return await runJob(workerFile, req, {
      read: readBuildReport, signal: stop.signal, onProgress: progress, name: 'the timeline worker', keepWarm: true,
      transfer: req.kind === 'bytes' ? [req.bytes.buffer as ArrayBuffer] : [],
    });
  } catch (e) {
    throw e instanceof JobCancelled ? new vscode.CancellationError() : e;
  } finally {
    sub.dispose();
  }
}
