import type { CmdqEntry, EntryRanges, FieldNode, ParsedCmdq } from './model';
import { scanEntryRanges } from './parser';

/** The entry's ranges, scanned on first use and cached on the entry. */
export function rangesOf(doc: ParsedCmdq, e: CmdqEntry): EntryRanges {
  return (e.ranges ??= scanEntryRanges(doc.text, e.start));
}

function fieldIn(r: EntryRanges, key: string): FieldNode | undefined {
  // Backwards: a duplicated key resolves to its last occurrence, as JSON.parse does.
  for (let i = r.keys.length - 1; i >= 0; i--) {
    if (r.keys[i] === key) return nodeAt(r, i);
  }
  return undefined;
}

function nodeAt(r: EntryRanges, i: number): FieldNode {
  const p = r.pos;
  return { key: r.keys[i], keyStart: p[4 * i], keyEnd: p[4 * i + 1], valueStart: p[4 * i + 2], valueEnd: p[4 * i + 3], value: undefined };
}

/** The field `key` of an entry with its ranges, or undefined. */
export function field(doc: ParsedCmdq, e: CmdqEntry, key: string): FieldNode | undefined {
  if (e.kind !== 'object') return undefined;
  const n = fieldIn(rangesOf(doc, e), key);
  if (n && e.obj) n.value = e.obj[key];
  return n;
}

export function metadataField(doc: ParsedCmdq, key: string): FieldNode | undefined {
  return doc.metadataRanges ? fieldIn(doc.metadataRanges, key) : undefined;
}

/** Range of the k-th `deps_before` element. */
export function depRange(doc: ParsedCmdq, e: CmdqEntry, k: number): [number, number] {
  const d = rangesOf(doc, e).deps;
  if (d && 2 * k + 1 < d.length) return [d[2 * k], d[2 * k + 1]];
  const f = field(doc, e, 'deps_before');
  return f ? [f.valueStart, f.valueEnd] : [e.start, e.start + 1];
}

/** Where an entry names something for the user: its id value, else its opening brace. */
export function entryAnchor(doc: ParsedCmdq, e: CmdqEntry): [number, number] {
  const f = field(doc, e, 'id');
  return f ? [f.valueStart, f.valueEnd] : [e.start, e.start + 1];
}

/** Range of a field's value, falling back to the entry's `opcode` value and then its brace. */
export function valueRange(doc: ParsedCmdq, e: CmdqEntry, key: string | undefined): [number, number] {
  const f = (key !== undefined ? field(doc, e, key) : undefined) ?? field(doc, e, 'opcode');
  return f ? [f.valueStart, f.valueEnd] : [e.start, e.start + 1];
}
