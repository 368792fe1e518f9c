import type { Id } from '../line';
import type { FlatEvent } from '../flatEvent';
import { BOOL, INT, NUM, STR } from '../../json/flatObject';
import { KEY_NAMES, TYPE_RULES } from '../fastRules';
import { keyIdOf, LINE_READER, tagOf as tagIdOf } from '../lineReader';
import { END, type EventFields, K_CMD, K_DMA, K_NOC, PAIR_KEY, T_ENQUEUE, T_META, T_NONE, T_OTHER, T_SRAM_ACCESS, T_SRAM_CONFLICT, TYPE_CODES } from './eventFields';

// The keys the metrics and the timeline (flatEventOfBytes) read, by their id in the NPU trace line
// reader. Every other key is checked as JSON and skipped.
const slot = (name: string) => {
  const k = keyIdOf(name);
  if (k < 0) throw new Error(`no event schema has the key ${name}`);
  return k;
};
const S_TYPE = slot('event_type'), S_T = slot('t_cycle'), S_NS = slot('t_ns'), S_CMD = slot('cmd_id'), S_JOB = slot('job_id'), S_TX = slot('tx_id');
const S_NPU = slot('npu_id'), S_CORE = slot('core_id'), S_CHANNEL = slot('channel'), S_LINK = slot('link_id'), S_SIZE = slot('size_bytes'), S_DIR = slot('direction');
const S_PHASE = slot('phase'), S_LAYER = slot('layer_id'), S_BANK = slot('bank_id'), S_STATUS = slot('status'), S_BLOCK = slot('block_id'), S_TENANT = slot('tenant_id');
const S_MODEL = slot('model_name'), S_CMD_TYPE = slot('cmd_type'), S_JOB_TYPE = slot('job_type'), S_OP_TYPE = slot('op_type'), S_COMPONENT = slot('component'), S_CODE = slot('code');

const line = LINE_READER;
const { kind: kindOf, start: startOf, end: endOf, num: valueOf, tag: tagOf, fieldOf: fieldAt } = line;
/** By the reader's tag of an event type: its code (T_OTHER for a type the metrics do not tell apart). */
const CODE_OF_TAG = new Int32Array(TYPE_RULES.length).fill(T_OTHER);
/** The event type name of each code, so a known type is never decoded from the bytes again. */
const TYPE_NAME: string[] = [];
for (const [name, code] of TYPE_CODES) {
  TYPE_NAME[code] = name;
  const t = tagIdOf(name);
  if (t >= 0) CODE_OF_TAG[t] = code;
}

let typeCode = T_NONE;

/**
 * Reads the fields the metrics use from a line's UTF-8 bytes `[s, e)` into `f`, with the values
 * JSON.parse would give, and says whether it could. It reads only a flat object of plain ASCII: on
 * escapes, non-ASCII or control bytes, anything not valid JSON, ids beyond 2^53 or a TRACE_META
 * line it returns false and the caller parses the line with JSON.parse. It never decides anything
 * JSON.parse would decide differently. As the line readers give it, the byte at `e` ends the line
 * (a line break, or past the buffer), so no scan that stops at non-blanks runs into the next line.
 */
export function fieldsOfBytes(b: Uint8Array, s: number, e: number, f: EventFields, decode: (b: Uint8Array, s: number, e: number) => string): boolean {
  return scan(b, s, e, decode) && fill(b, f, decode);
}

/**
 * The same read for the timeline (README "Export to Chrome Trace": the export's model pass): fills
 * `f` as `readEvent` of the parsed line would, or returns false where the caller must parse the
 * line (the same cases as above).
 */
export function flatEventOfBytes(b: Uint8Array, s: number, e: number, f: FlatEvent, decode: (b: Uint8Array, s: number, e: number) => string): boolean {
  if (!scan(b, s, e, decode) || typeCode === T_META) return false;
  idOk = true;
  f.type = typeCode > T_OTHER ? TYPE_NAME[typeCode] : str(b, S_TYPE, decode); f.t = num(S_T); f.tNs = num(S_NS);
  f.cmd = id(S_CMD); f.job = id(S_JOB); f.tx = id(S_TX);
  f.npu = int(S_NPU); f.core = int(S_CORE); f.channel = int(S_CHANNEL); f.link = int(S_LINK); f.size = num(S_SIZE);
  f.status = str(b, S_STATUS, decode); f.phase = attr(b, S_PHASE, decode); f.layer = attr(b, S_LAYER, decode);
  f.block = attr(b, S_BLOCK, decode); f.tenant = attr(b, S_TENANT, decode); f.model = attr(b, S_MODEL, decode);
  f.cmdType = str(b, S_CMD_TYPE, decode); f.jobType = str(b, S_JOB_TYPE, decode); f.opType = str(b, S_OP_TYPE, decode);
  f.direction = str(b, S_DIR, decode); f.component = str(b, S_COMPONENT, decode); f.code = str(b, S_CODE, decode);
  return idOk;
}

/**
 * The `bank_id` of the line `flatEventOfBytes` last read, as the metrics take it from the parsed
 * line (`fieldsOfFlat`: a non-negative integer, else undefined), so the timeline builder feeds
 * them from the same read (`NpuTimelineBuilder.addLineBytes`).
 */
export function scannedBankId(): number | undefined {
  return int(S_BANK);
}

/**
 * The slots and readers below for a caller that writes a line's fields where it keeps them, with no
 * `EventFields` between (the parallel stats' rows, eventRows.ts): `lineCode` reads the line, then
 * the slot readers give what `fill` gives `f`; `idsRead()` starts a line's ids, `idsOk()` says
 * whether each was safe (else the full parse must read the line, as when `fieldsOfBytes` says no).
 */
