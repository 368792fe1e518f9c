import type { Definition, Position, Range } from 'vscode-languageserver';

/**
 * A document model that maps its text's offsets to positions and back: the JSON documents with
 * offsets (CMDQ, InferScope). One adapter turns their offset spans into LSP ranges and locations.
 */
export interface OffsetModel {
  positionAt(offset: number): Position;
  offsetAt(pos: Position): number;
}

export function toRange(model: OffsetModel, start: number, end: number): Range {
  return { start: model.positionAt(start), end: model.positionAt(end) };
}

/** Go to Definition of a format whose core navigation finds the span defining what is at an offset. */
export function offsetDefinition<M extends OffsetModel>(definitionAt: (model: M, offset: number) => { start: number; end: number } | undefined) {
  return (model: M, uri: string, pos: Position): Definition | null => {
    const d = definitionAt(model, model.offsetAt(pos));
    return d ? { uri, range: toRange(model, d.start, d.end) } : null;
  };
}
