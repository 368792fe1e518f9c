import type { TextDocument } from 'vscode-languageserver-textdocument';

/** Text of line `i` without its terminator. */
export function lineText(doc: TextDocument, i: number): string {
  const t = doc.getText({ start: { line: i, character: 0 }, end: { line: i + 1, character: 0 } });
  let n = t.length;
  if (n && t.charCodeAt(n - 1) === 10) n--;
  if (n && t.charCodeAt(n - 1) === 13) n--;
  return n === t.length ? t : t.slice(0, n);
}
