import { range, type Diagnostic, type Severity } from '../common/diagnostic';
import { BoundedDiagnostics } from '../common/boundedDiagnostics';
import { markText, parseMark } from './atrace';
import { Clocks } from './clocks';
import { CLOCK_ID, SEQ_INCREMENTAL_STATE_CLEARED, SEQ_NEEDS_INCREMENTAL_STATE, TYPE } from './fields';
import { MAX_PACKET_BYTES, PacketSplitter, type FrameProblem } from './frame';
import { argsJson, MAX_ARG_CHARS, MAX_ARG_DEPTH, MAX_ARG_ENTRIES, MAX_ARG_STRING, put, type Json } from './annotations';
import { decodePacket, type Packet, type PrintEvent, type TrackDescriptorMsg, type TrackEventMsg } from './packet';

/** A track of the model: a thread, a process's own track, an async or SDK track, a counter. */
export interface PTrack {
  kind: 'thread' | 'process' | 'async' | 'counter' | 'track';
  /** The process it belongs to, when known. */
  pid: number | undefined;
  tid: number | undefined;
  /** Its own name (a thread's, an async slice's, a descriptor's); the process name is looked up apart. */
  name: string | undefined;
  /** The clock domain of its first event (see Clocks). */
  domain: number;
  /** Counters: the unit their values are in. */
  unit?: string;
}

/**
 * Arguments of an event (its debug annotations, names and interned strings resolved): one JSON
 * object as text, written by JSON.stringify (annotations.ts).
 */
export type Args = string;

/** A track event's `flow_ids` (flows it takes part in) and `terminating_flow_ids` (flows it ends). */
export interface Flows { ids: readonly bigint[]; terminating: readonly bigint[] }

/** Where the reader sends what it finds, in file order of the packets (slices when they end). */
export interface PerfettoSink {
  /** A slice on `track` from `start` to `end` (ns on the track's domain; NaN: never closed). `at`/`endAt`: byte offsets of its packets. */
  slice(track: number, start: number, end: number, name: string, category: string, at: number, endAt: number, args: Args | undefined, flows?: Flows): void;
  instant(track: number, t: number, name: string, category: string, at: number, args: Args | undefined, flows?: Flows): void;
  /** An end with nothing to close (drawn as a marker). */
  lonelyEnd(track: number, t: number, at: number): void;
  counter(track: number, t: number, value: number, at: number): void;
  /** Every ftrace print, in file order, with its thread's process and name as known then. */
  print?(ev: PrintEvent, text: string, tgid: number | undefined, task: string | undefined): void;
}

interface Open {
  start: number;
  name: string;
  category: string;
  at: number;
  args: Args | undefined;
  flows?: Flows;
}

interface Sequence {
  valid: boolean;
  seen: boolean;
  names: Map<number, string>;
  categories: Map<number, string>;
  annotationNames: Map<number, string>;
  annotationStrings: Map<number, string>;
  clockId: number | undefined;
  trackUuid: bigint | undefined;
  skipped: number;
}

/** Open slices per track beyond this are not kept (a B with no E a million times). */
const MAX_DEPTH = 512;
/** Open async slices (S without F) kept at once. */
const MAX_ASYNC_OPEN = 100_000;
/** Tracks kept; further ones share the last (a file can name millions of threads). */
export const MAX_TRACKS = 20_000;
/** Characters of arguments (JSON text) kept for the whole trace: past them, events keep none (said once). */
export const MAX_TRACE_ARGS_CHARS = 64 * 1024 * 1024;
/** Diagnostics of one code beyond this are counted in one summary diagnostic. */
const MAX_PER_CODE = 200;

/**
 * Inflates a zlib stream into at most `maxBytes` bytes, throwing when it is not one or would be
 * larger: given by the Node side (node:zlib), so this reader stays free of I/O modules.
 */
export type Inflate = (deflated: Uint8Array, maxBytes: number) => Uint8Array;

export interface ReaderOptions {
  /** Keep at most this many diagnostics (the first by position). */
  maxProblems?: number;
  /** Reads `compressed_packets`; without it they are reported (`perfetto.compressed-packets`) and skipped. */
  inflate?: Inflate;
}

/** The most one `compressed_packets` field inflates to: as large as one packet is read. */
export const MAX_INFLATED_BYTES = MAX_PACKET_BYTES;

