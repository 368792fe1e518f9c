import { INT, K_CMD, KEY_NAMES, K_EVENT_TYPE, K_JOB, K_LATENCY, K_T_CYCLE, K_TX, LIST, NESTED, NUM, STR, TYPE_RULES, type TypeRules } from './fastRules';
import { sameBytes } from '../json/byteTrie';
import { LINE_READER } from './lineReader';
import type { Id, LocalDiagnostic, TraceLine } from './line';

/** Every field of a line, read by the one NPU trace line reader; an event type's index in TYPE_RULES is its tag. */
const line = LINE_READER;
const { key: keyOf, kind: kindOf, start: vStart, end: vEnd, num: numOf, neg: negOf, big: bigOf, tag: typeIdxOf } = line;
/**
 * The rules of `certify` flat, by type index × key id (one typed-array load per field instead of a
 * rule object's properties): the allowed kinds' bits, `R_RULE` when the type has a rule for the key
 * (none for `event_type`, read by the reader), and the rule's flags; its required bit apart.
 */
const KEYS = KEY_NAMES.length;
const R_RULE = 1 << 8, R_UNSUPPORTED = 1 << 9, R_NON_NEGATIVE = 1 << 10, R_ENUM = 1 << 11;
const RULE_BITS = new Int32Array(TYPE_RULES.length * KEYS);
const RULE_REQUIRED = new Int32Array(TYPE_RULES.length * KEYS);
TYPE_RULES.forEach((tr, ti) => tr.rules.forEach((r, key) => {
  if (!r || key === K_EVENT_TYPE) return;
  RULE_BITS[ti * KEYS + key] = r.kinds | R_RULE | (r.unsupported ? R_UNSUPPORTED : 0) | (r.nonNegative ? R_NON_NEGATIVE : 0) | (r.enumValues ? R_ENUM : 0);
  RULE_REQUIRED[ti * KEYS + key] = r.requiredBit;
}));

/**
 * A line certified by the byte scanner; its text is decoded only if a diagnostic needs it. A million
 * of these are made per 200 MB, so each is small: the constant fields live on the prototype, and
 * each value range is one small integer (`range`), not a double, which would be a heap number of
 * its own.
 */
export class ByteLine implements TraceLine {
  declare readonly event: true;
  declare readonly obj: undefined;
  declare readonly local: LocalDiagnostic[] | undefined;
  private decoded: string | undefined = undefined;
  constructor(
    private bytes: Uint8Array, private s: number, private e: number,
    private decode: (b: Uint8Array, s: number, e: number) => string,
    public type: string, public t: number | undefined, public cmd: Id | undefined, public job: Id | undefined,
    public tx: Id | undefined, public latency: number | undefined,
    /** `t_cycle`'s range, packed as `range` packs it (`unpackRange`). */
    public rT: number, private rCmd: number, private rJob: number,
    private rTx: number, private rLat: number,
  ) {}
  /** This object made the line given (a reader that keeps no line between two reuses one object). */
  reuse(
    bytes: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string,
    type: string, t: number | undefined, cmd: Id | undefined, job: Id | undefined, tx: Id | undefined, latency: number | undefined,
    rT: number, rCmd: number, rJob: number, rTx: number, rLat: number,
  ): this {
    this.bytes = bytes;
    this.s = s;
    this.e = e;
    this.decode = decode;
    this.decoded = undefined;
    this.type = type;
    this.t = t;
    this.cmd = cmd;
    this.job = job;
    this.tx = tx;
    this.latency = latency;
    this.rT = rT;
    this.rCmd = rCmd;
    this.rJob = rJob;
    this.rTx = rTx;
    this.rLat = rLat;
    return this;
  }
  rangeOf(key: string): [number, number] | undefined {
    return unpackRange(this.packedRange(key));
  }
  /** The range of `key`'s value packed (`range`; -1: none), for a caller that keeps it without an array. */
  packedRange(key: string): number {
    return key === 't_cycle' ? this.rT : key === 'cmd_id' ? this.rCmd : key === 'job_id' ? this.rJob : key === 'tx_id' ? this.rTx : key === 'latency_cycles' ? this.rLat : -1;
  }
  get text(): string {
    return (this.decoded ??= this.decode(this.bytes, this.s, this.e));
  }
}
Object.defineProperties(ByteLine.prototype, { event: { value: true }, obj: { value: undefined }, local: { value: undefined } });
// The fields that hold a number or nothing (or an id's digits) take any value from the start: first
// holding undefined, then a number, they changed representation after the scanner's callers were
// optimized, which threw that code away (each thread compiled `certify` and the reader twice more).
new ByteLine(new Uint8Array(0), 0, 0, () => '', '', undefined, undefined, undefined, undefined, undefined, -1, -1, -1, -1, -1)
  .reuse(new Uint8Array(0), 0, 0, () => '', '', 0, 0, 0, 0, 0, -1, -1, -1, -1, -1);

