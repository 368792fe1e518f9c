import type { TextDocument } from 'vscode-languageserver-textdocument';
import { LineDocument } from './lineDocument';

/** Text of line `i` without its terminator. */
export function lineText(doc: TextDocument, i: number): string {
  if (doc instanceof LineDocument) return doc.line(i);
  const t = doc.getText({ start: { line: i, character: 0 }, end: { line: i + 1, character: 0 } });
  return t.replace(/\r?\n$|\r$/, '');
}