/**
 * Reads a Perfetto protobuf trace fed in pieces: frames the packets (frame.ts), decodes each
 * (packet.ts), and keeps the state the format needs across packets — process and thread names
 * (`process_tree`, track descriptors), interned names per packet sequence with its incremental
 * state, the clocks — to turn atrace marks in ftrace `print` events and SDK `TrackEvent`s into
 * slices, instants and counters on tracks for a sink. Nothing else is kept, so memory follows the
 * number of tracks and open slices, not the file's size.
 */
export class PerfettoReader {
  readonly tracks: PTrack[] = [];
  /** pid → process name (process_tree cmdline, process descriptors). */
  readonly processNames = new Map<number, string>();
  readonly threadNames = new Map<number, string>();
  /** tid → tgid from process_tree / thread descriptors. */
  readonly tgidOf = new Map<number, number>();
  readonly clocks = new Clocks();
  private readonly splitter: PacketSplitter;
  private readonly diags: BoundedDiagnostics;
  private readonly perCode = new Map<string, number>();
  private readonly trackIndex = new Map<string, number>();
  private readonly stacks = new Map<number, Open[]>();
  private readonly asyncOpen = new Map<string, Open & { track: number }>();
  private readonly sequences = new Map<number, Sequence>();
  private readonly descriptors = new Map<bigint, TrackDescriptorMsg>();
  /** Counts of what was read, for the status line and tests. */
  readonly stats = { packets: 0, prints: 0, marks: 0, trackEvents: 0, otherFtrace: 0, slices: 0, counters: 0, instants: 0 };
  private ended = false;
  /** Characters of arguments kept so far, and events whose arguments were not kept past the limit. */
  private argsChars = 0;
  private argsDropped = 0;
  private readonly inflate: Inflate | undefined;

  constructor(private readonly sink: PerfettoSink, opts: ReaderOptions = {}) {
    this.splitter = new PacketSplitter((b, at, bodyAt) => this.packet(b, at, bodyAt));
    this.diags = new BoundedDiagnostics(opts.maxProblems ?? Infinity);
    this.inflate = opts.inflate;
  }

  /** The next bytes of the file. */
  feed(chunk: Uint8Array): void {
    this.splitter.feed(chunk);
  }

  /** Bytes read so far. */
  get offset(): number {
    return this.splitter.offset;
  }

  /** After the last bytes: closes what is open and returns the diagnostics (capped as asked). */
  end(): { diagnostics: Diagnostic[]; dropped: number; droppedError: boolean } {
    if (!this.ended) {
      this.ended = true;
      this.splitter.end();
      for (const f of this.splitter.problems) this.frameProblem(f);
      for (const [track, stack] of this.stacks) {
        if (!stack.length) continue;
        const first = stack[0];
        this.problem(first.at, 'perfetto.unclosed-slice', 'warning',
          `${quote(first.name)} on ${this.describe(track)} is never closed${stack.length > 1 ? ` (nor ${stack.length - 1} slice${stack.length > 2 ? 's' : ''} opened inside it)` : ''}: no end follows it in the trace. It is drawn to the end of the trace (the capture may have stopped inside it).`);
        for (const o of stack) this.sink.slice(track, o.start, NaN, o.name, o.category, o.at, o.at, o.args, o.flows);
        this.stats.slices += stack.length;
      }
      this.stacks.clear();
      for (const o of this.asyncOpen.values()) {
        this.problem(o.at, 'perfetto.unclosed-slice', 'warning', `async slice ${quote(o.name)} on ${this.describe(o.track)} is never finished: no F mark with its cookie follows. It is drawn to the end of the trace.`);
        this.sink.slice(o.track, o.start, NaN, o.name, o.category, o.at, o.at, o.args);
      }
      this.asyncOpen.clear();
      if (this.argsDropped) {
        this.problem(0, 'perfetto.args-capped', 'information', `The arguments (debug annotations) of ${this.argsDropped} track events are not kept: those of the trace reached ${MAX_TRACE_ARGS_CHARS / 1048576}M characters, all that a trace keeps.`);
      }
      if (this.clocks.domains.length > 1) {
        this.problem(0, 'perfetto.unrelated-clocks', 'information',
          `Timestamps come from ${this.clocks.domains.length} clocks (${this.clocks.domains.map(Clocks.domainName).join(', ')}) and no ClockSnapshot relates them: each is shown from its own first event, so events of different clocks cannot be compared in time.`);
      }
      const st = this.stats;
      if (this.splitter.packets === 0 && this.splitter.problems.length === 0) {
        this.problem(0, 'perfetto.empty-trace', 'information', 'The trace holds no packets: the recording wrote nothing (an empty file, or a session that stopped before any data source started).');
      } else if (this.splitter.packets > 0 && this.splitter.problems.length === 0 && st.prints + st.trackEvents + st.otherFtrace === 0) {
        this.problem(0, 'perfetto.empty-trace', 'information', `The trace holds ${st.packets} packets but no events: no data source recorded anything (check the config's data sources and atrace categories, or that the app was traced while it ran).`);
      }
      for (const [code, n] of this.perCode) {
        if (n > MAX_PER_CODE) this.diags.push({ range: range(0, 0, 0), severity: 'information', code, message: `${n - MAX_PER_CODE} more ${code} problems are not listed.` });
      }
    }
    return { diagnostics: this.diags.all(), dropped: this.diags.dropped, droppedError: this.diags.droppedError };
  }

