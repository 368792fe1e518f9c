import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { fixesFor } from '../../core/cmdq/fixes';
import { toRange } from '../offsetModel';

/** Quick fixes for the cmdq.* diagnostics in the request; each is one WorkspaceEdit (one undo step). */
export function cmdqCodeActions(model: CmdqDocument, uri: string, params: CodeActionParams): CodeAction[] {
  const out: CodeAction[] = [];
  const seen = new Set<string>();
  for (const d of params.context.diagnostics) {
    if (typeof d.code !== 'string' || !d.code.startsWith('cmdq.')) continue;
    for (const f of fixesFor(model, d.code, model.offsetAt(d.range.start))) {
      // One renumbering answers every id-mismatch: offer it once.
      const key = `${f.title}@${f.edits[0].start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        title: f.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: f.preferred,
        edit: { changes: { [uri]: f.edits.map((e) => ({ range: toRange(model, e.start, e.end), newText: e.newText })) } },
      });
    }
  }
  return out;
}
