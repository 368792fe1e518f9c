import type { Range } from 'vscode-languageserver';
import type { CmdqDocument } from '../../core/cmdq/document';

export function toRange(model: CmdqDocument, start: number, end: number): Range {
  return { start: model.positionAt(start), end: model.positionAt(end) };
}
