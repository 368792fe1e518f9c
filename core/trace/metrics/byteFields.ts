import type { Id } from '../line';
import type { FlatEvent } from '../flatEvent';
import { byteTrie } from '../../json/byteTrie';
import { skipNested } from '../fastNested';
import { END, type EventFields, K_CMD, K_DMA, K_NOC, PAIR_KEY, T_ENQUEUE, T_META, T_NONE, T_OTHER, T_SRAM_ACCESS, T_SRAM_CONFLICT, TYPE_CODES } from './eventFields';

// The keys the metrics and the timeline (flatEventOfBytes) read, by slot. Every other key is checked as JSON and skipped.
const KEYS = ['event_type', 't_cycle', 't_ns', 'cmd_id', 'job_id', 'tx_id', 'npu_id', 'core_id', 'channel', 'link_id', 'size_bytes', 'direction', 'phase', 'layer_id', 'bank_id',
  'status', 'block_id', 'tenant_id', 'model_name', 'cmd_type', 'job_type', 'op_type', 'component', 'code'];
const S_TYPE = 0, S_T = 1, S_NS = 2, S_CMD = 3, S_JOB = 4, S_TX = 5, S_NPU = 6, S_CORE = 7, S_CHANNEL = 8, S_LINK = 9, S_SIZE = 10, S_DIR = 11, S_PHASE = 12, S_LAYER = 13, S_BANK = 14;
const S_STATUS = 15, S_BLOCK = 16, S_TENANT = 17, S_MODEL = 18, S_CMD_TYPE = 19, S_JOB_TYPE = 20, S_OP_TYPE = 21, S_COMPONENT = 22, S_CODE = 23;
const SLOTS = KEYS.length;

/** Value kinds of a slot; 0: the key is absent. */
const ABSENT = 0, STRING = 1, NUMBER = 2, TRUE = 3, FALSE = 4, OTHER = 5;

// The same tries as the checker's scanner (json/byteTrie.ts): a key or event type is known at its closing quote.
const KEY_TRIE = byteTrie(KEYS);
const TYPE_TRIE = byteTrie(TYPE_CODES.map(([name]) => name), TYPE_CODES.map(([, code]) => code));
/** The event type name of each code, so a known type is never decoded from the bytes again. */
const TYPE_NAME: string[] = [];
for (const [name, code] of TYPE_CODES) TYPE_NAME[code] = name;

// Scratch space reused across lines.
const kindOf = new Uint8Array(SLOTS);
const startOf = new Int32Array(SLOTS);
const endOf = new Int32Array(SLOTS);
const valueOf = new Float64Array(SLOTS);
let typeCode = T_NONE;

const isDigit = (c: number) => c >= 48 && c <= 57;
/** 1 for the bytes that end a plain ASCII string or make it one the byte reader leaves to JSON.parse: '"', '\\', controls, non-ASCII. */
const STOP = new Uint8Array(256).map((_, c) => (c === 34 || c === 92 || c < 32 || c > 126 ? 1 : 0));
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

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

/** Walks one flat object, recording the slots' values; false when the line is not one the byte reader is sure of. */
function scan(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string): boolean {
  kindOf.fill(ABSENT);
  typeCode = T_NONE;
  let i = s;
  while (i < e && (b[i] === 32 || b[i] === 9)) i++;
  if (b[i] !== 123 || i >= e) return false;
  i++;
  const kCls = KEY_TRIE.cls, kWidth = KEY_TRIE.width, kNext = KEY_TRIE.next, kAccept = KEY_TRIE.accept;
  for (;;) {
    while (b[i] === 32 || b[i] === 9) i++;
    if (b[i] !== 34) return false;
    i++;
    let st = 1;
    while (i < e) {
      const c = b[i];
      if (STOP[c] !== 0) break;
      if (st !== 0) st = kNext[st * kWidth + kCls[c]];
      i++;
    }
    if (i >= e || b[i] !== 34) return false;
    const slot = kAccept[st] - 1;
    i++;
    while (b[i] === 32 || b[i] === 9) i++;
    if (b[i] !== 58) return false;
    i++;
    while (b[i] === 32 || b[i] === 9) i++;
    i = value(b, i, e, slot, decode);
    if (i < 0) return false;
    while (b[i] === 32 || b[i] === 9) i++;
    const sep = b[i++];
    if (sep === 44) continue;
    if (sep === 125) break;
    return false;
  }
  while (i < e && (b[i] === 32 || b[i] === 9)) i++;
  return i === e;
}

