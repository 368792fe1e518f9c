import * as vscode from 'vscode';
import { detectFormat } from '../core/detectFormat';
import { baseName, HEAD_BYTES, JSON_LANGUAGES, jsonNamed } from '../core/fileHead';
import { FORMATS } from '../core/formats';

/**
 * A document VS Code opened in a language that a format can hide behind (a `.json` that is a CMDQ,
 * an InferScope or a Chrome trace; a `.html` or `.txt` that is a systrace) is switched to that
 * format's language when `detectFormat` finds it by its first MB, unless the format's content
 * setting (`npuTrace.<format>.detectInJson`, `npuTrace.nnapi.detectByContent`, on by default) is
 * off. Such files have arbitrary names, so no `files.associations` pattern could do it.
 */
export function registerContentDetection(context: vscode.ExtensionContext): void {
  const hosts = new Set(FORMATS.flatMap((f) => f.contentDetection?.languages ?? []));
  const check = (doc: vscode.TextDocument) => {
    if (!hosts.has(doc.languageId)) return;
    // Only the head is copied out of the document, not its whole text (such files may be huge).
    const head = doc.getText(new vscode.Range(doc.positionAt(0), doc.positionAt(HEAD_BYTES)));
    // A document the editor holds as JSON is told by its JSON content whatever its name (`.har`, no extension …).
    const name = baseName(doc.uri.path);
    const json = JSON_LANGUAGES.includes(doc.languageId);
    const format = detectFormat(json && !jsonNamed(name) ? `${name}.json` : name, head);
    const how = format?.contentDetection;
    if (!how?.languages.includes(doc.languageId) || !format?.language) return;
    if (!vscode.workspace.getConfiguration('npuTrace', doc).get<boolean>(how.setting, true)) return;
    void vscode.languages.setTextDocumentLanguage(doc, format.id);
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(check));
  for (const doc of vscode.workspace.textDocuments) check(doc);
}
