import * as vscode from 'vscode';
import { detectFormat } from '../core/detectFormat';
import { baseName, HEAD_BYTES, jsonNamed } from '../core/fileHead';

/**
 * A plain `.json`/`.jsonc` that is one of the formats by its content (`detectFormat` on its first
 * MB: a CMDQ's `cmdq` array, InferScope's top-level keys, a Chrome trace's `traceEvents`) is
 * switched to that format's language when opened, unless its `npuTrace.<section>.detectInJson`
 * setting (on by default) is off. Such files have arbitrary names, so no `files.associations`
 * pattern could do it.
 */
export function registerContentDetection(context: vscode.ExtensionContext): void {
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'json' && doc.languageId !== 'jsonc') return;
    // Only the head is copied out of the document, not its whole text (JSON files may be huge).
    const head = doc.getText(new vscode.Range(doc.positionAt(0), doc.positionAt(HEAD_BYTES)));
    // A document the editor holds as JSON is told by its JSON content whatever its name (`.har`, no extension …).
    const name = baseName(doc.uri.path);
    const format = detectFormat(jsonNamed(name) ? name : `${name}.json`, head);
    if (!format?.contentSetting || !format.language) return;
    if (!vscode.workspace.getConfiguration(`npuTrace.${format.contentSetting}`, doc).get<boolean>('detectInJson', true)) return;
    void vscode.languages.setTextDocumentLanguage(doc, format.id);
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  for (const doc of vscode.workspace.textDocuments) check(doc);
}
