import { BinaryReader, getTextEncoding, WireType } from '@bufbuild/protobuf/wire';
import { escapeControl } from '../common/escape';
import { PacketSplitter } from './frame';

// The details pane of a protobuf trace: a binary file has no line to show, so a clicked item's
// packet (found by the byte offset its model keeps) is decoded field by field, with the names of
// the fields this reader models (Perfetto's protos/perfetto/trace/*.proto, google/perfetto) and
// `#<number>` for the others. Everything is bounded: rows, depth, string and byte lengths.

/** Rows of one packet's details: a packet of a million ftrace events shows its first rows. */
export const MAX_DETAIL_ROWS = 200;
/** Characters of a string value; bytes of a byte value (as hex). */
export const MAX_DETAIL_CHARS = 500;
const MAX_HEX_BYTES = 32;
/** Nested messages deeper than this are shown as `{…}` (a hostile file may nest 100 deep). */
const MAX_DETAIL_DEPTH = 12;

type Kind = 'u' | 'i32' | 'i64' | 'bool' | 'f64' | 'fx64' | 'str' | 'bytes' | 'type' | 'hex';
/** A field: its name and either a value kind or the schema of its message. */
type Field = readonly [string, Kind | Schema];
interface Schema { readonly [field: number]: Field }

const INTERNED: Schema = { 1: ['iid', 'u'], 2: ['name', 'str'] };
const DEBUG_ANNOTATION: Schema = {
  1: ['name_iid', 'u'], 2: ['bool_value', 'bool'], 3: ['uint_value', 'u'], 4: ['int_value', 'i64'], 5: ['double_value', 'f64'],
  6: ['string_value', 'str'], 7: ['pointer_value', 'hex'], 9: ['legacy_json_value', 'str'], 10: ['name', 'str'], 17: ['string_value_iid', 'u'],
};
// Dicts and arrays hold annotations again (depth-bounded like every message here).
(DEBUG_ANNOTATION as Record<number, Field>)[11] = ['dict_entries', DEBUG_ANNOTATION];
(DEBUG_ANNOTATION as Record<number, Field>)[12] = ['array_values', DEBUG_ANNOTATION];

/** The ftrace bundle: its repeated `event` field shows only the event a click is about (a bundle holds thousands). */
const BUNDLE_EVENT = 2;
const BUNDLE: Schema = { 1: ['cpu', 'u'], [BUNDLE_EVENT]: ['event', { 1: ['timestamp', 'u'], 2: ['pid', 'i32'], 3: ['print', { 1: ['ip', 'hex'], 2: ['buf', 'str'] }] }] };
const PACKET: Schema = {
  1: ['ftrace_events', BUNDLE],
  2: ['process_tree', {
    1: ['processes', { 1: ['pid', 'i32'], 2: ['ppid', 'i32'], 3: ['cmdline', 'str'] }],
    2: ['threads', { 1: ['tid', 'i32'], 2: ['name', 'str'], 3: ['tgid', 'i32'] }],
  }],
  6: ['clock_snapshot', { 1: ['clocks', { 1: ['clock_id', 'u'], 2: ['timestamp', 'u'], 3: ['is_incremental', 'bool'], 4: ['unit_multiplier_ns', 'u'] }], 2: ['primary_trace_clock', 'u'] }],
  8: ['timestamp', 'u'],
  10: ['trusted_packet_sequence_id', 'u'],
  11: ['track_event', {
    3: ['category_iids', 'u'], 4: ['debug_annotations', DEBUG_ANNOTATION], 9: ['type', 'type'], 10: ['name_iid', 'u'], 11: ['track_uuid', 'u'],
    22: ['categories', 'str'], 23: ['name', 'str'], 30: ['counter_value', 'i64'], 44: ['double_counter_value', 'f64'],
    47: ['flow_ids', 'fx64'], 48: ['terminating_flow_ids', 'fx64'],
  }],
  12: ['interned_data', { 1: ['event_categories', INTERNED], 2: ['event_names', INTERNED], 3: ['debug_annotation_names', INTERNED], 29: ['debug_annotation_string_values', { 1: ['iid', 'u'], 2: ['str', 'str'] }] }],
  13: ['sequence_flags', 'u'],
  41: ['incremental_state_cleared', 'bool'],
  42: ['previous_packet_dropped', 'bool'],
  50: ['compressed_packets', 'bytes'],
  58: ['timestamp_clock_id', 'u'],
  59: ['trace_packet_defaults', { 11: ['track_event_defaults', { 11: ['track_uuid', 'u'] }], 58: ['timestamp_clock_id', 'u'] }],
  60: ['track_descriptor', {
    1: ['uuid', 'u'], 2: ['name', 'str'], 5: ['parent_uuid', 'u'],
    3: ['process', { 1: ['pid', 'i32'], 2: ['cmdline', 'str'], 6: ['process_name', 'str'] }],
    4: ['thread', { 1: ['pid', 'i32'], 2: ['tid', 'i32'], 5: ['thread_name', 'str'] }],
    8: ['counter', { 6: ['unit_name', 'str'] }],
  }],
};
const EVENT_TYPES = ['TYPE_UNSPECIFIED', 'TYPE_SLICE_BEGIN', 'TYPE_SLICE_END', 'TYPE_INSTANT', 'TYPE_COUNTER'];
const UNKNOWN: Schema = {};

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);
/** A string from the file as the pane shows it: quoted as JSON, controls and bidi characters visible, cut. */
export const shownString = (s: string): string => escapeControl(JSON.stringify(cut(s, MAX_DETAIL_CHARS)));
const hex = (b: Uint8Array) => `<${b.length} bytes: ${Array.from(b.subarray(0, MAX_HEX_BYTES), (x) => x.toString(16).padStart(2, '0')).join(' ')}${b.length > MAX_HEX_BYTES ? ' …' : ''}>`;

