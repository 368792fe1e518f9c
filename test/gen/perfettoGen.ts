// Generated Perfetto protobuf traces, laid out as the real writers lay them out (no device or
// Perfetto build is available to record real ones): the Perfetto SDK's track-event sequences
// (src/tracing/track_event_internal.cc and examples/sdk of google/perfetto, v4x: a first packet
// clearing the incremental state with trace_packet_defaults, process/thread track descriptors,
// interned names and categories emitted with the first event that uses them), traced_probes'
// ftrace bundles with atrace `print` events and its process_tree dump (Android 10+ system traces),
// and the service's own packets (trace_config, clock snapshot, trace_stats…) that every trace has.
// Encoded with @bufbuild/protobuf's BinaryWriter; field numbers as core/perfetto/fields.ts.
import { deflateSync } from 'node:zlib';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { parseRowLine } from '../../core/nnapi/row';
import { looksLikeHtml } from '../../core/nnapi/row';
import { PacketSplitter } from '../../core/perfetto/frame';

const LD = WireType.LengthDelimited;
const VI = WireType.Varint;

/** Writes a Trace: each `packet` call appends one TracePacket (field 1). */
export class TraceWriter {
  private readonly w = new BinaryWriter();

  packet(fill: (p: BinaryWriter) => void): this {
    this.w.tag(1, LD).fork();
    fill(this.w);
    this.w.join();
    return this;
  }

  /** Raw bytes appended as they are (for damaged files). */
  raw(b: Uint8Array): this {
    this.w.raw(b);
    return this;
  }

  finish(): Uint8Array {
    return this.w.finish();
  }
}

/** A nested message as field `f`. */
export function msg(w: BinaryWriter, f: number, fill: (w: BinaryWriter) => void): void {
  w.tag(f, LD).fork();
  fill(w);
  w.join();
}

export function str(w: BinaryWriter, f: number, s: string): void {
  w.tag(f, LD).string(s);
}

export function u64(w: BinaryWriter, f: number, v: bigint | number): void {
  w.tag(f, VI).uint64(v);
}

/** The packets the tracing service writes at the start of every trace (their content is not read, only skipped). */
export function servicePackets(t: TraceWriter, seq = 1): void {
  // trace_config (33) with one buffer and one data source, as `perfetto --txt -c` writes it.
  t.packet((p) => {
    msg(p, 33, (c) => {
      msg(c, 1, (b) => u64(b, 1, 63488));
      msg(c, 2, (ds) => msg(ds, 1, (cfg) => str(cfg, 1, 'linux.ftrace')));
      u64(c, 3, 10000);
    });
    u64(p, 10, seq);
  });
  // trace_uuid (89), synchronization_marker (36), system_info (45): skipped by this reader.
  t.packet((p) => {
    msg(p, 89, (u) => {
      u.tag(1, WireType.Bit64).sfixed64(0x1234567890n);
      u.tag(2, WireType.Bit64).sfixed64(0x0fedcba987n);
    });
    u64(p, 10, seq);
  });
  t.packet((p) => {
    p.tag(36, LD).bytes(Uint8Array.from([0x82, 0x47, 0x7a, 0x76, 0xb2, 0x8d, 0x42, 0xba, 0x81, 0xdc, 0x33, 0x32, 0x6d, 0x57, 0xa0, 0x79]));
    u64(p, 10, seq);
  });
  t.packet((p) => {
    msg(p, 45, (si) => msg(si, 1, (u) => {
      str(u, 1, 'Linux');
      str(u, 3, '5.10.107-android13');
      str(u, 4, 'aarch64');
    }));
    u64(p, 10, seq);
  });
}

/** A service ClockSnapshot tying BOOTTIME (6) to REALTIME (1), MONOTONIC (3)… */
export function clockSnapshot(t: TraceWriter, boot: bigint, realtime: bigint, seq = 1): void {
  t.packet((p) => {
    msg(p, 6, (cs) => {
      for (const [id, ts] of [[6, boot], [1, realtime], [3, boot - 1_000_000n]] as const) msg(cs, 1, (c) => {
        u64(c, 1, id);
        u64(c, 2, ts);
      });
      u64(cs, 2, 6);
    });
    u64(p, 8, boot);
    u64(p, 10, seq);
  });
}

/** trace_stats (35) and the service events (69) a trace ends with. */
export function trailerPackets(t: TraceWriter, seq = 1): void {
  t.packet((p) => {
    msg(p, 35, (s) => msg(s, 1, (b) => {
      u64(b, 1, 63488 * 1024);
      u64(b, 2, 1234);
    }));
    u64(p, 10, seq);
  });
  t.packet((p) => {
    msg(p, 69, (s) => s.tag(2, VI).bool(true));
    u64(p, 10, seq);
  });
}

