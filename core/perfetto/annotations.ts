import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { DEBUG_ANNOTATION, NESTED_VALUE } from './fields';

// TrackEvent `debug_annotations` (protos/perfetto/trace/track_event/debug_annotation.proto in
// google/perfetto): decoded as a tree whose interned parts (`name_iid`, `string_value_iid`) stay
// ids, resolved by the reader against the interned data of the event's sequence, then written as
// the event's arguments: one JSON object, made by JSON.stringify. A file can grow every part of it,
// so decoding is bounded by a budget per event (entries, depth, characters); what is left out is
// said in the value itself, and `capped` tells the reader to report it.

/** Dicts and arrays nested deeper than this are not read (a hostile file may nest 100 deep). */
export const MAX_ARG_DEPTH = 16;
/** Annotations, dict entries and array values read per event, all levels together. */
export const MAX_ARG_ENTRIES = 10_000;
/** Characters of string values (names included) kept per event; one string keeps at most MAX_ARG_STRING. */
export const MAX_ARG_CHARS = 256 * 1024;
export const MAX_ARG_STRING = 16 * 1024;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A value of an annotation: JSON already, an interned string's id, or entries to resolve. */
export type AnnValue =
  | { t: 'json'; v: Json }
  | { t: 'iid'; iid: number }
  | { t: 'dict'; entries: Annotation[]; more: number }
  | { t: 'array'; items: Annotation[]; more: number };

export interface Annotation {
  name: string | undefined;
  nameIid: number | undefined;
  value: AnnValue | undefined;
}

/** What decoding one event's annotations may still use, and whether anything was left out. */
export class ArgBudget {
  entries = MAX_ARG_ENTRIES;
  chars = MAX_ARG_CHARS;
  capped = false;

  /** One more entry, or false (and capped) when the event has had its share. */
  entry(): boolean {
    if (this.entries > 0) {
      this.entries--;
      return true;
    }
    this.capped = true;
    return false;
  }

  /** The string as kept: cut at the per-string and per-event limits, the cut said at its end. */
  text(s: string): string {
    const keep = Math.min(s.length, MAX_ARG_STRING, this.chars);
    this.chars -= keep;
    if (keep === s.length) return s;
    this.capped = true;
    return `${s.slice(0, keep)}… (${s.length - keep} more characters not kept)`;
  }
}

const DEEPER = `… (nested deeper than ${MAX_ARG_DEPTH} levels: not read)`;
const deeper = (): AnnValue => ({ t: 'json', v: DEEPER });

/** An integer value exact: a number when it is one, else its decimal digits as a string. */
function exact(x: bigint | string): Json {
  const b = BigInt(x);
  return b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(b) : b.toString();
}

/** A double as JSON: NaN and the infinities, which JSON has no number for, as their names. */
function double(x: number): Json {
  return Number.isFinite(x) ? x : String(x);
}

/** How deep a parsed JSON value nests (iteratively: a legacy value may nest thousands deep). */
function depthOf(v: Json): number {
  let max = 0;
  const stack: [Json, number][] = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > MAX_ARG_DEPTH) return max;
    for (const y of Array.isArray(x) ? x : Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

/**
 * `legacy_json_value` (what old instrumentation writes: a JSON text): the parsed value when it is
 * JSON and nests no deeper than the limit, else the text as a string.
 */
function legacyJson(s: string, b: ArgBudget, depth: number): Json {
  const t = b.text(s);
  if (t.length === s.length) {
    try {
      const v = JSON.parse(t) as Json;
      if (depth + depthOf(v) <= MAX_ARG_DEPTH) return v;
    } catch {
      // Not JSON: kept as the text it is.
    }
  }
  return t;
}

/** One `DebugAnnotation` message. Throws on bytes that are no message (the packet is reported). */
export function decodeAnnotation(bytes: Uint8Array, depth: number, b: ArgBudget): Annotation {
  const a: Annotation = { name: undefined, nameIid: undefined, value: undefined };
  const r = new BinaryReader(bytes);
  let dict: Annotation[] | undefined, array: Annotation[] | undefined;
  let more = 0, tooDeep = false;
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (w === WireType.Varint) {
      switch (f) {
        case DEBUG_ANNOTATION.nameIid: a.nameIid = Number(r.uint64()); continue;
        case DEBUG_ANNOTATION.bool: a.value = { t: 'json', v: r.bool() }; continue;
        case DEBUG_ANNOTATION.uint: a.value = { t: 'json', v: exact(r.uint64()) }; continue;
        case DEBUG_ANNOTATION.int: a.value = { t: 'json', v: exact(r.int64()) }; continue;
        // A pointer as Perfetto's JSON export writes one: hex text.
        case DEBUG_ANNOTATION.pointer: a.value = { t: 'json', v: `0x${BigInt(r.uint64()).toString(16)}` }; continue;
        case DEBUG_ANNOTATION.stringIid: a.value = { t: 'iid', iid: Number(r.uint64()) }; continue;
      }
    } else if (w === WireType.Bit64 && f === DEBUG_ANNOTATION.double) {
      a.value = { t: 'json', v: double(r.double()) };
      continue;
    } else if (w === WireType.LengthDelimited) {
      switch (f) {
        case DEBUG_ANNOTATION.name: a.name = b.text(r.string()); continue;
        case DEBUG_ANNOTATION.string: a.value = { t: 'json', v: b.text(r.string()) }; continue;
        case DEBUG_ANNOTATION.legacyJson: a.value = { t: 'json', v: legacyJson(r.string(), b, depth) }; continue;
        case DEBUG_ANNOTATION.nested: {
          const sub = r.bytes();
          a.value = depth >= MAX_ARG_DEPTH ? (b.capped = true, deeper()) : { t: 'json', v: nestedValue(sub, depth + 1, b) };
          continue;
        }
        case DEBUG_ANNOTATION.protoValue: a.value = { t: 'json', v: `<proto message: ${r.bytes().length} bytes, not read>` }; continue;
        case DEBUG_ANNOTATION.dictEntries: case DEBUG_ANNOTATION.arrayValues: {
          const sub = r.bytes();
          if (depth >= MAX_ARG_DEPTH) {
            // Its entries would nest past the limit: the value is said instead of read.
            b.capped = tooDeep = true;
            continue;
          }
          const list = f === DEBUG_ANNOTATION.dictEntries ? (dict ??= []) : (array ??= []);
          if (!b.entry()) {
            more++;
            continue;
          }
          list.push(decodeAnnotation(sub, depth + 1, b));
          continue;
        }
      }
    }
    r.skip(w, f);
  }
  // The writer sets one of the `value` oneof; entries, when there are any, are the value.
  if (tooDeep) a.value = deeper();
  else if (dict) a.value = { t: 'dict', entries: dict, more };
  else if (array) a.value = { t: 'array', items: array, more };
  return a;
}

