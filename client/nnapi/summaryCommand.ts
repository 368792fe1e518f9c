import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { NnapiSummaryRequest } from '../../protocol/nnapi';
import { fileName } from '../timeline/documentRequest';
import { renderSummary } from './summaryText';
import { ReadOnlyTextViews } from '../readOnlyText';

export const SHOW_TIMING_SUMMARY = 'npuTrace.nnapi.showTimingSummary';
const SCHEME = 'npu-nnapi-summary';

/**
 * "NNAPI: Show Timing Summary": asks the server for the numbers of the active systrace and shows
 * them in a read-only virtual document beside it (plain text: nothing to inject, readable, diffable).
 */
export function registerNnapiSummary(context: vscode.ExtensionContext, getClient: () => BaseLanguageClient | undefined): void {
  const views = new ReadOnlyTextViews(context, SCHEME, 'Run "NNAPI: Show Timing Summary" from a systrace to fill this view.');

  context.subscriptions.push(vscode.commands.registerCommand(SHOW_TIMING_SUMMARY, async (arg?: vscode.Uri) => {
    const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'nnapi-systrace') {
      void vscode.window.showWarningMessage('NNAPI: Show Timing Summary works on a systrace (language NNAPI Systrace). Open one, or set its language mode.');
      return;
    }
    const client = getClient();
    if (!client) {
      void vscode.window.showErrorMessage('The NPU Trace language server is not running.');
      return;
    }
    const result = await client.sendRequest(NnapiSummaryRequest, { uri: doc.uri.toString() });
    const name = fileName(doc.uri);
    await views.show(`${name} - timing summary.txt`, renderSummary(result, name), doc.uri.toString());
  }));
}
