import type { CmdqDocument } from './document';

export interface EntrySymbol {
  name: string;
  detail: string;
  entry: number;
  start: number;
  end: number;
  selStart: number;
  selEnd: number;
}

export interface LayerSymbol {
  layer: string;
  start: number;
  end: number;
  entries: EntrySymbol[];
}

/** The outline: entries grouped by layer_id, layers in order of first appearance. */
export function layerSymbols(doc: CmdqDocument): LayerSymbol[] {
  const p = doc.parsed;
  const groups = new Map<string, LayerSymbol>();
  for (const e of p.entries) {
    const layer = e.layerId === null ? '(no layer)' : e.layerId === undefined ? '(layer missing)' : e.layerId;
    let g = groups.get(layer);
    if (!g) groups.set(layer, (g = { layer, start: e.start, end: e.end, entries: [] }));
    g.end = Math.max(g.end, e.end);
    // The opening brace, not the id: scanning ranges of 100k entries for the outline would cost seconds.
    const [selStart, selEnd] = [e.start, e.start + 1];
    g.entries.push({ name: `${e.id ?? `#${e.index}`} ${e.opcode ?? '?'}`, detail: `index ${e.index}`, entry: e.index, start: e.start, end: e.end, selStart, selEnd });
  }
  return [...groups.values()];
}

/** "N dependents · depth D" for every entry. */
export function entryLenses(doc: CmdqDocument): { entry: number; start: number; title: string }[] {
  const g = doc.graph;
  return doc.parsed.entries.map((e) => {
    const n = g.dependentCount(e.index);
    return { entry: e.index, start: e.start, title: `${n} ${n === 1 ? 'dependent' : 'dependents'} · depth ${g.depth(e.index)}` };
  });
}
