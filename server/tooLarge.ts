import type { Position, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { Diagnostic } from '../core/common/diagnostic';

/**
 * Most lines of a document the server models. Each line costs every structure kept per line (the
 * document's lines, a format's parsed records): 10M blank lines took 717 MB and 100M killed the
 * server (V8's "invalid array length", then out of memory). VS Code hands no document over 50 MB
 * to a language server; a real trace of 4M lines is over 600 MB. Past this the text is kept whole,
 * unsplit, and the document gets one diagnostic instead of a model.
 */
export const MAX_MODEL_LINES = 1 << 22;

/** Lines of `text` as LSP counts them (`\n`, `\r\n` and a lone `\r` end one), without splitting it. */
export function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  if (text.indexOf('\r') < 0) return n;
  // Each lone \r ends a line too (a \r\n was counted by its \n).
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 0x0a) n++;
  return n;
}

/** Offset of `p` in `text`, clamped as the editor's text document clamps it, found by scanning the lines before it. */
function offsetAt(text: string, p: Position): number {
  const line = Number.isFinite(p.line) ? Math.floor(p.line) : 0;
  if (line < 0) return 0;
  let at = 0;
  for (let l = 0; l < line; l++) {
    const e = lineEnd(text, at);
    if (e >= text.length) return text.length;
    at = e + (text.charCodeAt(e) === 0x0d && text.charCodeAt(e + 1) === 0x0a ? 2 : 1);
  }
  const character = Number.isFinite(p.character) ? Math.max(0, Math.floor(p.character)) : 0;
  return Math.min(at + character, lineEnd(text, at));
}

/** Where the line starting at `at` ends (its break, or the end of the text). */
function lineEnd(text: string, at: number): number {
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return text.length;
}

/** The LSP changes applied in order to a text kept whole (a document too large to split into lines). */
export function applyToText(text: string, changes: readonly TextDocumentContentChangeEvent[]): string {
  for (const ch of changes) {
    if (typeof ch?.text !== 'string') continue;
    if (!('range' in ch) || !ch.range) {
      text = ch.text;
      continue;
    }
    let a = offsetAt(text, ch.range.start), b = offsetAt(text, ch.range.end);
    if (a > b) [a, b] = [b, a];
    text = text.slice(0, a) + ch.text + text.slice(b);
  }
  return text;
}

/** The one diagnostic of a document over MAX_MODEL_LINES. */
export function documentTooLarge(lines: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'warning',
    code: 'server.document-too-large',
    message: `This document has ${lines} lines, over the ${MAX_MODEL_LINES} the editor reads: it is not checked and has no hovers, outline or timeline. \`npu-trace check\` reads a file of any size`,
  };
}