/** An id as parseTraceLine keeps it: the number when it is safe, else its exact digits. */
function idValue(k: number, v: number | undefined, b: Uint8Array, decode: (b: Uint8Array, s: number, e: number) => string): Id | undefined {
  if (v === undefined || !bigOf[k] || Number.isSafeInteger(v)) return v;
  return decode(b, vStart[k], vEnd[k]);
}

/** A cycle count as parseTraceLine keeps it: past 2^53 it has no exact value, so no check uses it. */
const cycles = (v: number | undefined) => (v !== undefined && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? v : undefined);

/** Longer lines take the full parse. */
const MAX_FAST_LINE = 2 ** 26;
const SHORT = 2 ** 16, LONG = 2 ** 26;
/**
 * A value's range on its line as one number: `start * 2^16 + length`, a small integer, when the
 * value starts in the first 32 KB and is shorter than 64 KB (nearly always); else
 * `-(start * 2^26 + end) - 2`. -1: no value.
 */
function range(start: number, end: number): number {
  return start < SHORT / 2 && end - start < SHORT ? start * SHORT + (end - start) : -(start * LONG + end) - 2;
}

/** The start of a range `range` packed (not -1). */
export const packedStart = (r: number): number => (r >= 0 ? Math.floor(r / SHORT) : Math.floor((-r - 2) / LONG));
/** The end of a range `range` packed (not -1). */
export const packedEnd = (r: number): number => (r >= 0 ? Math.floor(r / SHORT) + (r % SHORT) : (-r - 2) % LONG);

/** The range `range` packed, undefined for -1. */
export function unpackRange(r: number): [number, number] | undefined {
  return r === -1 ? undefined : [packedStart(r), packedEnd(r)];
}

/** By key id: 1 for the keys the checks read (the others are only validated). */
const READ = new Uint8Array(KEYS);
for (const k of [K_T_CYCLE, K_LATENCY, K_CMD, K_JOB, K_TX]) READ[k] = 1;

/**
 * Certifies a flat, valid event line straight from its UTF-8 bytes, for streaming huge files.
 * Returns undefined whenever it is not sure — escapes, non-ASCII or control bytes, nested values where a rule applies,
 * anything the schema rejects, ERROR/WARN events (they always report) — and the caller then parses
 * the line fully (JSON.parse + ajv), which produces every diagnostic. It never decides a problem.
 * With `into`, that object is returned, made this line: for a caller that keeps no line (a million
 * line objects per 200 MB are most of the streamed check's garbage).
 */
export function fastTraceBytes(b: Uint8Array, s: number, e: number, decode: (b: Uint8Array, s: number, e: number) => string, into?: ByteLine): TraceLine | undefined {
  if (e - s >= MAX_FAST_LINE || !line.read(b, s, e, decode)) return undefined;
  return certify(b, s, e, line.n, decode, into);
}

/**
 * Whether the nested value `[s, e)` (JSON already, `skipNested` read it) is an array of plain
 * strings each one of `values`, as a LIST rule wants; escapes and the like give false (full parse).
 */