  /** A readable name of a track for messages. */
  describe(track: number): string {
    const t = this.tracks[track];
    if (!t) return 'a track';
    if (t.kind === 'thread') return `thread ${t.tid}${t.name || this.threadNames.get(t.tid!) ? ` (${this.threadNames.get(t.tid!) ?? t.name})` : ''}`;
    if (t.kind === 'process') return `process ${t.pid}`;
    return `track ${quote(t.name ?? '?')}`;
  }

  private frameProblem(f: FrameProblem): void {
    if (f.kind === 'truncated') {
      this.problem(f.offset, 'perfetto.truncated-packet', 'error', f.claimed !== undefined
        ? `The packet at byte ${f.offset} claims ${f.claimed} bytes but the file ends after ${this.splitter.offset - f.offset}: the trace is cut short (a copy or pull that stopped early). What comes before it is read.`
        : `The file ends inside a packet header at byte ${f.offset}: the trace is cut short. What comes before it is read.`);
    } else if (f.kind === 'too-large') {
      this.problem(f.offset, 'perfetto.packet-too-large', 'error', `The packet at byte ${f.offset} claims ${Number.isFinite(f.claimed) ? BigInt(f.claimed!) : 'over 2^64'} bytes, over the ${64} MB a packet is read in: it is skipped. Perfetto writes packets far smaller; the file is likely damaged here.`);
    } else {
      this.problem(f.offset, 'perfetto.bad-framing', 'error', `The bytes at ${f.offset} are no protobuf field of a Trace (a packet is field 1, length-delimited): reading stops here. Is this a Perfetto protobuf trace, and is it whole?`);
    }
  }

  private problem(at: number, code: string, severity: Severity, message: string): void {
    const n = (this.perCode.get(code) ?? 0) + 1;
    this.perCode.set(code, n);
    if (n > MAX_PER_CODE) return;
    this.diags.push({ range: range(0, at, at + 1), severity, code, message });
  }

  /**
   * One packet. `inner`: a packet inflated from the `compressed_packets` of the packet at byte
   * `at`; its bytes are not in the file, so everything in it is placed at that packet.
   */
  private packet(bytes: Uint8Array, at: number, bodyAt: number, inner = false): void {
    this.stats.packets++;
    let p: Packet;
    try {
      p = decodePacket(bytes, bodyAt);
    } catch (e) {
      this.problem(at, 'perfetto.malformed-packet', 'error', `The ${inner ? 'inflated packet in the compressed packets' : 'packet'} at byte ${at} (${bytes.length} bytes) is not a well-formed protobuf message (${e instanceof Error ? e.message : String(e)}): it is skipped.`);
      return;
    }
    if (inner && p.prints) for (const ev of p.prints) ev.at = ev.bufAt = at;
    const seq = this.sequence(p, at);
    if (p.compressed || (p.deflated && (!this.inflate || inner))) {
      this.problem(at, 'perfetto.compressed-packets', 'warning', `The packet at byte ${at} holds ${p.compressed ? 'zstd-' : inner ? 'nested ' : ''}compressed packets, which are not read: convert the trace first (\`traceconv decompress_packets in.pftrace out.pftrace\`), or record without \`compression_type\`.`);
    } else if (p.deflated) this.inflated(p.deflated, at);
    if (p.clocks) this.clocks.snapshot(p.clocks, p.seq);
    if (p.processes) {
      for (const pr of p.processes) {
        const name = pr.cmdline[0];
        if (name) this.processNames.set(pr.pid, name);
        this.tgidOf.set(pr.pid, pr.pid);
      }
    }
    if (p.threads) {
      for (const t of p.threads) {
        if (t.name) this.threadNames.set(t.tid, t.name);
        if (t.tgid) this.tgidOf.set(t.tid, t.tgid);
      }
    }
    if (p.prints) for (const ev of p.prints) this.print(ev);
    this.stats.otherFtrace += p.otherFtrace;
    if (p.trackDescriptor) this.descriptor(p.trackDescriptor);
    if (p.trackEvent) this.trackEvent(p, p.trackEvent, seq, at);
  }

