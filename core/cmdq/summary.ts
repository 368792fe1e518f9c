import type { CmdqDocument } from './document';
import { depId, type CmdqEntry } from './model';
import { engineOf } from './opcodes';

function num(o: Record<string, unknown>, k: string): number | undefined {
  const v = o[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** One line on what an entry does: engine, shape or size. Used by hover, completion and the outline. */
export function entrySummary(e: CmdqEntry): string {
  const o = e.obj;
  if (!o) return e.broken ? 'entry with a syntax error' : `not an object (${e.kind})`;
  const op = e.opcode ?? '(no opcode)';
  const engine = engineOf(e.opcode);
  if (engine === 'DMA') {
    const n = num(o, 'num_elements');
    const q = num(o, 'qbits');
    const bytes = n !== undefined && q !== undefined ? Math.ceil((n * q) / 8) : undefined;
    const addr = num(o, 'dram_addr');
    const dir = op === 'DMA_STORE_TILE' ? 'SPM → DRAM' : 'DRAM → SPM';
    return `${op} ${typeof o.tensor_role === 'string' ? o.tensor_role + ' ' : ''}${dir}: ${n ?? '?'} × ${q ?? '?'} bit${bytes !== undefined ? ` = ${bytes} B` : ''}, SPM bank ${o.spm_bank ?? '?'} @ ${o.spm_offset ?? '?'}${addr !== undefined ? `, DRAM 0x${addr.toString(16)}` : ''}`;
  }
  if (engine === 'TE') {
    return `${op} on TE ${o.te_id ?? '?'}: m×n×k = ${o.m ?? '?'}×${o.n ?? '?'}×${o.k ?? '?'}, banks ifm ${o.ifm_bank ?? '?'} / wgt ${o.wgt_bank ?? '?'} / ofm ${o.ofm_bank ?? '?'}`;
  }
  if (engine === 'VE') return `${op} on VE ${o.ve_id ?? '?'}: length ${o.length ?? '?'}, ${o.qbits_activation ?? '?'}-bit activations`;
  return op;
}

function layerText(e: CmdqEntry): string {
  return e.layerId === undefined ? '' : e.layerId === null ? ' · no layer' : ` · layer \`${e.layerId}\``;
}

/** Markdown for hovering an entry (from its id or from a deps_before number naming it). */
export function entryHover(doc: CmdqDocument, i: number): string {
  const p = doc.parsed;
  const e = p.entries[i];
  const g = doc.graph;
  const lines = [`**entry ${e.id ?? `#${i}`}** · \`${e.opcode ?? '?'}\`${layerText(e)}${e.id !== i ? ` · index ${i}` : ''}`, '', entrySummary(e), ''];
  const deps = (e.deps ?? []).map(depId).filter((d) => d >= 0);
  if (deps.length === 0) lines.push('waits for nothing');
  else {
    const shown = deps.slice(0, 12).map((d) => {
      const t = g.indexOf(d);
      return t >= 0 ? `${d} (${p.entries[t].opcode ?? '?'})` : `${d} (unknown)`;
    });
    lines.push(`waits for: ${shown.join(', ')}${deps.length > 12 ? ` and ${deps.length - 12} more` : ''}`);
  }
  const n = g.dependentCount(i);
  const who = Array.from(g.dependents(i).subarray(0, 12)).map((d) => p.entries[d].id ?? `#${d}`);
  lines.push('', `${n} ${n === 1 ? 'entry depends' : 'entries depend'} on it${n ? `: ${who.join(', ')}${n > 12 ? ', …' : ''}` : ''} · depth ${g.depth(i)}`);
  return lines.join('\n');
}
