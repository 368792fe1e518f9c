import { BinaryReader, getTextEncoding, WireType } from '@bufbuild/protobuf/wire';
import { ArgBudget, decodeAnnotation, type Annotation } from './annotations';
import {
  CLOCK, CLOCK_SNAPSHOT, COUNTER_DESCRIPTOR, FTRACE_BUNDLE, FTRACE_EVENT, INTERNED, INTERNED_ENTRY, PACKET,
  PACKET_DEFAULTS, PRINT, PROCESS_DESCRIPTOR, PROCESS_TREE, PT_PROCESS, PT_THREAD, THREAD_DESCRIPTOR, TRACK_DESCRIPTOR, TRACK_EVENT,
  TRACK_EVENT_DEFAULTS,
} from './fields';

/** An ftrace `print` event (atrace writes its marks through it). `at`: its byte offset in the file. */
export interface PrintEvent {
  ts: bigint;
  pid: number;
  buf: string;
  at: number;
  /** Byte offset of the mark's text (the `buf` bytes) in the file. */
  bufAt: number;
}

export interface ProcessEntry { pid: number; ppid: number; cmdline: string[] }
export interface ThreadEntry { tid: number; tgid: number; name: string | undefined }

export interface TrackEventMsg {
  type: number;
  trackUuid: bigint | undefined;
  name: string | undefined;
  nameIid: number | undefined;
  categories: string[];
  categoryIids: number[];
  /** `counter_value` / `double_counter_value`; undefined when neither is there. */
  counter: number | undefined;
  /** `debug_annotations`, decoded within the event's budget (`ArgBudget`); `moreAnnotations` left out. */
  annotations: Annotation[];
  moreAnnotations: number;
  /** Something of the annotations was left out (entries, depth, characters): the reader reports it. */
  argsCapped: boolean;
  flowIds: bigint[];
  terminatingFlowIds: bigint[];
}

export interface TrackDescriptorMsg {
  uuid: bigint;
  parentUuid: bigint | undefined;
  name: string | undefined;
  process: { pid: number; name: string | undefined } | undefined;
  thread: { pid: number; tid: number; name: string | undefined } | undefined;
  counter: { unit: string | undefined } | undefined;
}

export interface ClockEntry { id: number; ts: bigint; incremental: boolean; unitNs: bigint }

export interface InternedMsg {
  eventNames: [number, string][];
  categories: [number, string][];
  annotationNames: [number, string][];
  annotationStrings: [number, string][];
}

/** What this reader models of one `TracePacket`; every other field is skipped. */
export interface Packet {
  timestamp: bigint | undefined;
  clockId: number | undefined;
  seq: number;
  flags: number;
  cleared: boolean;
  dropped: boolean;
  interned: InternedMsg | undefined;
  defaults: { clockId: number | undefined; trackUuid: bigint | undefined } | undefined;
  prints: PrintEvent[] | undefined;
  /** ftrace events other than `print` (scheduler events, compact_sched…): counted, not modelled. */
  otherFtrace: number;
  processes: ProcessEntry[] | undefined;
  threads: ThreadEntry[] | undefined;
  trackEvent: TrackEventMsg | undefined;
  trackDescriptor: TrackDescriptorMsg | undefined;
  clocks: ClockEntry[] | undefined;
  /** `compressed_packets`: zlib-deflated packets (a serialized `Trace`), as the service writes them with `compression_type: COMPRESSION_TYPE_DEFLATE`. */
  deflated: Uint8Array | undefined;
  /** Compressed packets this reader cannot inflate (`zstd_compressed_packets`). */
  compressed: boolean;
}

/** Lists one packet can grow are capped while read (a packet is at most MAX_PACKET_BYTES). */
const MAX_ITEMS = 100_000;

const utf8 = getTextEncoding();

/** A reader of one message; strings decode as UTF-8, an invalid sequence as U+FFFD (the library's default). */
function reader(b: Uint8Array): BinaryReader {
  return new BinaryReader(b);
}

/** An unsigned 64-bit varint as a number (ids and iids: exact below 2^53). */
function u64n(r: BinaryReader): number {
  return Number(r.uint64());
}

function u64(r: BinaryReader): bigint {
  return BigInt(r.uint64());
}

/** A repeated scalar written packed (one length-delimited field) or one by one. */
function repeated<T>(r: BinaryReader, wire: WireType, one: () => T, out: T[]): void {
  if (wire === WireType.LengthDelimited) {
    const end = r.uint32() + r.pos;
    while (r.pos < end && out.length < MAX_ITEMS) out.push(one());
    r.pos = end;
  } else if (out.length < MAX_ITEMS) out.push(one());
  else r.skip(wire);
}

