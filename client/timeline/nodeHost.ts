import * as vscode from 'vscode';
import { stat } from 'node:fs/promises';
import { buildInWorker, packetsInWorker, statsInWorker } from './build';
import type { TimelineHost } from './host';
import { FileLines } from './lineReader';
import { documentRequest } from './documentRequest';
import { prestartWorker } from '../../node/jobs/runJob';

/** The desktop timeline host: models and metrics are computed in worker threads (dist/timelineWorker.js), files streamed from disk. */
export function nodeTimelineHost(extensionUri: vscode.Uri): TimelineHost {
  const workerFile = () => vscode.Uri.joinPath(extensionUri, 'dist', 'timelineWorker.js').fsPath;
  return {
    prestart: () => prestartWorker(workerFile()),
    buildDocument: (doc, name, token, onPreview) => buildInWorker(workerFile(), documentRequest(doc, name), token, undefined, onPreview),
    statsDocument: (doc, name, window, token) => statsInWorker(workerFile(), documentRequest(doc, name), window, token),
    disk: {
      size: async (path) => (await stat(path)).size,
      build: (path, name, token, onProgress, onPreview) => buildInWorker(workerFile(), { kind: 'file', fileName: name, path }, token, onProgress, onPreview),
      stats: (path, name, window, token, onProgress) => statsInWorker(workerFile(), { kind: 'file', fileName: name, path }, window, token, onProgress),
      lines: (path) => new FileLines(path),
      packets: (path, name, offsets, token) => packetsInWorker(workerFile(), { kind: 'file', fileName: name, path }, offsets, token),
    },
  };
}
