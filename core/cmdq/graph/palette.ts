/** The class an opcode is drawn with, in the DOT output and the graph view alike. */
export type OpcodeClass = 'load' | 'store' | 'te' | 've' | 'end' | 'other';

export function opcodeClass(op: string | undefined): OpcodeClass {
  if (op === 'DMA_LOAD_TILE') return 'load';
  if (op === 'DMA_STORE_TILE') return 'store';
  if (op === 'END') return 'end';
  if (op?.startsWith('TE_')) return 'te';
  if (op?.startsWith('VE_')) return 've';
  return 'other';
}

/** Fill colours readable with black text on light and dark themes. */
export const CLASS_COLORS: Readonly<Record<OpcodeClass, string>> = {
  load: '#7fb3e0', store: '#9ad0c2', te: '#f2b36b', ve: '#b9a3e3', end: '#c8c8c8', other: '#e89a9a',
};

export const CRITICAL_COLOR = '#d62728';
