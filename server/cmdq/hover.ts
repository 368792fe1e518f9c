import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { tokenAt } from '../../core/cmdq/navigation';
import { entryHover } from '../../core/cmdq/summary';
import { toRange } from './range';

export function cmdqHover(model: CmdqDocument, pos: Position): Hover | null {
  const t = tokenAt(model, model.offsetAt(pos));
  if (!t) return null;
  const value = t.target >= 0 ? entryHover(model, t.target) : `No entry has id ${t.kind === 'dep' ? t.id : '?'}`;
  return { contents: { kind: MarkupKind.Markdown, value }, range: toRange(model, t.start, t.end) };
}
