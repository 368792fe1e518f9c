import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { NnapiDocument } from '../../core/nnapi/document';
import { lineText } from '../lineText';

/**
 * Quick fixes for nesting violations, the remedies the contract offers: `[SUB]` before the tag
 * (time that belongs to another layer), and for a phase violation inside the same layer `[SW]`
 * (a phase switch within the function).
 */
export function nnapiCodeActions(model: NnapiDocument, doc: TextDocument, params: CodeActionParams): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.code !== 'nnapi.layer-nesting' && d.code !== 'nnapi.phase-nesting') continue;
    const line = d.range.start.line;
    const text = lineText(doc, line);
    const at = d.range.start.character;
    if (text[at] !== '[' || text.includes('[SUB]')) continue;
    const s = model.analysis.opened.get(line);
    if (!s) continue;
    const insert = (marker: string, title: string, preferred: boolean): CodeAction => ({
      title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: preferred,
      edit: { changes: { [doc.uri]: [{ range: { start: { line, character: at }, end: { line, character: at } }, newText: marker }] } },
    });
    out.push(insert('[SUB]', `Insert [SUB]: subtract '${s.fn || s.mark}' from its ancestors (NNTRACE_FULL_SUBTRACT)`, true));
    if (d.code === 'nnapi.phase-nesting' && !text.includes('[SW]') && s.rawParent && s.rawParent.layer === s.layer) {
      out.push(insert('[SW]', `Insert [SW]: '${s.fn || s.mark}' switches phase within '${s.rawParent.fn}' (NNTRACE_*_SWITCH)`, false));
    }
  }
  return out;
}