const utf8 = getTextEncoding();
/** The bytes as text when they are UTF-8 (nothing decodes to U+FFFD) without control characters other than tab and line ends. */
function asText(b: Uint8Array): string | undefined {
  for (const c of b) if (c < 9 || (c > 13 && c < 32) || c === 127) return undefined;
  const t = utf8.decodeUtf8(b);
  return t.includes('\uFFFD') ? undefined : t;
}

/** Whether `b` reads as a run of protobuf fields to its end (an unknown length-delimited field that is a message). */
function isMessage(b: Uint8Array): boolean {
  if (!b.length) return false;
  try {
    const r = new BinaryReader(b);
    while (r.pos < r.len) {
      const [f, w] = r.tag();
      if (f === 0 || w === WireType.StartGroup || w === WireType.EndGroup) return false;
      r.skip(w, f);
    }
    return r.pos === r.len;
  } catch {
    return false;
  }
}

class Rows {
  readonly rows: [string, string][] = [];
  left = 0;
  push(k: string, v: string): boolean {
    if (this.rows.length >= MAX_DETAIL_ROWS) {
      this.left++;
      return false;
    }
    this.rows.push([k, v]);
    return true;
  }
}

function scalar(r: BinaryReader, w: WireType, kind: Kind): string | undefined {
  if (w === WireType.Varint) {
    switch (kind) {
      case 'i32': return String(r.int32());
      case 'i64': return String(r.int64());
      case 'bool': return String(r.bool());
      case 'hex': return `0x${BigInt(r.uint64()).toString(16)}`;
      case 'type': {
        const t = r.int32();
        return EVENT_TYPES[t] ?? String(t);
      }
      default: return String(r.uint64());
    }
  }
  if (w === WireType.Bit64) return kind === 'f64' ? String(r.double()) : String(r.fixed64());
  if (w === WireType.Bit32) return String(r.fixed32());
  return undefined;
}

/**
 * The fields of message `b` (at byte `base` of the file) as rows `prefix.name`. A repeated ftrace
 * event shows only the one holding `target` (or the first when none does).
 */