/**
 * Decodes one packet. `at`: the byte offset of its bytes in the file (for the offsets of its ftrace events).
 * Throws on bytes that are not a well-formed message (the caller reports the packet).
 */
export function decodePacket(bytes: Uint8Array, at: number): Packet {
  const p: Packet = {
    timestamp: undefined, clockId: undefined, seq: 0, flags: 0, cleared: false, dropped: false, interned: undefined, defaults: undefined,
    prints: undefined, otherFtrace: 0, processes: undefined, threads: undefined, trackEvent: undefined, trackDescriptor: undefined,
    clocks: undefined, deflated: undefined, compressed: false,
  };
  const r = reader(bytes);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (w === WireType.LengthDelimited && (f === PACKET.ftraceEvents || f === PACKET.processTree || f === PACKET.clockSnapshot
      || f === PACKET.trackEvent || f === PACKET.internedData || f === PACKET.tracePacketDefaults || f === PACKET.trackDescriptor)) {
      const sub = r.bytes();
      const subAt = at + r.pos - sub.length;
      switch (f) {
        case PACKET.ftraceEvents: decodeFtrace(sub, subAt, p); break;
        case PACKET.processTree: decodeProcessTree(sub, p); break;
        case PACKET.clockSnapshot: p.clocks = decodeClocks(sub); break;
        case PACKET.trackEvent: p.trackEvent = decodeTrackEvent(sub); break;
        case PACKET.internedData: p.interned = decodeInterned(sub, p.interned); break;
        case PACKET.tracePacketDefaults: p.defaults = decodeDefaults(sub); break;
        case PACKET.trackDescriptor: p.trackDescriptor = decodeTrackDescriptor(sub); break;
      }
      continue;
    }
    if (w === WireType.Varint) {
      switch (f) {
        case PACKET.timestamp: p.timestamp = u64(r); continue;
        case PACKET.timestampClockId: p.clockId = r.uint32(); continue;
        case PACKET.trustedPacketSequenceId: p.seq = r.uint32(); continue;
        case PACKET.sequenceFlags: p.flags = r.uint32(); continue;
        case PACKET.incrementalStateCleared: p.cleared = r.bool(); continue;
        case PACKET.previousPacketDropped: p.dropped = r.uint32() !== 0; continue;
      }
    }
    if (f === PACKET.compressedPackets && w === WireType.LengthDelimited) {
      p.deflated = r.bytes();
      continue;
    }
    if (f === PACKET.compressedPackets || f === PACKET.zstdCompressedPackets) p.compressed = true;
    r.skip(w, f);
  }
  return p;
}

// The hot path (a system trace is mostly ftrace events): one reader over the whole bundle, each
// event and its print read by position within it, and the field numbers as local constants.
const EVENT = FTRACE_BUNDLE.event, COMPACT_SCHED = FTRACE_BUNDLE.compactSched;
const EV_TS = FTRACE_EVENT.timestamp, EV_PID = FTRACE_EVENT.pid, EV_PRINT = FTRACE_EVENT.print, PRINT_BUF = PRINT.buf;
const LD = WireType.LengthDelimited, VARINT = WireType.Varint;

function decodeFtrace(b: Uint8Array, at: number, p: Packet): void {
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (f === EVENT && w === LD) {
      const len = r.uint32();
      const end = r.pos + len;
      if (end > r.len) throw new RangeError('premature EOF');
      const print = decodeFtraceEvent(r, end, at);
      r.pos = end;
      if (print) (p.prints ??= []).push(print);
      else p.otherFtrace++;
      continue;
    }
    if (f === COMPACT_SCHED) p.otherFtrace++;
    r.skip(w, f);
  }
}

/** The event in `r` up to `end` (positions in the bundle at byte offset `at` of the file). */
function decodeFtraceEvent(r: BinaryReader, end: number, at: number): PrintEvent | undefined {
  const evAt = at + r.pos;
  let ts = 0n, pid = 0, bufAt = evAt;
  let buf: string | undefined;
  while (r.pos < end) {
    const [f, w] = r.tag();
    if (f === EV_TS && w === VARINT) ts = u64(r);
    else if (f === EV_PID && w === VARINT) pid = r.uint32();
    else if (f === EV_PRINT && w === LD) {
      const pend = r.uint32() + r.pos;
      if (pend > end) throw new RangeError('premature EOF');
      while (r.pos < pend) {
        const [g, v] = r.tag();
        if (g === PRINT_BUF && v === LD) {
          const b = r.bytes();
          bufAt = at + r.pos - b.length;
          buf = utf8.decodeUtf8(b);
        } else r.skip(v, g);
      }
      if (r.pos !== pend) throw new RangeError('a field runs past its message');
      buf ??= '';
    } else r.skip(w, f);
  }
  if (r.pos !== end) throw new RangeError('a field runs past its message');
  return buf === undefined ? undefined : { ts, pid, buf, at: evAt, bufAt };
}

