import type { Location, Position } from 'vscode-languageserver';
import type { FlowIndex } from '../../core/chrome/flows';

/** From a flow step or end (`t`, `f`) to its start (`s`). */
export function chromeDefinition(flows: FlowIndex | undefined, uri: string, pos: Position): Location | null {
  const r = flows?.startAt(pos);
  return r ? { uri, range: r } : null;
}

/** Every event of the flow at the cursor: its start, steps and ends. */
export function chromeReferences(flows: FlowIndex | undefined, uri: string, pos: Position): Location[] | null {
  const rs = flows?.flowAt(pos) ?? [];
  return rs.length ? rs.map((range) => ({ uri, range })) : null;
}
