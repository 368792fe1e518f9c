import { DocumentHighlightKind, type DocumentHighlight, type Location, type Position } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { referencesAt, tokenAt } from '../../core/cmdq/navigation';
import { toRange } from '../offsetModel';

export function cmdqReferences(model: CmdqDocument, uri: string, pos: Position, includeDeclaration: boolean): Location[] {
  return referencesAt(model, model.offsetAt(pos), includeDeclaration).map((s) => ({ uri, range: toRange(model, s.start, s.end) }));
}

/** The entry's id (written) and every deps_before naming it (read), capped for very busy entries. */
export function cmdqHighlights(model: CmdqDocument, pos: Position): DocumentHighlight[] {
  const offset = model.offsetAt(pos);
  if (!tokenAt(model, offset)) return [];
  const [decl, ...refs] = referencesAt(model, offset, true);
  if (!decl) return [];
  return [
    { range: toRange(model, decl.start, decl.end), kind: DocumentHighlightKind.Write },
    ...refs.slice(0, 2000).map((s) => ({ range: toRange(model, s.start, s.end), kind: DocumentHighlightKind.Read })),
  ];
}
