import type { Id } from './line';

/**
 * The fields of one NPU trace event that every reader of a line fills: the timeline's `FlatEvent`
 * and the metrics' `EventFields` (metrics/eventFields.ts), from a parsed line or from its bytes.
 */
export interface EventCore {
  t: number | undefined;
  cmd: Id | undefined;
  job: Id | undefined;
  tx: Id | undefined;
  npu: number | undefined;
  core: number | undefined;
  size: number | undefined;
  /** String fields (raw numbers as their source text for the attribute ones). */
  direction: string | undefined;
  phase: string | undefined;
  layer: string | undefined;
}

/**
 * The fields of one NPU trace event that the timeline, the metrics and the Parquet rows use, typed
 * once here so they do no type tests of their own. Filled two ways: from a line's UTF-8 bytes by the
 * byte reader (`metrics/byteFields.ts`: no parse, no object per line; the timeline's `addLineBytes`),
 * or, for a line it is not sure of and for lines given as text, from `JSON.parse` by `readEvent`
 * (V8's native parse beat a hand-written scanner over a string 2-3×).
 */
export interface FlatEvent extends EventCore {
  type: string | undefined;
  tNs: number | undefined;
  channel: number | undefined;
  link: number | undefined;
  status: string | undefined;
  block: string | undefined;
  tenant: string | undefined;
  model: string | undefined;
  cmdType: string | undefined;
  jobType: string | undefined;
  opType: string | undefined;
  component: string | undefined;
  code: string | undefined;
}

export function emptyEvent(): FlatEvent {
  return {
    type: undefined, t: undefined, tNs: undefined, cmd: undefined, job: undefined, tx: undefined, npu: undefined, core: undefined,
    channel: undefined, link: undefined, size: undefined, status: undefined, phase: undefined, layer: undefined, block: undefined,
    tenant: undefined, model: undefined, cmdType: undefined, jobType: undefined, opType: undefined, direction: undefined,
    component: undefined, code: undefined,
  };
}

// Readers of one field of a parsed line, shared by every consumer that skips the schema checks.
export const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
export const attr = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** Reads the fields from a parsed line; `exactId` gives the source digits of ids beyond 2^53. */
export function readEvent(o: Record<string, unknown>, e: FlatEvent, exactId: (key: string) => Id | undefined): void {
  e.type = str(o.event_type); e.t = num(o.t_cycle); e.tNs = num(o.t_ns);
  e.cmd = id(o.cmd_id, 'cmd_id', exactId); e.job = id(o.job_id, 'job_id', exactId); e.tx = id(o.tx_id, 'tx_id', exactId);
  e.npu = int(o.npu_id); e.core = int(o.core_id); e.channel = int(o.channel); e.link = int(o.link_id); e.size = num(o.size_bytes);
  e.status = str(o.status); e.phase = attr(o.phase); e.layer = attr(o.layer_id); e.block = attr(o.block_id); e.tenant = attr(o.tenant_id);
  e.model = attr(o.model_name); e.cmdType = str(o.cmd_type); e.jobType = str(o.job_type); e.opType = str(o.op_type);
  e.direction = str(o.direction); e.component = str(o.component); e.code = str(o.code);
}

/** An id: a safe integer as a number, a larger one as its source digits (from `exactId`). */
export function id(v: unknown, key: string, exactId: (key: string) => Id | undefined): Id | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v)) return undefined;
  return Number.isSafeInteger(v) ? v : exactId(key);
}