/** After the value at `i`, recorded in `slot` when that is one the metrics read; -1 when unsure. */
function value(b: Uint8Array, i: number, e: number, slot: number, decode: (b: Uint8Array, s: number, e: number) => string): number {
  const c = b[i];
  const start = i;
  let kind: number;
  if (c === 34) {
    i++;
    // Only an event_type value walks the type trie.
    let ts = 0;
    if (slot === S_TYPE) {
      ts = 1;
      const tCls = TYPE_TRIE.cls, tWidth = TYPE_TRIE.width, tNext = TYPE_TRIE.next;
      while (i < e && STOP[b[i]] === 0) {
        if (ts !== 0) ts = tNext[ts * tWidth + tCls[b[i]]];
        i++;
      }
    } else while (i < e && STOP[b[i]] === 0) i++;
    if (i >= e || b[i] !== 34) return -1;
    i++;
    if (slot === S_TYPE) typeCode = TYPE_TRIE.accept[ts] ? TYPE_TRIE.accept[ts] - 1 : T_OTHER;
    kind = STRING;
  } else if (c === 45 || isDigit(c)) {
    const neg = c === 45;
    if (neg) i++;
    const ds = i;
    let m = 0;
    let digits = 0;
    let frac = 0;
    if (b[i] === 48) {
      i++;
      digits = 1;
    } else {
      while (isDigit(b[i])) {
        m = m * 10 + b[i++] - 48;
        digits++;
      }
    }
    if (i === ds) return -1;
    let exact = true;
    if (b[i] === 46) {
      i++;
      if (!isDigit(b[i])) return -1;
      while (isDigit(b[i])) {
        m = m * 10 + b[i++] - 48;
        digits++;
        frac++;
      }
    }
    if (b[i] === 101 || b[i] === 69) {
      i++;
      if (b[i] === 43 || b[i] === 45) i++;
      if (!isDigit(b[i])) return -1;
      while (isDigit(b[i])) i++;
      exact = false;
    }
    if (slot >= 0) {
      // Up to 15 digits the mantissa is exact, and one division by an exact power of ten rounds
      // correctly, as JSON.parse does; anything else is read by Number() from its text.
      const v = exact && digits <= 15 ? (frac ? m / POW10[frac] : m) : Number(decode(b, ds, i));
      valueOf[slot] = neg ? -v : v;
    }
    kind = NUMBER;
  } else if (c === 116 && b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101) {
    i += 4;
    kind = TRUE;
  } else if (c === 102 && b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101) {
    i += 5;
    kind = FALSE;
  } else if (c === 110 && b[i + 1] === 117 && b[i + 2] === 108 && b[i + 3] === 108) {
    i += 4;
    kind = OTHER;
  } else if (c === 123 || c === 91) {
    i = skipNested(b, i, e);
    if (i < 0) return -1;
    kind = OTHER;
  } else return -1;
  if (slot >= 0) {
    // The last of duplicate keys wins, as with JSON.parse.
    kindOf[slot] = kind;
    startOf[slot] = start;
    endOf[slot] = i;
    if (slot === S_TYPE && kind !== STRING) typeCode = T_NONE;
  }
  return i;
}

const num = (k: number) => (kindOf[k] === NUMBER && Number.isFinite(valueOf[k]) ? valueOf[k] : undefined);
const int = (k: number) => (kindOf[k] === NUMBER && Number.isInteger(valueOf[k]) && valueOf[k] >= 0 ? valueOf[k] : undefined);

/** An id: an integer; false-y `ok` when it is one beyond 2^53 (its exact digits need the full parse). */
let idOk = true;
function id(k: number): Id | undefined {
  if (kindOf[k] !== NUMBER || !Number.isInteger(valueOf[k])) return undefined;
  if (!Number.isSafeInteger(valueOf[k])) idOk = false;
  return valueOf[k];
}

// Most lines repeat the phase, layer or direction of the line before: no new string for them.
const lastText: string[] = new Array<string>(SLOTS).fill('');

function text(b: Uint8Array, k: number, decode: (b: Uint8Array, s: number, e: number) => string): string {
  const s = startOf[k] + 1;
  const e = endOf[k] - 1;
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

const str = (b: Uint8Array, k: number, decode: (b: Uint8Array, s: number, e: number) => string) => (kindOf[k] === STRING ? text(b, k, decode) : undefined);

/** `attr` of the timeline: a string as it is, a number or boolean as String() writes it. */
function attr(b: Uint8Array, k: number, decode: (b: Uint8Array, s: number, e: number) => string): string | undefined {
  switch (kindOf[k]) {
    case STRING:
      return text(b, k, decode);
    case NUMBER:
      return String(valueOf[k]);
    case TRUE:
      return 'true';
    case FALSE:
      return 'false';
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
  f.tNs = kindOf[S_NS] === NUMBER && Number.isFinite(valueOf[S_NS]) ? valueOf[S_NS] : NaN;
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