function walk(b: Uint8Array, base: number, schema: Schema, prefix: string, depth: number, target: number, out: Rows): void {
  const r = new BinaryReader(b);
  const counts = new Map<number, number>();
  // Pass over the bundle's events first: which one holds the target.
  let pick = -1, events = 0;
  if (schema === BUNDLE) {
    const s = new BinaryReader(b);
    while (s.pos < s.len) {
      const [f, w] = s.tag();
      if (f === BUNDLE_EVENT && w === WireType.LengthDelimited) {
        const e = s.bytes();
        if (pick < 0 && target >= base + s.pos - e.length && target < base + s.pos) pick = events;
        events++;
      } else s.skip(w, f);
    }
    if (pick < 0) pick = 0;
    if (events > 1) out.push(`${prefix}event`, `${events} events; the one ${target >= base && target < base + b.length ? `at byte ${target}` : 'first'} is shown`);
  }
  let eventNo = 0;
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    const field = schema[f];
    const name = field ? field[0] : `#${f}`;
    const n = counts.get(f) ?? 0;
    counts.set(f, n + 1);
    const key = `${prefix}${name}${n ? `[${n}]` : ''}`;
    if (w === WireType.LengthDelimited) {
      const sub = r.bytes();
      const subAt = base + r.pos - sub.length;
      if (schema === BUNDLE && f === BUNDLE_EVENT && eventNo++ !== pick) continue;
      const kind = field?.[1];
      if (typeof kind === 'object' || (kind === undefined && asText(sub) === undefined && isMessage(sub))) {
        const inner = typeof kind === 'object' ? kind : UNKNOWN;
        if (depth >= MAX_DETAIL_DEPTH) out.push(key, '{…}');
        else if (!sub.length) out.push(key, '{}');
        else walk(sub, subAt, inner, `${key}.`, depth + 1, target, out);
      } else if (kind === 'bytes') out.push(key, hex(sub));
      else if (kind === 'str') out.push(key, shownString(utf8.decodeUtf8(sub)));
      else if (kind === undefined) {
        const t = asText(sub);
        out.push(key, t === undefined ? hex(sub) : shownString(t));
      } else {
        // A packed repeated scalar (category_iids, flow_ids).
        const p = new BinaryReader(sub);
        const vals: string[] = [];
        const wire = kind === 'fx64' || kind === 'f64' ? WireType.Bit64 : WireType.Varint;
        while (p.pos < p.len && vals.length < 64) vals.push(scalar(p, wire, kind) ?? '?');
        out.push(key, `[${vals.join(', ')}${p.pos < p.len ? ', …' : ''}]`);
      }
      continue;
    }
    if (w === WireType.StartGroup || w === WireType.EndGroup) {
      // Groups are not used by Perfetto: skipped (bounded by the library's recursion limit).
      r.skip(w, f, MAX_DETAIL_DEPTH);
      out.push(key, '<group>');
      continue;
    }
    const kind = typeof field?.[1] === 'string' ? field[1] : 'u';
    out.push(key, scalar(r, w, kind) ?? '?');
  }
}

/**
 * The rows of the details pane for the packet `bytes` (its header at byte `at` of the file, its
 * body at `bodyAt`) and the byte `target` the clicked item points at: where it is, then its fields.
 */
export function packetFields(bytes: Uint8Array, at: number, bodyAt: number, target: number): [string, string][] {
  const out = new Rows();
  out.push('byte offset', String(target));
  out.push('packet', `bytes ${at}–${bodyAt + bytes.length} (${bytes.length} bytes of fields)`);
  try {
    walk(bytes, bodyAt, PACKET, '', 0, target, out);
  } catch (e) {
    out.rows.push(['error', `the packet is not well-formed here (${e instanceof Error ? e.message : String(e)}): what comes before is shown`]);
  }
  if (out.left) out.rows.push(['…', `${out.left} more field${out.left === 1 ? '' : 's'} not shown`]);
  return out.rows;
}

/** A packet as `PacketLocator` finds it: its bytes (a copy), where its header and body begin. */
export interface FoundPacket { bytes: Uint8Array; at: number; bodyAt: number }

/**
 * Finds the packets holding some byte offsets of a trace fed in pieces (the file read from its
 * start): a packet's bytes are copied only when one of the offsets falls in it, so memory is the
 * largest such packet. `done` once every offset is found (the caller stops reading).
 */
export class PacketLocator {
  readonly found = new Map<number, FoundPacket>();
  private readonly splitter: PacketSplitter;
  private readonly wanted: number[];

  constructor(offsets: readonly number[]) {
    this.wanted = [...new Set(offsets)];
    this.splitter = new PacketSplitter((b, at, bodyAt) => {
      for (const o of this.wanted) {
        if (o >= at && o < bodyAt + b.length && !this.found.has(o)) this.found.set(o, { bytes: b.slice(), at, bodyAt });
      }
    });
  }

  get done(): boolean {
    return this.wanted.every((o) => this.found.has(o));
  }

  feed(piece: Uint8Array): void {
    this.splitter.feed(piece);
  }

  /** The rows for offset `o`, or why there are none (past the end, in a packet that was skipped). */
  fields(o: number): [string, string][] {
    const p = this.found.get(o);
    if (p) return packetFields(p.bytes, p.at, p.bodyAt, o);
    return [['byte offset', String(o)], ['packet', 'no readable packet holds this byte (a packet over 64 MB, or past a damaged part of the file)']];
  }
}