  /** The packets of one `compressed_packets` field, inflated within MAX_INFLATED_BYTES and read in place of the packet at `at`. */
  private inflated(deflated: Uint8Array, at: number): void {
    let bytes: Uint8Array;
    try {
      bytes = this.inflate!(deflated, MAX_INFLATED_BYTES);
    } catch (e) {
      this.problem(at, 'perfetto.bad-compressed-packets', 'error', `The compressed packets at byte ${at} (${deflated.length} bytes) cannot be inflated (${e instanceof Error ? e.message : String(e)}; at most ${MAX_INFLATED_BYTES / 1048576} MB are read): they are skipped.`);
      return;
    }
    const inner = new PacketSplitter((b) => this.packet(b, at, at, true));
    inner.feed(bytes);
    inner.end();
    if (inner.problems.length) {
      this.problem(at, 'perfetto.bad-compressed-packets', 'error', `The compressed packets at byte ${at} inflate to ${bytes.length} bytes that are not a whole sequence of packets (${inner.problems[0].kind} at byte ${inner.problems[0].offset} of them): what comes before is read.`);
    }
  }

  private sequence(p: Packet, at: number): Sequence {
    let s = this.sequences.get(p.seq);
    if (!s) {
      s = { valid: false, seen: false, names: new Map(), categories: new Map(), annotationNames: new Map(), annotationStrings: new Map(), clockId: undefined, trackUuid: undefined, skipped: 0 };
      this.sequences.set(p.seq, s);
    }
    // The service marks the first packet of every sequence as following a loss: only a later one is.
    if (p.dropped && s.seen) {
      s.valid = false;
      this.problem(at, 'perfetto.packets-lost', 'warning', `Packets of sequence ${p.seq} were lost before byte ${at} (previous_packet_dropped): the ring buffer wrapped or a writer ran out of buffer. Its interned names are unknown until the writer clears its incremental state again.`);
    }
    s.seen = true;
    if (p.flags & SEQ_INCREMENTAL_STATE_CLEARED || p.cleared) {
      s.valid = true;
      s.names.clear();
      s.categories.clear();
      s.annotationNames.clear();
      s.annotationStrings.clear();
      s.clockId = undefined;
      s.trackUuid = undefined;
    }
    if (p.defaults) {
      s.clockId = p.defaults.clockId;
      s.trackUuid = p.defaults.trackUuid;
    }
    if (p.interned) {
      for (const [k, v] of p.interned.eventNames) s.names.set(k, v);
      for (const [k, v] of p.interned.categories) s.categories.set(k, v);
      for (const [k, v] of p.interned.annotationNames) s.annotationNames.set(k, v);
      for (const [k, v] of p.interned.annotationStrings) s.annotationStrings.set(k, v);
    }
    return s;
  }

  private track(key: string, make: () => PTrack): number {
    let i = this.trackIndex.get(key);
    if (i === undefined) {
      if (this.tracks.length >= MAX_TRACKS) return this.track('\u0000other', () => ({ kind: 'track', pid: undefined, tid: undefined, name: '(other tracks)', domain: 0 }));
      i = this.tracks.length;
      this.tracks.push(make());
      this.trackIndex.set(key, i);
    }
    return i;
  }

  private threadTrack(tid: number, pid: number | undefined, domain: number): number {
    return this.track(`t${tid}`, () => ({ kind: 'thread', pid: pid ?? this.tgidOf.get(tid) ?? tid, tid, name: undefined, domain }));
  }

