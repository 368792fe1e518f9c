import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { CmdqDocument } from './document';

/**
 * Outline entries and code lenses per document: LSP asks for them without a visible range, and a
 * million-entry queue must not answer with a million of each. The first ones in the file are kept.
 */
export const MAX_OUTLINE_ENTRIES = 5000;
export const MAX_LENSES = 5000;

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
  const entries = p.entries;
  const n = Math.min(entries.length, MAX_OUTLINE_ENTRIES);
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    // Names are one short line: a layer_id or opcode of 10 MB or with line breaks stays readable.
    const layer = e.layerId === null ? '(no layer)' : e.layerId === undefined ? '(layer missing)' : escapeControl(clip(e.layerId));
    let g = groups.get(layer);
    if (!g) groups.set(layer, (g = { layer, start: e.start, end: e.end, entries: [] }));
    g.end = Math.max(g.end, e.end);
    // The opening brace, not the id: scanning ranges of 100k entries for the outline would cost seconds.
    const [selStart, selEnd] = [e.start, e.start + 1];
    const op = e.opcode === undefined ? '?' : escapeControl(clip(e.opcode));
    g.entries.push({ name: `${e.id ?? `#${e.index}`} ${op}`, detail: `index ${e.index}`, entry: e.index, start: e.start, end: e.end, selStart, selEnd });
  }
  if (entries.length > n) {
    const rest = entries[n];
    const last = entries[entries.length - 1];
    groups.set('\0more', { layer: `… ${entries.length - n} more entries (outline shows the first ${n})`, start: rest.start, end: last.end, entries: [] });
  }
  return [...groups.values()];
}

/**
 * "N dependents · depth D" above the entries the graph branches at (two or more entries wait for
 * them), at most MAX_LENSES. One dependent is the common case: a lens on every entry said
 * "1 dependent" and doubled the height of a queue (#30).
 */
export function entryLenses(doc: CmdqDocument): { entry: number; start: number; title: string }[] {
  const g = doc.graph;
  const out: { entry: number; start: number; title: string }[] = [];
  for (const e of doc.parsed.entries) {
    if (out.length >= MAX_LENSES) break;
    const n = g.dependentCount(e.index);
    if (n >= 2) out.push({ entry: e.index, start: e.start, title: `${n} dependents · depth ${g.depth(e.index)}` });
  }
  return out;
}
