import { EVENT_SCHEMAS, type EventSchema } from './schemas';

export type Family = 'command' | 'job' | 'dma' | 'te' | 've' | 'sram' | 'dram' | 'noc' | 'irq' | 'token' | 'diag' | 'meta';

export const EVENT_TYPES: readonly string[] = Object.keys(EVENT_SCHEMAS);

/**
 * The type names as this module spells them: a line keeps this string rather than the one its
 * parse produced, so the per-line lookups of the cross-line checks compare one string, not two
 * equal ones.
 */
const CANONICAL = new Map(EVENT_TYPES.map((t) => [t, t]));
export const canonicalType = (t: string): string => CANONICAL.get(t) ?? t;

export function eventSchema(type: string): EventSchema | undefined {
  return Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, type) ? EVENT_SCHEMAS[type] : undefined;
}

export function familyOf(type: string): Family | undefined {
  return eventSchema(type)?.['x-family'] as Family | undefined;
}

export type IdKey = 'cmd_id' | 'job_id' | 'tx_id';

/** The field of a parsed line that holds each id key. */
export const ID_FIELD: Record<IdKey, 'cmd' | 'job' | 'tx'> = { cmd_id: 'cmd', job_id: 'job', tx_id: 'tx' };

/**
 * How START/END pairs match. TE and VE pair by `job_id`, transfers by `tx_id`; each pairing is its
 * own namespace, because the spec reuses one tx_id across the DMA, DRAM and NoC legs of a transfer.
 */
export interface Pairing {
  name: string;
  start: string;
  end: string;
  key: IdKey;
  /** Whether the END carries `latency_cycles` that must equal end − start. */
  latency: boolean;
}

export const PAIRINGS: readonly Pairing[] = [
  { name: 'command', start: 'CMD_START', end: 'CMD_END', key: 'cmd_id', latency: false },
  { name: 'job', start: 'JOB_ISSUE', end: 'JOB_DONE', key: 'job_id', latency: true },
  { name: 'TE job', start: 'TE_START', end: 'TE_END', key: 'job_id', latency: true },
  { name: 'VE job', start: 'VE_START', end: 'VE_END', key: 'job_id', latency: true },
  { name: 'DMA transfer', start: 'DMA_START', end: 'DMA_END', key: 'tx_id', latency: false },
  { name: 'DRAM transaction', start: 'DRAM_TX_START', end: 'DRAM_TX_END', key: 'tx_id', latency: false },
  { name: 'NoC transfer', start: 'NOC_TX_START', end: 'NOC_TX_END', key: 'tx_id', latency: false },
];

export const PAIRING_BY_START = new Map(PAIRINGS.map((p) => [p.start, p]));
export const PAIRING_BY_END = new Map(PAIRINGS.map((p) => [p.end, p]));

/** Event type → the index in PAIRINGS it starts (`start`) or ends (`end`): one lookup per line. */
export const PAIRING_ROLE = new Map<string, { start: number; end: number }>(EVENT_TYPES.map((t) => [t, {
  start: PAIRINGS.findIndex((p) => p.start === t),
  end: PAIRINGS.findIndex((p) => p.end === t),
}]));