function decodeProcessTree(b: Uint8Array, p: Packet): void {
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (f === PROCESS_TREE.processes && w === WireType.LengthDelimited) {
      const s = reader(r.bytes());
      const e: ProcessEntry = { pid: 0, ppid: 0, cmdline: [] };
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === PT_PROCESS.pid && v === WireType.Varint) e.pid = s.int32();
        else if (g === PT_PROCESS.ppid && v === WireType.Varint) e.ppid = s.int32();
        else if (g === PT_PROCESS.cmdline && v === WireType.LengthDelimited && e.cmdline.length < 64) e.cmdline.push(s.string());
        else s.skip(v, g);
      }
      if ((p.processes ??= []).length < MAX_ITEMS) p.processes.push(e);
    } else if (f === PROCESS_TREE.threads && w === WireType.LengthDelimited) {
      const s = reader(r.bytes());
      const e: ThreadEntry = { tid: 0, tgid: 0, name: undefined };
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === PT_THREAD.tid && v === WireType.Varint) e.tid = s.int32();
        else if (g === PT_THREAD.tgid && v === WireType.Varint) e.tgid = s.int32();
        else if (g === PT_THREAD.name && v === WireType.LengthDelimited) e.name = s.string();
        else s.skip(v, g);
      }
      if ((p.threads ??= []).length < MAX_ITEMS) p.threads.push(e);
    } else r.skip(w, f);
  }
}

function decodeClocks(b: Uint8Array): ClockEntry[] {
  const out: ClockEntry[] = [];
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (f === CLOCK_SNAPSHOT.clocks && w === WireType.LengthDelimited && out.length < 256) {
      const s = reader(r.bytes());
      const c: ClockEntry = { id: 0, ts: 0n, incremental: false, unitNs: 1n };
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === CLOCK.clockId && v === WireType.Varint) c.id = s.uint32();
        else if (g === CLOCK.timestamp && v === WireType.Varint) c.ts = u64(s);
        else if (g === CLOCK.isIncremental && v === WireType.Varint) c.incremental = s.bool();
        else if (g === CLOCK.unitMultiplierNs && v === WireType.Varint) c.unitNs = u64(s) || 1n;
        else s.skip(v, g);
      }
      out.push(c);
    } else r.skip(w, f);
  }
  return out;
}

function decodeTrackEvent(b: Uint8Array): TrackEventMsg {
  const e: TrackEventMsg = { type: 0, trackUuid: undefined, name: undefined, nameIid: undefined, categories: [], categoryIids: [], counter: undefined, annotations: [], moreAnnotations: 0, argsCapped: false, flowIds: [], terminatingFlowIds: [] };
  const r = reader(b);
  let budget: ArgBudget | undefined;
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    switch (f) {
      case TRACK_EVENT.type: if (w === WireType.Varint) { e.type = r.int32(); continue; } break;
      case TRACK_EVENT.trackUuid: if (w === WireType.Varint) { e.trackUuid = u64(r); continue; } break;
      case TRACK_EVENT.name: if (w === WireType.LengthDelimited) { e.name = r.string(); continue; } break;
      case TRACK_EVENT.nameIid: if (w === WireType.Varint) { e.nameIid = u64n(r); continue; } break;
      case TRACK_EVENT.categories: if (w === WireType.LengthDelimited && e.categories.length < 64) { e.categories.push(r.string()); continue; } break;
      case TRACK_EVENT.categoryIids: if (w === WireType.Varint || w === WireType.LengthDelimited) { repeated(r, w, () => u64n(r), e.categoryIids); continue; } break;
      case TRACK_EVENT.counterValue: if (w === WireType.Varint) { e.counter = Number(r.int64()); continue; } break;
      case TRACK_EVENT.doubleCounterValue: if (w === WireType.Bit64) { e.counter = r.double(); continue; } break;
      case TRACK_EVENT.debugAnnotations:
        if (w === WireType.LengthDelimited) {
          const a = r.bytes();
          budget ??= new ArgBudget();
          if (budget.entry()) e.annotations.push(decodeAnnotation(a, 0, budget));
          else e.moreAnnotations++;
          continue;
        }
        break;
      case TRACK_EVENT.flowIds: if (w === WireType.Bit64 || w === WireType.LengthDelimited) { repeated(r, w, () => BigInt(r.fixed64()), e.flowIds); continue; } break;
      case TRACK_EVENT.terminatingFlowIds: if (w === WireType.Bit64 || w === WireType.LengthDelimited) { repeated(r, w, () => BigInt(r.fixed64()), e.terminatingFlowIds); continue; } break;
    }
    r.skip(w, f);
  }
  e.argsCapped = !!budget?.capped;
  return e;
}

