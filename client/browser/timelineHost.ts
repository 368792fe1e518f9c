import * as vscode from 'vscode';
import type { TimelineHost } from '../timeline/host';
import { browserSlicing, buildSliced, Cancelled, statsSliced } from './slicedBuild';

const rethrow = (e: unknown): never => {
  throw e instanceof Cancelled ? new vscode.CancellationError() : e;
};

/**
 * The browser timeline host: the model comes from the open document's text, built in slices in
 * the extension host (slicedBuild.ts). No `disk`: a file must be open in an editor (so no .gz, and
 * no file too large for VS Code to open).
 */
export const browserTimelineHost: TimelineHost = {
  buildDocument: (doc, name, token, onPreview) =>
    buildSliced(name, doc.lineCount, (i) => doc.lineAt(i).text, browserSlicing(() => token.isCancellationRequested), onPreview).catch(rethrow),
  statsDocument: (doc, _name, window, token) =>
    statsSliced(doc.lineCount, (i) => doc.lineAt(i).text, window, browserSlicing(() => token.isCancellationRequested)).catch(rethrow),
};