export interface PrintSpec {
  ts: bigint;
  tid: number;
  buf: string;
}

/** ftrace bundles (field 1) of `print` events, one bundle per `perBundle` events, plus a sched_switch per bundle (skipped by the reader). */
export function ftracePrints(t: TraceWriter, prints: readonly PrintSpec[], opts: { seq?: number; perBundle?: number; cpu?: number } = {}): void {
  const per = opts.perBundle ?? 64;
  for (let i = 0; i < prints.length; i += per) {
    const part = prints.slice(i, i + per);
    t.packet((p) => {
      msg(p, 1, (b) => {
        u64(b, 1, opts.cpu ?? 0);
        for (const e of part) {
          msg(b, 2, (ev) => {
            u64(ev, 1, e.ts);
            u64(ev, 2, e.tid);
            msg(ev, 3, (pr) => {
              u64(pr, 1, 0xffffffc010a3b4c0n);
              // The kernel's trace_marker write ends the buffer with a line end.
              str(pr, 2, e.buf.endsWith('\n') ? e.buf : `${e.buf}\n`);
            });
          });
        }
        // A sched_switch (field 4 of FtraceEvent) after them: not modelled, skipped.
        msg(b, 2, (ev) => {
          u64(ev, 1, part[part.length - 1].ts + 1n);
          u64(ev, 2, 0);
          msg(ev, 4, (ss) => {
            str(ss, 1, 'swapper/0');
            u64(ss, 2, 0);
            str(ss, 5, 'kworker/0:1');
            u64(ss, 6, 17);
          });
        });
      });
      u64(p, 10, opts.seq ?? 2);
    });
  }
}

export interface ProcSpec {
  pid: number;
  cmdline: string;
  threads: { tid: number; name: string }[];
}

/** A process_tree packet (field 2) as traced_probes dumps it at the start. */
export function processTree(t: TraceWriter, procs: readonly ProcSpec[], ts: bigint, seq = 3): void {
  t.packet((p) => {
    msg(p, 2, (tree) => {
      for (const pr of procs) msg(tree, 1, (m) => {
        u64(m, 1, pr.pid);
        u64(m, 2, 1);
        str(m, 3, pr.cmdline);
      });
      for (const pr of procs) for (const th of pr.threads) msg(tree, 2, (m) => {
        u64(m, 1, th.tid);
        str(m, 2, th.name);
        u64(m, 3, pr.pid);
      });
    });
    u64(p, 8, ts);
    u64(p, 10, seq);
  });
}

/** `seconds.fraction` as printed by ftrace → exact nanoseconds. */
export function secondsToNs(text: string): bigint {
  const [i, f = ''] = text.split('.');
  return BigInt(i) * 1_000_000_000n + BigInt((f + '000000000').slice(0, 9));
}

const TIME = / (\d+\.\d+): tracing_mark_write: /;

/**
 * The protobuf form of a text systrace, as Perfetto records the same marks: its `tracing_mark_write`
 * rows as ftrace print events (exact nanoseconds, the thread id as pid), and the processes and
 * threads the rows name (task name, tgid column) in a process_tree first. HTML exports: the rows
 * between the trace header and `</script>`, as the text reader takes them.
 */
export function systraceToPerfetto(text: string): Uint8Array {
  const lines = text.split(/\r?\n/);
  const html = looksLikeHtml(lines[0] ?? '');
  let inTrace = !html;
  const prints: PrintSpec[] = [];
  const procs = new Map<number, ProcSpec>();
  for (const line of lines) {
    const r = parseRowLine(line);
    if (!r) continue;
    if (r.kind === 'header') {
      inTrace = true;
      continue;
    }
    if (r.kind === 'script-end') {
      if (html && inTrace) break;
      continue;
    }
    if (!inTrace || r.kind !== 'row') continue;
    const tid = Number(r.pid);
    const tgid = r.tgidColumn !== undefined && /^\s*\d+\s*$/.test(r.tgidColumn) ? Number(r.tgidColumn) : undefined;
    if (tgid !== undefined) {
      let pr = procs.get(tgid);
      if (!pr) procs.set(tgid, (pr = { pid: tgid, cmdline: `/system/bin/proc${tgid}`, threads: [] }));
      if (!pr.threads.some((t) => t.tid === tid)) pr.threads.push({ tid, name: r.task.trim() });
    }
    prints.push({ ts: secondsToNs(TIME.exec(line)![1]), tid, buf: r.mark });
  }
  const t = new TraceWriter();
  servicePackets(t);
  const first = prints[0]?.ts ?? 1_000_000_000n;
  clockSnapshot(t, first, 1_700_000_000_000_000_000n + first);
  processTree(t, [...procs.values()], first);
  ftracePrints(t, prints);
  trailerPackets(t);
  return t.finish();
}

