import type { CmdqDocument } from './document';
import { commonFields, KNOWN_OPCODES, opcodeFields, opcodeSchema, placeholder } from './opcodes';
import { entrySummary, markdownText, plainText } from './summary';

export interface CmdqCompletion {
  label: string;
  kind: 'opcode' | 'field' | 'dep';
  detail: string;
  documentation?: string;
  /** Replaces `[replaceStart, replaceEnd)`. */
  insertText: string;
  replaceStart: number;
  replaceEnd: number;
  sortText: string;
}

/** Earlier ids offered inside deps_before: the nearest ones, so a 100k-entry queue stays responsive. */
const MAX_DEP_ITEMS = 500;

/** Index of the entry whose text starts last at or before `offset` (also while it is being typed). */
function entryBefore(doc: CmdqDocument, offset: number): number | undefined {
  const es = doc.parsed.entries;
  let lo = 0;
  let hi = es.length - 1;
  let best: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (es[mid].start <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/**
 * Completion from the text around the cursor rather than from the parse, because the entry being
 * typed is usually not valid JSON yet.
 */
export function completionsAt(doc: CmdqDocument, offset: number): CmdqCompletion[] {
  const text = doc.parsed.text;
  const back = text.slice(Math.max(0, offset - 4000), offset);
  const opm = /"opcode"\s*:\s*("?)([A-Za-z0-9_]*)$/.exec(back);
  if (opm) {
    const start = offset - opm[2].length - opm[1].length;
    let end = offset;
    while (end < text.length && /[A-Za-z0-9_]/.test(text[end])) end++;
    if (opm[1] && text[end] === '"') end++;
    return KNOWN_OPCODES.map((op, n) => ({
      label: op, kind: 'opcode', detail: opcodeSchema(op)?.title ?? op, documentation: opcodeSchema(op)?.description,
      insertText: `"${op}"`, replaceStart: start, replaceEnd: end, sortText: String(n).padStart(3, '0'),
    }));
  }
  const depm = /"deps_before"\s*:\s*\[([^\]]*)$/.exec(back);
  if (depm) return depCompletions(doc, offset, depm[1]);
  return fieldCompletions(doc, offset, back);
}

function depCompletions(doc: CmdqDocument, offset: number, inside: string): CmdqCompletion[] {
  const i = entryBefore(doc, offset);
  if (i === undefined) return [];
  const p = doc.parsed;
  const word = /[0-9]*$/.exec(inside)![0];
  // Numbers already in the list, on both sides of the cursor (but not the one being typed).
  const text = doc.parsed.text;
  const close = text.indexOf(']', offset);
  const rest = close >= 0 && close - offset < 4000 ? text.slice(offset, close) : '';
  // A cursor inside a number: the digits after it belong to the number being replaced.
  const after = word ? rest.replace(/^[0-9]*/, '') : rest;
  const listed = new Set(`${inside.slice(0, inside.length - word.length)},${after}`.split(/[^0-9]+/).filter(Boolean).map(Number));
  const out: CmdqCompletion[] = [];
  for (let j = i - 1; j >= 0 && out.length < MAX_DEP_ITEMS; j--) {
    const e = p.entries[j];
    const id = e.id;
    if (id === undefined || listed.has(id)) continue;
    out.push({
      label: String(id), kind: 'dep', detail: `${plainText(e.opcode ?? '?')}${e.layerId ? ` · ${plainText(e.layerId)}` : ''}`,
      documentation: entrySummary(e, markdownText), insertText: String(id), replaceStart: offset - word.length, replaceEnd: offset,
      // Nearest first: the entry just above is the usual dependency.
      sortText: String(i - j).padStart(7, '0'),
    });
  }
  return out;
}

function fieldCompletions(doc: CmdqDocument, offset: number, back: string): CmdqCompletion[] {
  // At a key position: after '{' or ',' with only whitespace and maybe an opening quote typed.
  const km = /[{,]\s*("?)([A-Za-z0-9_]*)$/.exec(back);
  if (!km) return [];
  const i = entryBefore(doc, offset);
  if (i === undefined) return [];
  const e = doc.parsed.entries[i];
  if (offset > e.end && !e.broken && e.kind === 'object') return [];
  // The entry being typed rarely parses: read its opcode and keys from its text.
  const own = doc.parsed.text.slice(e.start, e.broken || offset > e.end ? offset : e.end);
  const have = new Set(e.obj ? Object.keys(e.obj) : Array.from(own.matchAll(/"([A-Za-z0-9_]+)"\s*:/g), (m) => m[1]));
  const opcode = e.opcode ?? /"opcode"\s*:\s*"([A-Za-z0-9_]+)"/.exec(own)?.[1];
  const start = offset - km[2].length - km[1].length;
  let end = offset;
  const text = doc.parsed.text;
  while (end < text.length && /[A-Za-z0-9_]/.test(text[end])) end++;
  if (km[1] && text[end] === '"') end++;
  const out: CmdqCompletion[] = [];
  const add = (name: string, schema: Parameters<typeof placeholder>[0], required: boolean) => {
    if (have.has(name) && name !== km[2]) return;
    out.push({
      label: name, kind: 'field', detail: `${required ? 'required' : 'optional'}${schema.type ? ` · ${Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type}` : ''}`,
      documentation: schema.description, insertText: `"${name}": ${name === 'id' ? String(i) : placeholder(schema)}`,
      replaceStart: start, replaceEnd: end, sortText: `${required ? 0 : 1}${name}`,
    });
  };
  for (const f of commonFields()) add(f.name, f.schema, true);
  if (opcode) for (const f of opcodeFields(opcode)) add(f.name, f.schema, f.required);
  return out;
}
