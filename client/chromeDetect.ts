import * as vscode from 'vscode';
import { looksLikeChromeTrace } from '../core/chrome/detect';

/** How much of a JSON file is looked at: PyTorch writes a few KB of device properties before `traceEvents`. */
const HEAD = 1 << 20;

/**
 * A plain `.json` that is a Chrome trace (a `traceEvents` array, or an array of events) is switched
 * to the `chrome-trace` language when opened (setting `npuTrace.chrome.detectInJson`, on by
 * default), as CMDQ files are: such traces have arbitrary names.
 */
export function registerChromeDetection(context: vscode.ExtensionContext): void {
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'json') return;
    if (!vscode.workspace.getConfiguration('npuTrace.chrome', doc).get<boolean>('detectInJson', true)) return;
    const head = doc.getText(new vscode.Range(doc.positionAt(0), doc.positionAt(HEAD)));
    if (looksLikeChromeTrace(head)) void vscode.languages.setTextDocumentLanguage(doc, 'chrome-trace');
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  for (const doc of vscode.workspace.textDocuments) check(doc);
}