export interface SdkOptions {
  /** Epoch nanoseconds of the first event (the SDK trace's clock is REALTIME here). */
  epochNs?: bigint;
  /** Slices per thread. */
  slices?: number;
  threads?: number;
  /** Write a ClockSnapshot (the fixture of the issue has none). */
  snapshot?: boolean;
}

/**
 * A track-event trace as the Perfetto SDK writes it from an app: per writer thread a sequence whose
 * first packet clears the incremental state and sets trace_packet_defaults (clock, the thread's
 * track), process and thread track descriptors, then slices (TYPE_SLICE_BEGIN/END) with interned
 * names and categories, debug annotations, an instant, and a counter track with its values.
 * Timestamps: epoch nanoseconds on REALTIME (clock 1), without a ClockSnapshot.
 */
export function sdkTrace(o: SdkOptions = {}): Uint8Array {
  const t0 = o.epochNs ?? 1_732_780_800_123_456_789n;
  const nThreads = o.threads ?? 2;
  const nSlices = o.slices ?? 3;
  const pid = 4242;
  const procUuid = 0x5eedn;
  const t = new TraceWriter();
  servicePackets(t);
  if (o.snapshot) clockSnapshot(t, 5_000_000_000n, t0);
  // The process track, written by the first writer.
  t.packet((p) => {
    msg(p, 60, (d) => {
      u64(d, 1, procUuid);
      msg(d, 3, (pd) => {
        u64(pd, 1, pid);
        str(pd, 6, 'com.example.inference');
      });
    });
    u64(p, 10, 10);
    u64(p, 13, 1);
  });
  const counterUuid = 0xc0ffeen;
  for (let k = 0; k < nThreads; k++) {
    const seq = 11 + k;
    const tid = pid + 1 + k;
    const threadUuid = 0x1000n + BigInt(k);
    let ts = t0 + BigInt(k) * 1000n;
    // First packet of the sequence: state cleared, defaults, the thread's descriptor.
    t.packet((p) => {
      msg(p, 60, (d) => {
        u64(d, 1, threadUuid);
        u64(d, 5, procUuid);
        msg(d, 4, (td) => {
          u64(td, 1, pid);
          u64(td, 2, tid);
          str(td, 5, k === 0 ? 'main' : `worker-${k}`);
        });
      });
      msg(p, 59, (def) => {
        u64(def, 58, 1);
        msg(def, 11, (ted) => u64(ted, 11, threadUuid));
      });
      u64(p, 10, seq);
      u64(p, 13, 1);
    });
    const names = ['RunInference', 'LoadModel', 'Invoke'];
    const emitted = new Set<number>();
    for (let i = 0; i < nSlices; i++) {
      const iid = (i % names.length) + 1;
      // Begin with interned name/category (emitted with first use), a debug annotation; then end.
      t.packet((p) => {
        u64(p, 8, ts);
        msg(p, 11, (e) => {
          u64(e, 3, 1);
          u64(e, 10, iid);
          u64(e, 9, 1);
          msg(e, 4, (a) => {
            u64(a, 1, 1);
            u64(a, 4, i);
          });
        });
        if (!emitted.has(iid)) {
          emitted.add(iid);
          msg(p, 12, (d) => {
            if (emitted.size === 1) {
              msg(d, 1, (c) => {
                u64(c, 1, 1);
                str(c, 2, 'inference');
              });
              msg(d, 3, (c) => {
                u64(c, 1, 1);
                str(c, 2, 'batch');
              });
            }
            msg(d, 2, (n) => {
              u64(n, 1, iid);
              str(n, 2, names[iid - 1]);
            });
          });
        }
        u64(p, 10, seq);
        u64(p, 13, 2);
      });
      ts += 1_500_000n;
      if (i === 0) {
        t.packet((p) => {
          u64(p, 8, ts);
          msg(p, 11, (e) => {
            str(e, 23, 'checkpoint');
            u64(e, 9, 3);
          });
          u64(p, 10, seq);
          u64(p, 13, 2);
        });
      }
      t.packet((p) => {
        u64(p, 8, ts + 500_000n);
        msg(p, 11, (e) => u64(e, 9, 2));
        u64(p, 10, seq);
        u64(p, 13, 2);
      });
      ts += 1_000_000n;
    }
  }
  // A counter track and its values (on the first writer's sequence).
  t.packet((p) => {
    msg(p, 60, (d) => {
      u64(d, 1, counterUuid);
      u64(d, 5, procUuid);
      str(d, 2, 'queue depth');
      msg(d, 8, (c) => str(c, 6, 'requests'));
    });
    u64(p, 10, 11);
    u64(p, 13, 2);
  });
  for (let i = 0; i < 4; i++) {
    t.packet((p) => {
      u64(p, 8, t0 + BigInt(i) * 1_000_000n);
      msg(p, 11, (e) => {
        u64(e, 9, 4);
        u64(e, 11, counterUuid);
        e.tag(30, VI).int64(i % 3);
      });
      u64(p, 10, 11);
      u64(p, 13, 2);
    });
  }
  trailerPackets(t);
  return t.finish();
}