  private print(ev: PrintEvent): void {
    this.stats.prints++;
    const text = markText(ev.buf);
    const tgid = this.tgidOf.get(ev.pid);
    this.sink.print?.(ev, text, tgid, this.threadNames.get(ev.pid));
    const m = parseMark(text);
    if (!m) return;
    this.stats.marks++;
    const { domain, rel } = this.clocks.time(ev.ts, CLOCK_ID.boottime, 0);
    const pid = tgid ?? m.pid;
    switch (m.kind) {
      case 'B':
        this.open(this.threadTrack(ev.pid, pid, domain), rel, m.name, '', ev.at, undefined);
        return;
      case 'E':
        this.close(this.threadTrack(ev.pid, pid, domain), rel, ev.at);
        return;
      case 'I': {
        this.stats.instants++;
        this.sink.instant(this.threadTrack(ev.pid, pid, domain), rel, m.name, '', ev.at, undefined);
        return;
      }
      case 'C': {
        const p = pid ?? ev.pid;
        const track = this.track(`c${p}|${m.name}`, () => ({ kind: 'counter', pid: p, tid: undefined, name: m.name, domain }));
        if (m.value === undefined) {
          this.problem(ev.at, 'perfetto.counter-without-value', 'warning', `The counter mark ${quote(text)} has no number after its name (expected C|pid|name|value): it is skipped.`);
          return;
        }
        this.stats.counters++;
        this.sink.counter(track, rel, m.value, ev.at);
        return;
      }
      case 'S': case 'F': {
        const p = pid ?? ev.pid;
        const track = this.track(`a${p}|${m.name}`, () => ({ kind: 'async', pid: p, tid: undefined, name: m.name, domain }));
        const key = `${p}|${m.name}|${m.cookie}`;
        if (m.kind === 'S') {
          if (this.asyncOpen.size < MAX_ASYNC_OPEN) this.asyncOpen.set(key, { start: rel, name: m.name, category: '', at: ev.at, args: undefined, track });
          return;
        }
        const o = this.asyncOpen.get(key);
        if (!o) {
          this.problem(ev.at, 'perfetto.unmatched-end', 'warning', `The async end ${quote(text)} finishes nothing: no S mark with name ${quote(m.name)} and cookie ${quote(m.cookie)} is open in process ${p}.`);
          this.sink.lonelyEnd(track, rel, ev.at);
          return;
        }
        this.asyncOpen.delete(key);
        this.stats.slices++;
        this.sink.slice(track, o.start, rel, o.name, '', o.at, ev.at, undefined);
      }
    }
  }

  private open(track: number, t: number, name: string, category: string, at: number, args: Args | undefined, flows?: Flows): void {
    let s = this.stacks.get(track);
    if (!s) this.stacks.set(track, (s = []));
    if (s.length >= MAX_DEPTH) {
      this.problem(at, 'perfetto.too-deep', 'warning', `${quote(name)} on ${this.describe(track)} opens a slice ${MAX_DEPTH} deep: it and deeper ones are not drawn (a begin without its end, repeated?).`);
      return;
    }
    s.push({ start: t, name, category, at, args, ...(flows && { flows }) });
  }

  /** Closes the innermost slice of the track; `endArgs`: the end event's own arguments, added to the slice's. */
  private close(track: number, t: number, at: number, endArgs?: Args): void {
    const o = this.stacks.get(track)?.pop();
    if (!o) {
      this.problem(at, 'perfetto.unmatched-end', 'warning', `This end closes nothing: ${this.describe(track)} has no open slice here. The capture may have started inside a traced function.`);
      this.sink.lonelyEnd(track, t, at);
      return;
    }
    this.stats.slices++;
    this.sink.slice(track, o.start, t, o.name, o.category, o.at, at, endArgs === undefined ? o.args : mergeArgs(o.args, endArgs), o.flows);
  }

  private descriptor(d: TrackDescriptorMsg): void {
    if (this.descriptors.size < MAX_TRACKS || this.descriptors.has(d.uuid)) this.descriptors.set(d.uuid, d);
    if (d.process?.name) this.processNames.set(d.process.pid, d.process.name);
    if (d.thread) {
      if (d.thread.name) this.threadNames.set(d.thread.tid, d.thread.name);
      if (d.thread.pid) this.tgidOf.set(d.thread.tid, d.thread.pid);
    }
  }

  /** The model track of an SDK track uuid: its thread's track, its process's, or a track of its own. */
  private uuidTrack(uuid: bigint, domain: number): number {
    const d = this.descriptors.get(uuid);
    if (d?.thread) return this.threadTrack(d.thread.tid, d.thread.pid || undefined, domain);
    return this.track(`u${uuid}`, () => {
      if (d?.process) return { kind: 'process', pid: d.process.pid, tid: undefined, name: d.name, domain };
      // A track under a process or thread track (async tracks, counters) belongs to that process.
      const parent = d?.parentUuid !== undefined ? this.descriptors.get(d.parentUuid) : undefined;
      const pid = parent?.process?.pid ?? parent?.thread?.pid;
      return { kind: d?.counter ? 'counter' : 'track', pid, tid: undefined, name: d?.name ?? (uuid === 0n ? 'Global track' : `track ${uuid}`), domain, unit: d?.counter?.unit };
    });
  }

