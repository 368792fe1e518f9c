import type * as vscode from 'vscode';
import type { TimelineModel } from '../../core/timeline/model';
import type { TraceStats } from '../../core/trace/metrics/types';
import type { HostMessage } from '../../protocol/timeline';

/** Lines of a file read back by number (the details pane of a file that is not open). */
export interface LineSource {
  read(lines: number[]): Promise<Map<number, string>>;
  dispose(): void;
}

/**
 * Where a timeline panel builds its model: the desktop host uses worker threads and reads files
 * from disk (nodeHost.ts); the browser host (client/browser/timelineHost.ts) builds from the open
 * document only, and has no `disk`.
 */
export interface TimelineHost {
  /** The model of an open document; `onPreview` gets the first lines' model of a large one. */
  buildDocument(doc: vscode.TextDocument, name: string, token: vscode.CancellationToken, onPreview: (m: TimelineModel) => void): Promise<TimelineModel>;
  /** The trace metrics of cycles [from, to] of an open document. */
  statsDocument(doc: vscode.TextDocument, name: string, window: { from?: number; to?: number }, token: vscode.CancellationToken): Promise<TraceStats>;
  /** Files read from disk (explorer, .gz, files too large to open); absent where there is no file system. */
  disk?: {
    size(path: string): Promise<number>;
    build(path: string, name: string, token: vscode.CancellationToken, onProgress: (bytes: number) => void, onPreview: (m: TimelineModel) => void): Promise<TimelineModel>;
    stats(path: string, name: string, window: { from?: number; to?: number }, token: vscode.CancellationToken, onProgress: (bytes: number) => void): Promise<TraceStats>;
    lines(path: string): LineSource;
    /** A binary trace's details (no lines): the fields of the packets holding these byte offsets, in order. */
    packets?(path: string, name: string, offsets: number[], token: vscode.CancellationToken): Promise<[string, string][][]>;
  };
  /** Starts the worker a build will run in ahead of it (a trace editor became active); absent where builds run in place (the browser). */
  prestart?(): void;
  /** The pinned baseline runs (client/diff/baseline.ts); absent where files cannot be compared (the browser). */
  baseline?: BaselineSupport;
}

/** What a timeline panel asks of the pinned baselines: which one its file's format has, and the comparison with it. */
export interface BaselineSupport {
  /** The baseline pinned for the format of `file`; undefined when that format cannot be compared. */
  pinned(file: vscode.Uri): Extract<HostMessage, { type: 'baselinePinned' }> | undefined;
  /** Fires when a baseline is pinned or cleared. */
  readonly onDidChange: vscode.Event<void>;
  /** `file` (B) compared with its format's baseline (A), both read from disk in the comparison worker; never rejects. */
  compare(file: vscode.Uri, token: vscode.CancellationToken): Promise<Extract<HostMessage, { type: 'baselineDiff' }>>;
}

/** A nonce for the page's Content-Security-Policy (Web Crypto: the same in Node and in a browser). */
export function cspNonce(): string {
  const b = new Uint8Array(18);
  globalThis.crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