function decodeTrackDescriptor(b: Uint8Array): TrackDescriptorMsg {
  const d: TrackDescriptorMsg = { uuid: 0n, parentUuid: undefined, name: undefined, process: undefined, thread: undefined, counter: undefined };
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (w === WireType.Varint && f === TRACK_DESCRIPTOR.uuid) d.uuid = u64(r);
    else if (w === WireType.Varint && f === TRACK_DESCRIPTOR.parentUuid) d.parentUuid = u64(r);
    else if (w === WireType.LengthDelimited && f === TRACK_DESCRIPTOR.name) d.name = r.string();
    else if (w === WireType.LengthDelimited && f === TRACK_DESCRIPTOR.process) {
      const s = reader(r.bytes());
      const pr = { pid: 0, name: undefined as string | undefined };
      let cmd: string | undefined;
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === PROCESS_DESCRIPTOR.pid && v === WireType.Varint) pr.pid = s.int32();
        else if (g === PROCESS_DESCRIPTOR.processName && v === WireType.LengthDelimited) pr.name = s.string();
        else if (g === PROCESS_DESCRIPTOR.cmdline && v === WireType.LengthDelimited) cmd ??= s.string();
        else s.skip(v, g);
      }
      pr.name ??= cmd;
      d.process = pr;
    } else if (w === WireType.LengthDelimited && f === TRACK_DESCRIPTOR.thread) {
      const s = reader(r.bytes());
      const th = { pid: 0, tid: 0, name: undefined as string | undefined };
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === THREAD_DESCRIPTOR.pid && v === WireType.Varint) th.pid = s.int32();
        else if (g === THREAD_DESCRIPTOR.tid && v === WireType.Varint) th.tid = s.int32();
        else if (g === THREAD_DESCRIPTOR.threadName && v === WireType.LengthDelimited) th.name = s.string();
        else s.skip(v, g);
      }
      d.thread = th;
    } else if (w === WireType.LengthDelimited && f === TRACK_DESCRIPTOR.counter) {
      const s = reader(r.bytes());
      const c = { unit: undefined as string | undefined };
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === COUNTER_DESCRIPTOR.unitName && v === WireType.LengthDelimited) c.unit = s.string();
        else s.skip(v, g);
      }
      d.counter = c;
    } else r.skip(w, f);
  }
  return d;
}

function decodeInterned(b: Uint8Array, into: InternedMsg | undefined): InternedMsg {
  const m = into ?? { eventNames: [], categories: [], annotationNames: [], annotationStrings: [] };
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    const list = w !== WireType.LengthDelimited ? undefined
      : f === INTERNED.eventNames ? m.eventNames : f === INTERNED.eventCategories ? m.categories
        : f === INTERNED.debugAnnotationNames ? m.annotationNames : f === INTERNED.debugAnnotationStringValues ? m.annotationStrings : undefined;
    if (!list) {
      r.skip(w, f);
      continue;
    }
    const s = reader(r.bytes());
    let iid = 0, name = '';
    while (s.pos < s.len) {
      const [g, v] = s.tag();
      if (g === INTERNED_ENTRY.iid && v === WireType.Varint) iid = u64n(s);
      else if (g === INTERNED_ENTRY.name && v === WireType.LengthDelimited) name = s.string();
      else s.skip(v, g);
    }
    if (list.length < MAX_ITEMS) list.push([iid, name]);
  }
  return m;
}

function decodeDefaults(b: Uint8Array): { clockId: number | undefined; trackUuid: bigint | undefined } {
  const d = { clockId: undefined as number | undefined, trackUuid: undefined as bigint | undefined };
  const r = reader(b);
  while (r.pos < r.len) {
    const [f, w] = r.tag();
    if (f === PACKET_DEFAULTS.timestampClockId && w === WireType.Varint) d.clockId = r.uint32();
    else if (f === PACKET_DEFAULTS.trackEventDefaults && w === WireType.LengthDelimited) {
      const s = reader(r.bytes());
      while (s.pos < s.len) {
        const [g, v] = s.tag();
        if (g === TRACK_EVENT_DEFAULTS.trackUuid && v === WireType.Varint) d.trackUuid = u64(s);
        else s.skip(v, g);
      }
    } else r.skip(w, f);
  }
  return d;
}
