import * as vscode from 'vscode';
import { hasTopLevelCmdqArray } from '../core/cmdq/detect';

/** How much of a JSON file is looked at: the `cmdq` key sits near the top of every generated file. */
const HEAD = 1 << 20;

/**
 * A plain `.json`/`.jsonc` whose top-level object has a `cmdq` array is switched to the `cmdq`
 * language when opened (setting `npuTrace.cmdq.detectInJson`, on by default). Content detection
 * rather than a `files.associations` pattern, because such files have arbitrary names.
 */
export function registerCmdqDetection(context: vscode.ExtensionContext): void {
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'json' && doc.languageId !== 'jsonc') return;
    if (!vscode.workspace.getConfiguration('npuTrace.cmdq', doc).get<boolean>('detectInJson', true)) return;
    // Only the head is copied out of the document, not its whole text (JSON files may be huge).
    const head = doc.getText(new vscode.Range(doc.positionAt(0), doc.positionAt(HEAD)));
    if (!hasTopLevelCmdqArray(head)) return;
    void vscode.languages.setTextDocumentLanguage(doc, 'cmdq');
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  for (const doc of vscode.workspace.textDocuments) check(doc);
}
