import { attr, type EventCore, type FlatEvent, id as readId, int, num, str } from '../flatEvent';
import type { Id } from '../line';

/**
 * The event types the metrics act on, as small numbers: the collector switches on them instead of
 * looking names up per event. Pairs share a kind: `START + k` opens what `END + k` closes.
 */
export const T_NONE = -1;
export const T_OTHER = 0;
export const T_META = 1;
export const T_ENQUEUE = 2;
export const T_SRAM_ACCESS = 3;
export const T_SRAM_CONFLICT = 4;
export const START = 8;
export const END = 16;
/** Span kinds, in the order of SPAN_STARTS / SPAN_ENDS. */
export const K_CMD = 0, K_JOB = 1, K_TE = 2, K_VE = 3, K_DMA = 4, K_DRAM = 5, K_NOC = 6;
export const SPAN_KINDS = 7;

const SPAN_STARTS = ['CMD_START', 'JOB_ISSUE', 'TE_START', 'VE_START', 'DMA_START', 'DRAM_TX_START', 'NOC_TX_START'];
const SPAN_ENDS = ['CMD_END', 'JOB_DONE', 'TE_END', 'VE_END', 'DMA_END', 'DRAM_TX_END', 'NOC_TX_END'];

/** Every event type name the metrics know, with its code. */
export const TYPE_CODES: [string, number][] = [
  ['TRACE_META', T_META], ['CMD_ENQUEUE', T_ENQUEUE], ['SRAM_ACCESS', T_SRAM_ACCESS], ['SRAM_CONFLICT', T_SRAM_CONFLICT],
  ...SPAN_STARTS.map((n, k): [string, number] => [n, START + k]), ...SPAN_ENDS.map((n, k): [string, number] => [n, END + k]),
];
// A Map, not an object: a type named `constructor` or `__proto__` is just another unknown type.
const CODE_OF = new Map(TYPE_CODES);

/** The key a span kind pairs by (as the checker pairs them: one namespace per kind). */
export const PAIR_KEY: ('cmd' | 'job' | 'tx')[] = ['cmd', 'job', 'job', 'job', 'tx', 'tx', 'tx'];

/**
 * The fields of one event the metrics read, with the values `JSON.parse` and the timeline's
 * readers (`str`, `num`, `int`, `attr`, `id`) would give. One object is reused for every line:
 * a million events cost no objects. Only the fields its type uses are filled.
 */
export interface EventFields extends EventCore {
  /** T_NONE when event_type is not a string. */
  type: number;
  /** NaN when absent: a number field holds a fraction without allocating one per event. */
  tNs: number;
  /** `channel`, or `link_id` for a NoC transfer. */
  channel: number | undefined;
  bank: number | undefined;
  /** A command's cmd_type (CMD_ENQUEUE, CMD_START): `npu-trace diff` groups by it. */
  cmdType: string | undefined;
}

export function newEventFields(): EventFields {
  return {
    type: T_NONE, t: undefined, tNs: NaN, cmd: undefined, job: undefined, tx: undefined, npu: undefined, core: undefined,
    channel: undefined, size: undefined, bank: undefined, direction: undefined, phase: undefined, layer: undefined, cmdType: undefined,
  };
}

export function typeCode(v: unknown): number {
  if (typeof v !== 'string') return T_NONE;
  return CODE_OF.get(v) ?? T_OTHER;
}

/** Fills `f` from a parsed line; `exactId` gives the source digits of ids beyond 2^53. */
export function fieldsOfObject(r: Record<string, unknown>, f: EventFields, exactId: (key: string) => Id | undefined): void {
  const type = typeCode(r.event_type);
  f.type = type;
  f.t = num(r.t_cycle);
  if (type === T_NONE || f.t === undefined) return;
  f.tNs = (r.t_ns === undefined ? undefined : num(r.t_ns)) ?? NaN;
  if (type === T_META || type === T_OTHER) return;
  if (type === T_SRAM_ACCESS || type === T_SRAM_CONFLICT) {
    f.bank = int(r.bank_id);
    return;
  }
  f.cmd = readId(r.cmd_id, 'cmd_id', exactId);
  if (type === T_ENQUEUE) {
    f.npu = int(r.npu_id);
    f.core = int(r.core_id);
    f.phase = attr(r.phase);
    f.layer = attr(r.layer_id);
    f.cmdType = str(r.cmd_type);
    return;
  }
  const kind = type & 7;
  if (PAIR_KEY[kind] === 'job') f.job = readId(r.job_id, 'job_id', exactId);
  else if (PAIR_KEY[kind] === 'tx') f.tx = readId(r.tx_id, 'tx_id', exactId);
  f.size = num(r.size_bytes);
  if (type >= END) return;
  f.npu = int(r.npu_id);
  f.core = int(r.core_id);
  f.channel = int(kind === K_NOC ? r.link_id : r.channel);
  f.direction = kind === K_DMA ? str(r.direction) : undefined;
  if (kind === K_CMD) {
    f.phase = attr(r.phase);
    f.layer = attr(r.layer_id);
    f.cmdType = str(r.cmd_type);
  }
}

/**
 * Fills `f` from the fields the timeline builder already read from the parsed line (the same
 * readers as `fieldsOfObject`), plus the line's bank_id, which the timeline does not keep.
 */
export function fieldsOfFlat(e: FlatEvent, bankId: unknown, f: EventFields): void {
  const type = e.type === undefined ? T_NONE : CODE_OF.get(e.type) ?? T_OTHER;
  f.type = type;
  f.t = e.t;
  f.tNs = e.tNs ?? NaN;
  f.cmd = e.cmd;
  f.job = e.job;
  f.tx = e.tx;
  f.npu = e.npu;
  f.core = e.core;
  f.channel = (type & 7) === K_NOC ? e.link : e.channel;
  f.size = e.size;
  f.bank = type === T_SRAM_ACCESS || type === T_SRAM_CONFLICT ? int(bankId) : undefined;
  f.direction = type === START + K_DMA ? e.direction : undefined;
  f.phase = e.phase;
  f.layer = e.layer;
  f.cmdType = e.cmdType;
}
