import * as vscode from 'vscode';
import type { BuildRequest } from '../../protocol/timelineWorker';
import { encodeLines } from './encodeLines';

/**
 * What the worker builds an open document from, without a second copy of its text per rebuild: a
 * saved, unmodified UTF-8 file is streamed from disk by the worker (the host copies nothing); an
 * edited one is written once as UTF-8 bytes from its lines and transferred.
 */
export function documentRequest(doc: vscode.TextDocument, name: string): BuildRequest {
  if (doc.uri.scheme === 'file' && !doc.isDirty && /^utf8(bom)?$/.test(doc.encoding)) return { kind: 'file', fileName: name, path: doc.uri.fsPath };
  return { kind: 'bytes', fileName: name, bytes: encodeLines(doc.lineCount, (i) => doc.lineAt(i).text) };
}

/** The last segment of a URI's path: what panels and messages call the file. */
export function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
