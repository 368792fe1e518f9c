import type { CmdqEntry } from '../model';

/**
 * The unit an entry occupies: `DMA load`, `DMA store`, `TE <te_id>`, `VE <ve_id>`; undefined for
 * END and unknown opcodes, which occupy none. Loads and stores are separate queues (one reads
 * DRAM, the other writes it); a TE or VE entry without a usable unit id runs on unit 0.
 */
export function engineKey(e: CmdqEntry): string | undefined {
  const op = e.opcode;
  if (!op) return undefined;
  if (op === 'DMA_LOAD_TILE') return 'DMA load';
  if (op === 'DMA_STORE_TILE') return 'DMA store';
  if (op.startsWith('TE_')) return `TE ${unit(e.obj?.te_id)}`;
  if (op.startsWith('VE_')) return `VE ${unit(e.obj?.ve_id)}`;
  return undefined;
}

function unit(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

/** Engines in display order: DMA load, DMA store, then TE and VE by unit number. */
export function compareEngines(a: string, b: string): number {
  const rank = (s: string): number => (s === 'DMA load' ? 0 : s === 'DMA store' ? 1 : s.startsWith('TE') ? 2 : 3);
  return rank(a) - rank(b) || Number(a.slice(3)) - Number(b.slice(3));
}
