import type { TextDocument } from 'vscode-languageserver-textdocument';
import { splitLines } from '../core/common/lines';
import { LineDocument } from './lineDocument';

/** Text of line `i` without its terminator. */
export function lineText(doc: TextDocument, i: number): string {
  if (doc instanceof LineDocument) return doc.line(i);
  // The line and its terminator: the one splitter cuts it where LSP ends the line.
  return splitLines(doc.getText({ start: { line: i, character: 0 }, end: { line: i + 1, character: 0 } }))[0];
}
