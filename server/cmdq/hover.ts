import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';
import { field } from '../../core/cmdq/fields';
import { tokenAt } from '../../core/cmdq/navigation';
import { entryHover } from '../../core/cmdq/summary';
import { toRange } from '../offsetModel';
import { measuredHover } from './traceJoin';

export function cmdqHover(model: CmdqDocument, pos: Position): Hover | null {
  const offset = model.offsetAt(pos);
  const t = tokenAt(model, offset);
  if (!t) return layerHover(model, offset);
  let value = t.target >= 0 ? entryHover(model, t.target) : `No entry has id ${t.kind === 'dep' ? t.id : '?'}`;
  // On an entry's own id: its layer's time in the trace, when one is open.
  const measured = t.kind === 'id' ? measuredHover(model, t.entry) : undefined;
  if (measured) value += `\n\n---\n\n${measured}`;
  return { contents: { kind: MarkupKind.Markdown, value }, range: toRange(model, t.start, t.end) };
}

/** On a `layer_id` value: that layer's measured time in the open trace. */
function layerHover(model: CmdqDocument, offset: number): Hover | null {
  const i = model.entryAt(offset);
  if (i === undefined) return null;
  const e = model.parsed.entries[i];
  if (e.kind !== 'object' || e.broken) return null;
  const f = field(model.parsed, e, 'layer_id');
  if (!f || offset < f.valueStart || offset > f.valueEnd) return null;
  const measured = measuredHover(model, i);
  return measured ? { contents: { kind: MarkupKind.Markdown, value: measured }, range: toRange(model, f.valueStart, f.valueEnd) } : null;
}
