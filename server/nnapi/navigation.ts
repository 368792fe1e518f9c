import type { Definition, Location, Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { range } from '../../core/common/diagnostic';
import type { NnapiDocument } from '../../core/nnapi/document';
import { tagRange } from '../../core/nnapi/mark';
import type { Scope } from '../../core/nnapi/scope';

function beginLocation(uri: string, s: Scope): Location {
  const [a, b] = tagRange(s.mark);
  return { uri, range: range(s.line, s.markCol + a, s.markCol + b) };
}

function markLocation(model: NnapiDocument, uri: string, line: number): Location {
  const r = model.row(line);
  const col = r?.kind === 'row' ? r.markCol : 0;
  const len = r?.kind === 'row' ? r.mark.length : 0;
  return { uri, range: range(line, col, col + len) };
}

/** From an `E` row (or a `[SW]` row, which ends the scope it switches from) to the `B` it closes. */
export function nnapiDefinition(model: NnapiDocument, doc: TextDocument, pos: Position): Definition | null {
  const s = model.analysis.closed.get(pos.line);
  return s ? beginLocation(doc.uri, s) : null;
}

/** From a `B` (or any row closing it) to the rows that close the scope, and the `B` when asked. */
export function nnapiReferences(model: NnapiDocument, doc: TextDocument, pos: Position, includeDeclaration: boolean): Location[] | null {
  const a = model.analysis;
  const s = a.opened.get(pos.line) ?? a.closed.get(pos.line);
  if (!s) return null;
  const out = s.closers.map((l) => markLocation(model, doc.uri, l));
  if (includeDeclaration) out.unshift(beginLocation(doc.uri, s));
  return out;
}