/** `NestedValue` (the older form of nested arguments, Chrome's `TracedValue` of 2019–2021): JSON directly. */
function nestedValue(bytes: Uint8Array, depth: number, b: ArgBudget): Json {
  const r = new BinaryReader(bytes);
  let type = 0;
  const keys: string[] = [], dictValues: Json[] = [], arrayValues: Json[] = [];
  let leaf: Json = null;
  let more = 0;
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (w === WireType.Varint) {
      switch (f) {
        case NESTED_VALUE.nestedType: type = r.int32(); continue;
        case NESTED_VALUE.int: leaf = exact(r.int64()); continue;
        case NESTED_VALUE.bool: leaf = r.bool(); continue;
      }
    } else if (w === WireType.Bit64 && f === NESTED_VALUE.double) {
      leaf = double(r.double());
      continue;
    } else if (w === WireType.LengthDelimited) {
      switch (f) {
        case NESTED_VALUE.string: leaf = b.text(r.string()); continue;
        case NESTED_VALUE.dictKeys: if (keys.length < MAX_ARG_ENTRIES) keys.push(b.text(r.string())); else r.skip(w, f); continue;
        case NESTED_VALUE.dictValues: case NESTED_VALUE.arrayValues: {
          const sub = r.bytes();
          if (!b.entry()) {
            more++;
            continue;
          }
          const v = depth >= MAX_ARG_DEPTH ? (b.capped = true, DEEPER) : nestedValue(sub, depth + 1, b);
          (f === NESTED_VALUE.dictValues ? dictValues : arrayValues).push(v);
          continue;
        }
      }
    }
    r.skip(w, f);
  }
  if (type === NESTED_VALUE.DICT) {
    const o: { [k: string]: Json } = Object.create(null) as { [k: string]: Json };
    dictValues.forEach((v, k) => put(o, keys[k] ?? `#${k}`, v));
    if (more) put(o, '…', `${more} more entries not read`);
    return o;
  }
  if (type === NESTED_VALUE.ARRAY) {
    if (more) arrayValues.push(`… ${more} more values not read`);
    return arrayValues;
  }
  return leaf;
}

/**
 * Sets `o[key]`, a key the object already has getting ` (2)`, ` (3)`… (an event may repeat a name;
 * JSON keeps one value per key). `o` has no prototype, so `__proto__` is a key like any other.
 */
export function put(o: { [k: string]: Json }, key: string, v: Json): void {
  let k = key;
  for (let n = 2; k in o; n++) k = `${key} (${n})`;
  o[k] = v;
}

/** Names and strings of an annotation tree, resolved by the reader (interned ids → text). */
export interface ArgResolver {
  name(iid: number): string;
  string(iid: number): string;
}

/** An annotation's value as JSON, interned parts resolved. */
function resolveValue(v: AnnValue | undefined, res: ArgResolver): Json {
  if (!v) return null;
  switch (v.t) {
    case 'json': return v.v;
    case 'iid': return res.string(v.iid);
    case 'array': {
      const out = v.items.map((x) => resolveValue(x.value, res));
      if (v.more) out.push(`… ${v.more} more values not read`);
      return out;
    }
    case 'dict': {
      const o: { [k: string]: Json } = Object.create(null) as { [k: string]: Json };
      for (const x of v.entries) put(o, keyOf(x, res), resolveValue(x.value, res));
      if (v.more) put(o, '…', `${v.more} more entries not read`);
      return o;
    }
  }
}

function keyOf(a: Annotation, res: ArgResolver): string {
  return a.name ?? (a.nameIid !== undefined ? res.name(a.nameIid) : '?');
}

/** An event's annotations as its arguments: one JSON object (text), `more` annotations left out said under `…`. */
export function argsJson(list: readonly Annotation[], more: number, res: ArgResolver): string {
  const o: { [k: string]: Json } = Object.create(null) as { [k: string]: Json };
  for (const a of list) put(o, keyOf(a, res), resolveValue(a.value, res));
  if (more) put(o, '…', `${more} more annotations not read`);
  return JSON.stringify(o);
}