  private trackEvent(p: Packet, e: TrackEventMsg, s: Sequence, at: number): void {
    this.stats.trackEvents++;
    if (p.flags & SEQ_NEEDS_INCREMENTAL_STATE && !s.valid) {
      if (s.skipped++ === 0) {
        this.problem(at, 'perfetto.needs-incremental-state', 'warning', `The track event at byte ${at} needs the incremental state of sequence ${p.seq} (interned names, defaults), which is not valid here (no packet cleared it, or packets were lost): it and the sequence's next such events are skipped until the state is cleared again.`);
      }
      return;
    }
    if (p.timestamp === undefined) return;
    const clockId = p.clockId ?? s.clockId ?? CLOCK_ID.boottime;
    const { domain, rel } = this.clocks.time(p.timestamp, clockId, p.seq);
    const track = this.uuidTrack(e.trackUuid ?? s.trackUuid ?? 0n, domain);
    const name = e.name ?? (e.nameIid !== undefined ? this.interned(s.names, e.nameIid, 'event name', at) : undefined) ?? '';
    const cats = e.categories.length ? e.categories : e.categoryIids.map((i) => this.interned(s.categories, i, 'category', at) ?? `#${i}`);
    const category = cats.join(',');
    const args = this.args(e, s, at);
    const flows = e.flowIds.length || e.terminatingFlowIds.length ? { ids: e.flowIds, terminating: e.terminatingFlowIds } : undefined;
    switch (e.type) {
      case TYPE.sliceBegin: this.open(track, rel, name, category, at, args, flows); return;
      case TYPE.sliceEnd: this.close(track, rel, at, args); return;
      case TYPE.instant:
        this.stats.instants++;
        this.sink.instant(track, rel, name, category, at, args, flows);
        return;
      case TYPE.counter:
        if (e.counter === undefined) {
          this.problem(at, 'perfetto.counter-without-value', 'warning', `The counter event at byte ${at} on ${this.describe(track)} has no counter_value or double_counter_value: it is skipped.`);
          return;
        }
        this.stats.counters++;
        this.sink.counter(track, rel, e.counter, at);
    }
  }

  /** A track event's arguments, its interned names and strings resolved in its sequence; undefined when it has none. */
  private args(e: TrackEventMsg, s: Sequence, at: number): Args | undefined {
    if (!e.annotations.length && !e.moreAnnotations) return undefined;
    if (this.argsChars >= MAX_TRACE_ARGS_CHARS) {
      this.argsDropped++;
      return undefined;
    }
    const json = argsJson(e.annotations, e.moreAnnotations, {
      name: (iid) => this.interned(s.annotationNames, iid, 'debug annotation name', at),
      string: (iid) => this.interned(s.annotationStrings, iid, 'debug annotation string', at),
    });
    this.argsChars += json.length;
    if (e.argsCapped) {
      this.problem(at, 'perfetto.args-capped', 'information', `The debug annotations of the track event at byte ${at} hold more than one event keeps (${MAX_ARG_ENTRIES} entries, ${MAX_ARG_DEPTH} levels of nesting, ${MAX_ARG_STRING} characters a string, ${MAX_ARG_CHARS} in all): the rest is left out, and each value cut says so.`);
    }
    return json;
  }

  private interned(map: Map<number, string>, iid: number, what: string, at: number): string {
    const v = map.get(iid);
    if (v === undefined) {
      this.problem(at, 'perfetto.unknown-interned-id', 'warning', `The ${what} iid ${iid} at byte ${at} is not in the interned data of its sequence: the writer never emitted it since the state was last cleared. It is shown as #${iid}.`);
      return `#${iid}`;
    }
    return v;
  }
}

/** A file's text in a message: quoted, cut to 80 characters. */
export function quote(s: string): string {
  const t = s.length > 80 ? `${s.slice(0, 80)}…` : s;
  return `'${t}'`;
}

/** A slice's arguments with those of its end event added (TRACE_EVENT_END with arguments), as Trace Processor merges them. */
function mergeArgs(begin: Args | undefined, end: Args): Args {
  if (begin === undefined) return end;
  const o = Object.assign(Object.create(null) as Record<string, Json>, JSON.parse(begin) as Record<string, Json>);
  for (const [k, v] of Object.entries(JSON.parse(end) as Record<string, Json>)) put(o, k, v);
  return JSON.stringify(o);
}
