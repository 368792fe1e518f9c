import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseTraceLine } from '../../core/trace/parseLine';
import { lineText } from '../lineText';

/** The codes whose message may name the value meant ("did you mean"); only those get a fix. */
const FIXABLE = new Set(['trace.unknown-event-type', 'trace.invalid-value']);

/**
 * Quick fixes for trace diagnostics that name the value meant: the line is parsed again (one line,
 * the checker's own parse), and the diagnostic it gives at the same range carries the replacement,
 * so the fix can never disagree with the message. One edit each: one undo step.
 */
export function traceCodeActions(doc: TextDocument, params: CodeActionParams): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (typeof d.code !== 'string' || !FIXABLE.has(d.code) || d.range.start.line !== d.range.end.line) continue;
    if (d.range.start.line >= doc.lineCount) continue;
    const local = parseTraceLine(lineText(doc, d.range.start.line)).local?.find((l) =>
      l.code === d.code && l.start === d.range.start.character && l.end === d.range.end.character && l.replacement !== undefined);
    if (!local?.replacement) continue;
    out.push({
      title: `Replace with ${local.replacement}`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true,
      edit: { changes: { [doc.uri]: [{ range: d.range, newText: local.replacement }] } },
    });
  }
  return out;
}