export const SLOTS = { T: S_T, NS: S_NS, CMD: S_CMD, JOB: S_JOB, TX: S_TX, NPU: S_NPU, CORE: S_CORE, CHANNEL: S_CHANNEL, LINK: S_LINK, SIZE: S_SIZE, DIR: S_DIR, PHASE: S_PHASE, LAYER: S_LAYER, BANK: S_BANK, CMD_TYPE: S_CMD_TYPE } as const;
/** Not a line the byte reader is sure of. */
export const NOT_READ = -100;
/** The line's type code (`fill`'s), or NOT_READ. */
export function lineCode(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string): number {
  return scan(b, s, e, decode) ? typeCode : NOT_READ;
}
export const idsRead = (): void => {
  idOk = true;
};
export const idsOk = (): boolean => idOk;
export { attr as slotAttr, id as slotId, int as slotInt, num as slotNum, str as slotStr };

/** Reads the line and finds its slots' fields; false when it is not one the byte reader is sure of. */
function scan(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string): boolean {
  if (!line.read(b, s, e, decode)) return false;
  const t = fieldAt(S_TYPE);
  typeCode = t < 0 || kindOf[t] !== STR ? T_NONE : tagOf[t] >= 0 ? CODE_OF_TAG[tagOf[t]] : T_OTHER;
  return true;
}

/** The field of slot `k`, if it holds a number (as JSON.parse reads it), else -1. */
function numberAt(k: number): number {
  const f = fieldAt(k);
  return f >= 0 && (kindOf[f] & (INT | NUM)) !== 0 ? f : -1;
}
function num(k: number): number | undefined {
  const f = numberAt(k);
  return f >= 0 && Number.isFinite(valueOf[f]) ? valueOf[f] : undefined;
}
function int(k: number): number | undefined {
  const f = numberAt(k);
  return f >= 0 && Number.isInteger(valueOf[f]) && valueOf[f] >= 0 ? valueOf[f] : undefined;
}

/** An id: an integer; false-y `ok` when it is one beyond 2^53 (its exact digits need the full parse). */
let idOk = true;
function id(k: number): Id | undefined {
  const f = numberAt(k);
  if (f < 0 || !Number.isInteger(valueOf[f])) return undefined;
  if (!Number.isSafeInteger(valueOf[f])) idOk = false;
  return valueOf[f];
}

// Most lines repeat the phase, layer or direction of the line before: no new string for them.
const lastText: string[] = new Array<string>(KEY_NAMES.length).fill('');

/** The string of slot `k` (its field `f`). */
function text(b: Uint8Array, k: number, f: number, decode: (b: Uint8Array, s: number, e: number) => string): string {
  const s = startOf[f] + 1;
  const e = endOf[f] - 1;
  const last = lastText[k];
  if (last.length === e - s) {
    let same = true;
    for (let j = 0; j < last.length; j++) {
      if (last.charCodeAt(j) !== b[s + j]) {
        same = false;
        break;
      }
    }
    if (same) return last;
  }
  return (lastText[k] = decode(b, s, e));
}

function str(b: Uint8Array, k: number, decode: (b: Uint8Array, s: number, e: number) => string): string | undefined {
  const f = fieldAt(k);
  return f >= 0 && kindOf[f] === STR ? text(b, k, f, decode) : undefined;
}

/** `attr` of the timeline: a string as it is, a number or boolean as String() writes it. */
function attr(b: Uint8Array, k: number, decode: (b: Uint8Array, s: number, e: number) => string): string | undefined {
  const f = fieldAt(k);
  if (f < 0) return undefined;
  switch (kindOf[f]) {
    case STR:
      return text(b, k, f, decode);
    case INT:
    case NUM:
      return String(valueOf[f]);
    case BOOL:
      return valueOf[f] ? 'true' : 'false';
    default:
      return undefined;
  }
}

/** Fills `f` as `fieldsOfObject` would from the parsed line; false for what the full parse must read. */
function fill(b: Uint8Array, f: EventFields, decode: (b: Uint8Array, s: number, e: number) => string): boolean {
  const type = typeCode;
  if (type === T_META) return false;
  f.type = type;
  f.t = num(S_T);
  if (type === T_NONE || f.t === undefined) return true;
  f.tNs = num(S_NS) ?? NaN;
  if (type === T_OTHER) return true;
  if (type === T_SRAM_ACCESS || type === T_SRAM_CONFLICT) {
    f.bank = int(S_BANK);
    return true;
  }
  idOk = true;
  f.cmd = id(S_CMD);
  if (type === T_ENQUEUE) {
    f.npu = int(S_NPU);
    f.core = int(S_CORE);
    f.phase = attr(b, S_PHASE, decode);
    f.layer = attr(b, S_LAYER, decode);
    f.cmdType = str(b, S_CMD_TYPE, decode);
    return idOk;
  }
  const kind = type & 7;
  if (PAIR_KEY[kind] === 'job') f.job = id(S_JOB);
  else if (PAIR_KEY[kind] === 'tx') f.tx = id(S_TX);
  f.size = num(S_SIZE);
  if (type >= END) return idOk;
  f.npu = int(S_NPU);
  f.core = int(S_CORE);
  f.channel = int(kind === K_NOC ? S_LINK : S_CHANNEL);
  f.direction = kind === K_DMA ? str(b, S_DIR, decode) : undefined;
  if (kind === K_CMD) {
    f.phase = attr(b, S_PHASE, decode);
    f.layer = attr(b, S_LAYER, decode);
    f.cmdType = str(b, S_CMD_TYPE, decode);
  }
  return idOk;
}
