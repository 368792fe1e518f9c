import type { CmdqDocument } from './document';
import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import { isUnsafeId } from './checks';
import { depRange, field, rangesOf, valueRange } from './fields';
import { depId } from './model';
import { suggestOpcode } from './opcodes';

/** A replacement of `[start, end)` in the document text. */
export interface TextEditAt {
  start: number;
  end: number;
  newText: string;
}

export interface CmdqFix {
  title: string;
  /** Diagnostic codes this fix answers. */
  code: string;
  edits: TextEditAt[];
  preferred?: boolean;
}

/**
 * Renumbers every id to its index and rewrites every deps_before element to the new number of the
 * entry it named, touching only those number tokens. Deps naming no entry are left as they are.
 */
export function renumberFix(doc: CmdqDocument): CmdqFix | undefined {
  const p = doc.parsed;
  const g = doc.graph;
  const edits: TextEditAt[] = [];
  for (const e of p.entries) {
    if (e.kind !== 'object' || e.broken) continue;
    // Only entries that change are scanned for ranges: a 100k-entry queue with one bad id stays fast.
    if (e.id !== e.index) {
      const f = field(p, e, 'id');
      if (f) edits.push({ start: f.valueStart, end: f.valueEnd, newText: String(e.index) });
    }
    const deps = e.deps;
    if (!deps) continue;
    for (let k = 0; k < deps.length; k++) {
      const id = depId(deps[k]);
      if (id < 0) continue;
      const t = g.indexOf(id);
      if (t < 0 || t === id) continue;
      const [a, b] = depRange(p, e, k);
      edits.push({ start: a, end: b, newText: String(t) });
    }
  }
  if (edits.length === 0) return undefined;
  return { title: 'Renumber ids to their index and update every deps_before', code: 'cmdq.id-mismatch', edits, preferred: true };
}

/** Deletes deps_before element k of entry i with the comma that separates it. */
export function removeDepFix(doc: CmdqDocument, i: number, k: number, code: string): CmdqFix | undefined {
  const p = doc.parsed;
  const e = p.entries[i];
  const r = rangesOf(p, e).deps;
  if (!r || 2 * k + 1 >= r.length) return undefined;
  const n = r.length / 2;
  const start = k > 0 ? r[2 * k - 1] : r[0];
  const end = k > 0 ? r[2 * k + 1] : n > 1 ? r[2] : r[1];
  const id = depId(e.deps?.[k]);
  // The token as written, cut: a title is one short line whatever the element holds.
  const written = id >= 0 ? String(id) : escapeControl(clip(p.text.slice(r[2 * k], Math.min(r[2 * k + 1], r[2 * k] + 100)), 40));
  return { title: `Remove dependency ${written}`, code, edits: [{ start, end, newText: '' }], preferred: true };
}

function leafIds(doc: CmdqDocument): number[] {
  const p = doc.parsed;
  const leaves = doc.graph.leaves((i) => p.entries[i].opcode === 'END');
  return leaves.filter((i) => p.entries[i].kind === 'object' && !p.entries[i].broken).map((i) => p.entries[i].id ?? i);
}

/** Appends an END entry, in the style of the last entry's line, waiting for every leaf. */
export function appendEndFix(doc: CmdqDocument): CmdqFix | undefined {
  const p = doc.parsed;
  if (p.cmdqClose === undefined) return undefined;
  const n = p.entries.length;
  const entry = `{ "opcode": "END", "id": ${n}, "layer_id": null, "deps_before": [${leafIds(doc).join(', ')}] }`;
  if (n === 0) {
    return { title: 'Append an END entry', code: 'cmdq.missing-end', edits: [{ start: p.cmdqClose, end: p.cmdqClose, newText: `${entry}` }] };
  }
  const last = p.entries[n - 1];
  const lineStart = p.text.lastIndexOf('\n', last.start) + 1;
  const before = p.text.slice(lineStart, last.start);
  // Entries one per line (as CmdqGenerator writes them): the new one goes on its own line, same indent.
  const sep = /^[ \t]*$/.test(before) ? `,\n${before}` : ', ';
  return { title: 'Append an END entry that depends on every leaf', code: 'cmdq.missing-end', edits: [{ start: last.end, end: last.end, newText: `${sep}${entry}` }], preferred: true };
}

/** Rewrites END's deps_before to also name every leaf it does not wait for yet. */
export function endDepsFix(doc: CmdqDocument): CmdqFix | undefined {
  const p = doc.parsed;
  let end = -1;
  for (const e of p.entries) if (e.opcode === 'END') end = e.index;
  if (end < 0) return undefined;
  const e = p.entries[end];
  const f = field(p, e, 'deps_before');
  if (!f) return undefined;
  const reach = doc.graph.ancestors(end);
  const have = (e.deps ?? []).map(depId).filter((d) => d >= 0);
  const leaves = doc.graph.leaves((i) => p.entries[i].opcode === 'END').filter((i) => !reach[i]).map((i) => p.entries[i].id ?? i);
  const all = [...new Set([...have, ...leaves])].sort((a, b) => a - b);
  return { title: 'Make END wait for every leaf', code: 'cmdq.end-deps', edits: [{ start: f.valueStart, end: f.valueEnd, newText: `[${all.join(', ')}]` }], preferred: true };
}

export function opcodeFix(doc: CmdqDocument, i: number): CmdqFix | undefined {
  const p = doc.parsed;
  const e = p.entries[i];
  if (!e.opcode) return undefined;
  const near = suggestOpcode(e.opcode);
  if (!near) return undefined;
  const [a, b] = valueRange(p, e, 'opcode');
  return { title: `Change to ${near}`, code: 'cmdq.unknown-opcode', edits: [{ start: a, end: b, newText: `"${near}"` }], preferred: true };
}

/** The fixes for a diagnostic with `code` starting at `offset`. */
export function fixesFor(doc: CmdqDocument, code: string, offset: number): CmdqFix[] {
  const i = doc.entryAt(offset);
  const out: (CmdqFix | undefined)[] = [];
  switch (code) {
    case 'cmdq.id-mismatch':
    case 'cmdq.duplicate-id':
      out.push(renumberFix(doc));
      break;
    case 'cmdq.self-dep':
    case 'cmdq.duplicate-dep':
    case 'cmdq.unknown-dep':
    case 'cmdq.invalid-value': {
      if (i === undefined) break;
      const e = doc.parsed.entries[i];
      // An id past 2^53 (invalid-value on the id) is renumbered like any id that is not its index.
      if (code === 'cmdq.invalid-value' && e.obj && isUnsafeId(e.obj.id) && field(doc.parsed, e, 'id')?.valueStart === offset) {
        out.push(renumberFix(doc));
        break;
      }
      const r = rangesOf(doc.parsed, e).deps ?? [];
      for (let k = 0; 2 * k < r.length; k++) if (r[2 * k] === offset) out.push(removeDepFix(doc, i, k, code));
      break;
    }
    case 'cmdq.missing-end':
      out.push(appendEndFix(doc));
      break;
    case 'cmdq.end-deps':
      out.push(endDepsFix(doc));
      break;
    case 'cmdq.unknown-opcode':
      if (i !== undefined) out.push(opcodeFix(doc, i));
      break;
  }
  return out.filter((f): f is CmdqFix => f !== undefined && f.edits.length > 0).map((f) => ({ ...f, code }));
}