/**
 * An Android system trace as `perfetto` records it with the atrace categories on: the service
 * packets, a clock snapshot, traced_probes' process_tree, then ftrace bundles per CPU with atrace
 * marks in print events (nested B/E slices on two threads, a C counter, an S/F async slice).
 */
export function androidSystemTrace(opts: { marks?: number } = {}): Uint8Array {
  const boot = 86_400_000_000_000n;
  const t = new TraceWriter();
  servicePackets(t);
  clockSnapshot(t, boot, 1_732_780_800_000_000_000n);
  processTree(t, [
    { pid: 1234, cmdline: 'com.android.systemui', threads: [{ tid: 1234, name: 'ndroid.systemui' }, { tid: 1250, name: 'RenderThread' }] },
    { pid: 600, cmdline: '/system/bin/surfaceflinger', threads: [{ tid: 600, name: 'surfaceflinger' }] },
  ], boot);
  const prints: PrintSpec[] = [];
  let ts = boot + 1_000_000n;
  const n = opts.marks ?? 1;
  for (let k = 0; k < n; k++) {
    prints.push({ ts, tid: 1234, buf: 'B|1234|Choreographer#doFrame 42' });
    prints.push({ ts: ts + 100_000n, tid: 1234, buf: 'B|1234|traversal' });
    prints.push({ ts: ts + 150_000n, tid: 1250, buf: 'B|1234|DrawFrames 42' });
    prints.push({ ts: ts + 200_000n, tid: 1234, buf: 'C|1234|frames pending|3' });
    prints.push({ ts: ts + 300_000n, tid: 1234, buf: 'E|1234' });
    prints.push({ ts: ts + 400_000n, tid: 1234, buf: 'S|1234|launching: com.example|7' });
    prints.push({ ts: ts + 500_000n, tid: 1234, buf: 'E|1234' });
    prints.push({ ts: ts + 900_000n, tid: 1250, buf: 'E|1234' });
    prints.push({ ts: ts + 950_000n, tid: 600, buf: 'B|600|onMessageInvalidate' });
    prints.push({ ts: ts + 990_000n, tid: 600, buf: 'E|600' });
    prints.push({ ts: ts + 2_000_000n, tid: 1234, buf: 'F|1234|launching: com.example|7' });
    ts += 3_000_000n;
  }
  ftracePrints(t, prints, { perBundle: 100 });
  trailerPackets(t);
  return t.finish();
}

/** A trace with no events: only the packets the service writes (what a session with no data source started leaves). */
export function emptyTrace(): Uint8Array {
  const t = new TraceWriter();
  servicePackets(t);
  clockSnapshot(t, 5_000_000_000n, 1_732_780_800_000_000_000n);
  trailerPackets(t);
  return t.finish();
}

/**
 * A trace as the tracing service writes it with `compression_type: COMPRESSION_TYPE_DEFLATE`
 * (google/perfetto `src/tracing/service/zlib_compressor.cc`): the packets, `perPacket` at a time,
 * re-serialized as a `Trace` (each with its field-1 header), zlib-deflated into the
 * `compressed_packets` field (50) of a packet that holds nothing else.
 */
export function deflatedTrace(trace: Uint8Array, perPacket: number): Uint8Array {
  const packets: Uint8Array[] = [];
  new PacketSplitter((b, at, bodyAt) => packets.push(trace.slice(at, bodyAt + b.length))).feed(trace);
  const t = new TraceWriter();
  for (let i = 0; i < packets.length; i += perPacket) {
    const batch = packets.slice(i, i + perPacket);
    const inner = new Uint8Array(batch.reduce((n, b) => n + b.length, 0));
    let p = 0;
    for (const b of batch) {
      inner.set(b, p);
      p += b.length;
    }
    t.packet((w) => w.tag(50, LD).bytes(deflateSync(inner)));
  }
  return t.finish();
}
