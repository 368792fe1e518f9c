import type { CmdqEntry } from '../model';

/**
 * The estimated cost of an entry, in cycles. A model, not a simulator: it tells which chain is
 * long, and `npu-trace cmdq-graph` against a trace tells where it is wrong. Settings
 * `npuTrace.cmdq.cost.*`; the defaults are a 64 B/cycle DMA, a 32×32 MAC array and a 64-lane VE.
 */
export interface CostModel {
  /** DMA: `ceil(num_elements × qbits / 8)` bytes over this many bytes per cycle. */
  dmaBytesPerCycle: number;
  /** TE: `m·n·k` multiply-accumulates over this many per cycle. */
  teMacsPerCycle: number;
  /** VE: `length` elements over this many per cycle. */
  veElementsPerCycle: number;
}

export const DEFAULT_COST_MODEL: Readonly<CostModel> = Object.freeze({ dmaBytesPerCycle: 64, teMacsPerCycle: 1024, veElementsPerCycle: 64 });

/** A cost model from loose settings: a value that is not a positive finite number keeps its default. */
export function costModelOf(s: Partial<Record<keyof CostModel, unknown>> | undefined): CostModel {
  const pick = (k: keyof CostModel): number => {
    const v = s?.[k];
    return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : DEFAULT_COST_MODEL[k];
  };
  return { dmaBytesPerCycle: pick('dmaBytesPerCycle'), teMacsPerCycle: pick('teMacsPerCycle'), veElementsPerCycle: pick('veElementsPerCycle') };
}

/** A field as a count: a positive finite number, else 0 (the checker reports the bad field). */
function count(obj: Record<string, unknown> | undefined, key: string): number {
  const v = obj?.[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/**
 * Cycles of one entry, rounded up (a started tile takes a whole cycle). END, an unknown opcode or
 * an entry whose size fields are missing cost 0: they take no time on any engine.
 */
export function entryCost(e: CmdqEntry, m: CostModel): number {
  const op = e.opcode;
  if (!op || !e.obj) return 0;
  if (op === 'DMA_LOAD_TILE' || op === 'DMA_STORE_TILE') {
    const bytes = Math.ceil((count(e.obj, 'num_elements') * count(e.obj, 'qbits')) / 8);
    return Math.ceil(bytes / m.dmaBytesPerCycle);
  }
  if (op.startsWith('TE_')) return Math.ceil((count(e.obj, 'm') * count(e.obj, 'n') * count(e.obj, 'k')) / m.teMacsPerCycle);
  if (op.startsWith('VE_')) return Math.ceil(count(e.obj, 'length') / m.veElementsPerCycle);
  return 0;
}