function enumList(b: Uint8Array, s: number, e: number, values: readonly Uint8Array[]): boolean {
  if (b[s] !== 91) return false;
  let i = s + 1;
  while (b[i] === 32 || b[i] === 9) i++;
  if (b[i] === 93) return i + 1 === e;
  for (;;) {
    if (b[i] !== 34) return false;
    const from = ++i;
    for (; i < e && b[i] !== 34; i++) if (b[i] === 92 || b[i] < 32 || b[i] > 126) return false;
    if (i >= e) return false;
    let ok = false;
    for (const v of values) if (sameBytes(b, from, i, v)) {
      ok = true;
      break;
    }
    if (!ok) return false;
    i++;
    while (b[i] === 32 || b[i] === 9) i++;
    if (b[i] === 93) return i + 1 === e;
    if (b[i] !== 44) return false;
    i++;
    while (b[i] === 32 || b[i] === 9) i++;
  }
}

function certify(b: Uint8Array, s: number, e: number, n: number, decode: (b: Uint8Array, s: number, e: number) => string, into: ByteLine | undefined): TraceLine | undefined {
  // The last event_type, as JSON.parse keeps it (the reader knows which field that is).
  const et = line.fieldOf(K_EVENT_TYPE);
  if (et < 0 || kindOf[et] !== STR) return undefined;
  const ti = typeIdxOf[et];
  const tr: TypeRules | undefined = ti >= 0 ? TYPE_RULES[ti] : undefined;
  if (!tr || tr.name === 'ERROR' || tr.name === 'WARN') return undefined;
  let seen = 0;
  let t: number | undefined, cmd: Id | undefined, job: Id | undefined, tx: Id | undefined, latency: number | undefined;
  let rT = -1, rCmd = -1, rJob = -1, rTx = -1, rLat = -1;
  const base = tr.index * KEYS;
  for (let k = 0; k < n; k++) {
    const key = keyOf[k];
    if (key < 0) continue;
    const kind = kindOf[k];
    const bits = RULE_BITS[base + key];
    if ((bits & LIST) !== 0) {
      if (kind !== NESTED || !enumList(b, vStart[k], vEnd[k], tr.rules[key]!.enumValues!)) return undefined;
      seen |= RULE_REQUIRED[base + key];
    } else if (bits !== 0) {
      if ((bits & kind) === 0 || (bits & R_UNSUPPORTED) !== 0) return undefined;
      if ((bits & R_NON_NEGATIVE) !== 0 && negOf[k] && (kind === INT || kind === NUM)) return undefined;
      if ((bits & R_ENUM) !== 0) {
        if (kind !== STR) return undefined;
        let ok = false;
        for (const v of tr.rules[key]!.enumValues!) if (sameBytes(b, vStart[k] + 1, vEnd[k] - 1, v)) {
          ok = true;
          break;
        }
        if (!ok) return undefined;
      }
      seen |= RULE_REQUIRED[base + key];
    }
    if (READ[key] === 0) continue;
    // A fraction or exponent on a field the checks read (1e+21 is an integer to JSON.parse): not sure.
    if (kind === NUM) return undefined;
    // The last duplicate wins, as with JSON.parse; values are what parseTraceLine would keep.
    const v = kind === INT ? numOf[k] : undefined;
    if (key === K_T_CYCLE) {
      t = cycles(v);
      rT = range(vStart[k] - s, vEnd[k] - s);
    } else if (key === K_LATENCY) {
      latency = cycles(v);
      rLat = range(vStart[k] - s, vEnd[k] - s);
    } else if (key === K_CMD) {
      cmd = idValue(k, v, b, decode);
      rCmd = range(vStart[k] - s, vEnd[k] - s);
    } else if (key === K_JOB) {
      job = idValue(k, v, b, decode);
      rJob = range(vStart[k] - s, vEnd[k] - s);
    } else if (key === K_TX) {
      tx = idValue(k, v, b, decode);
      rTx = range(vStart[k] - s, vEnd[k] - s);
    }
  }
  if ((seen & tr.requiredMask) !== tr.requiredMask) return undefined;
  if (into) return into.reuse(b, s, e, decode, tr.name, t, cmd, job, tx, latency, rT, rCmd, rJob, rTx, rLat);
  return new ByteLine(b, s, e, decode, tr.name, t, cmd, job, tx, latency, rT, rCmd, rJob, rTx, rLat);
}
