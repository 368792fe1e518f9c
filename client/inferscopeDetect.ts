import * as vscode from 'vscode';
import { topLevelInferscopeKind } from '../core/inferscope/detect';

/** How much of a JSON file is looked at: the marker keys come first in what InferScope writes. */
const HEAD = 1 << 20;

/**
 * A plain `.json`/`.jsonc` whose top-level keys make it an InferScope trace, analysis result or
 * report is switched to the `inferscope` language when opened (setting
 * `npuTrace.inferscope.detectInJson`, on by default), as CMDQ detection does.
 */
export function registerInferscopeDetection(context: vscode.ExtensionContext): void {
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'json' && doc.languageId !== 'jsonc') return;
    if (!vscode.workspace.getConfiguration('npuTrace.inferscope', doc).get<boolean>('detectInJson', true)) return;
    const head = doc.getText(new vscode.Range(doc.positionAt(0), doc.positionAt(HEAD)));
    if (!topLevelInferscopeKind(head)) return;
    void vscode.languages.setTextDocumentLanguage(doc, 'inferscope');
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  for (const doc of vscode.workspace.textDocuments) check(doc);
}
