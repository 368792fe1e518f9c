import { clip } from '../common/clip';
import { escapeControl, escapeMarkdown, markdownCode } from '../common/escape';
import type { CmdqDocument } from './document';
import { depId, type CmdqEntry } from './model';
import { engineOf, opcodeSchema } from './opcodes';

/** How a value from the file is written: as Markdown text (hover, completion docs) or plain text. */
export type Quote = (s: string) => string;

/** Plain text (completion details, messages): one short line without control characters. */
export const plainText: Quote = (s) => escapeControl(clip(s));
/** Markdown text: no markup, link or image from the file survives. */
export const markdownText: Quote = (s) => escapeMarkdown(s);

function num(o: Record<string, unknown>, k: string): number | undefined {
  const v = o[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A field as written in a summary: numbers as they are, anything else quoted, a missing field as `?`. */
function shown(o: Record<string, unknown>, k: string, q: Quote): string {
  const v = o[k];
  if (v === undefined) return '?';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return q(v);
  return v === null || typeof v === 'boolean' ? String(v) : Array.isArray(v) ? '[…]' : '{…}';
}

/** An opcode of the schemas is ours and shown as is; any other is file text and quoted. */
function opName(op: string, q: Quote): string {
  return opcodeSchema(op) && /^[A-Z0-9_]+$/.test(op) ? op : q(op);
}

/** One line on what an entry does: engine, shape or size. Used by hover, completion and the outline. */
export function entrySummary(e: CmdqEntry, q: Quote = plainText): string {
  const o = e.obj;
  if (!o) return e.broken ? 'entry with a syntax error' : `not an object (${e.kind})`;
  const op = e.opcode !== undefined ? opName(e.opcode, q) : '(no opcode)';
  const engine = engineOf(e.opcode);
  const f = (k: string) => shown(o, k, q);
  if (engine === 'DMA') {
    const n = num(o, 'num_elements');
    const b = num(o, 'qbits');
    const bytes = n !== undefined && b !== undefined ? Math.ceil((n * b) / 8) : undefined;
    const addr = num(o, 'dram_addr');
    const dir = e.opcode === 'DMA_STORE_TILE' ? 'SPM → DRAM' : 'DRAM → SPM';
    return `${op} ${typeof o.tensor_role === 'string' ? q(o.tensor_role) + ' ' : ''}${dir}: ${n ?? '?'} × ${b ?? '?'} bit${bytes !== undefined ? ` = ${bytes} B` : ''}, SPM bank ${f('spm_bank')} @ ${f('spm_offset')}${addr !== undefined ? `, DRAM 0x${addr.toString(16)}` : ''}`;
  }
  if (engine === 'TE') {
    return `${op} on TE ${f('te_id')}: m×n×k = ${f('m')}×${f('n')}×${f('k')}, banks ifm ${f('ifm_bank')} / wgt ${f('wgt_bank')} / ofm ${f('ofm_bank')}`;
  }
  if (engine === 'VE') return `${op} on VE ${f('ve_id')}: length ${f('length')}, ${f('qbits_activation')}-bit activations`;
  return op;
}

function layerText(e: CmdqEntry): string {
  return e.layerId === undefined ? '' : e.layerId === null ? ' · no layer' : ` · layer ${markdownCode(e.layerId)}`;
}

/** Markdown for hovering an entry (from its id or from a deps_before number naming it). */
export function entryHover(doc: CmdqDocument, i: number): string {
  const p = doc.parsed;
  const e = p.entries[i];
  const g = doc.graph;
  const lines = [`**entry ${e.id ?? `#${i}`}** · ${markdownCode(e.opcode ?? '?')}${layerText(e)}${e.id !== i ? ` · index ${i}` : ''}`, '', entrySummary(e, markdownText), ''];
  const deps = (e.deps ?? []).map(depId).filter((d) => d >= 0);
  if (deps.length === 0) lines.push('waits for nothing');
  else {
    const shownDeps = deps.slice(0, 12).map((d) => {
      const t = g.indexOf(d);
      return t >= 0 ? `${d} (${opName(p.entries[t].opcode ?? '?', markdownText)})` : `${d} (unknown)`;
    });
    lines.push(`waits for: ${shownDeps.join(', ')}${deps.length > 12 ? ` and ${deps.length - 12} more` : ''}`);
  }
  const n = g.dependentCount(i);
  const who = Array.from(g.dependents(i).subarray(0, 12)).map((d) => p.entries[d].id ?? `#${d}`);
  lines.push('', `${n} ${n === 1 ? 'entry depends' : 'entries depend'} on it${n ? `: ${who.join(', ')}${n > 12 ? ', …' : ''}` : ''} · depth ${g.depth(i)}`);
  return lines.join('\n');
}
