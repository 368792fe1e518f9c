import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { parseMark, markText } from '../../../core/perfetto/atrace';
import { looksLikePerfettoProto } from '../../../core/perfetto/detect';
import { PerfettoReader, type PerfettoSink } from '../../../core/perfetto/reader';
import { androidSystemTrace, emptyTrace, ftracePrints, msg, sdkTrace, str, TraceWriter, u64 } from '../../gen/perfettoGen';

interface Seen {
  slices: { track: number; start: number; end: number; name: string; category: string; at: number; endAt: number; args?: string }[];
  instants: { track: number; t: number; name: string }[];
  counters: { track: number; t: number; v: number }[];
  lonely: number;
}

function read(bytes: Uint8Array, piece = bytes.length || 1): { r: PerfettoReader; seen: Seen; codes: string[]; messages: string[] } {
  const seen: Seen = { slices: [], instants: [], counters: [], lonely: 0 };
  const sink: PerfettoSink = {
    slice: (track, start, end, name, category, at, endAt, args) => seen.slices.push({ track, start, end, name, category, at, endAt, args }),
    instant: (track, t, name) => seen.instants.push({ track, t, name }),
    lonelyEnd: () => seen.lonely++,
    counter: (track, t, v) => seen.counters.push({ track, t, v }),
  };
  const r = new PerfettoReader(sink);
  for (let i = 0; i < bytes.length; i += piece) r.feed(bytes.subarray(i, i + piece));
  const d = r.end().diagnostics;
  return { r, seen, codes: d.map((x) => x.code), messages: d.map((x) => x.message) };
}

const SEQ = 7;
/** A track event packet on sequence SEQ. */
function event(t: TraceWriter, ts: bigint, fill: (e: BinaryWriter) => void, flags = 2, extra?: (p: BinaryWriter) => void): void {
  t.packet((p) => {
    u64(p, 8, ts);
    msg(p, 11, fill);
    extra?.(p);
    u64(p, 10, SEQ);
    u64(p, 13, flags);
  });
}

describe('perfetto reader: framing', () => {
  it('reads the same model whatever the pieces the bytes come in', () => {
    const bytes = androidSystemTrace({ marks: 3 });
    const whole = read(bytes);
    assert.equal(whole.seen.slices.length, 15);
    for (const piece of [1, 2, 3, 5, 13, 64, 1000]) {
      const r = read(bytes, piece);
      assert.deepEqual(r.seen, whole.seen, `pieces of ${piece}`);
      assert.deepEqual(r.codes, whole.codes);
    }
  });

  it('a trace cut inside a packet: what came before is read, and the cut is an error at its packet', () => {
    const bytes = androidSystemTrace();
    const cut = read(bytes.subarray(0, bytes.length - 40));
    assert.ok(cut.codes.includes('perfetto.truncated-packet'));
    assert.match(cut.messages.find((m) => m.includes('claims'))!, /the file ends after \d+/);
    // A header cut in its length varint.
    const t = new TraceWriter().finish();
    assert.deepEqual(read(Uint8Array.from([...t, 0x0a, 0x80])).codes, ['perfetto.truncated-packet']);
  });

  it('a packet claiming 2^60 bytes is skipped without reading it into memory', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).uint64(2n ** 60n);
    const bytes = Uint8Array.from([...w.finish(), 1, 2, 3]);
    const r = read(bytes, 2);
    assert.ok(r.codes.includes('perfetto.packet-too-large'));
    assert.match(r.messages[0], /claims 1152921504606846976 bytes/);
  });

  it('bytes that are no field stop the reading with one error', () => {
    const good = emptyTrace();
    const r = read(Uint8Array.from([...good, 0x0c, 0x0a, 0x02, 0x08, 0x01]));
    assert.deepEqual(r.codes, ['perfetto.bad-framing'], 'no empty-trace beside it: the rest was not read');
  });

  it('a malformed packet is reported and skipped; the next ones are read', () => {
    const t = new TraceWriter();
    t.packet((p) => p.tag(2, WireType.LengthDelimited).raw(Uint8Array.from([0x05, 0x0a])));
    ftracePrints(t, [{ ts: 5n, tid: 9, buf: 'B|9|x' }, { ts: 6n, tid: 9, buf: 'E|9' }]);
    const r = read(t.finish());
    assert.deepEqual(r.codes, ['perfetto.malformed-packet']);
    assert.equal(r.seen.slices.length, 1);
  });

  it('a zero-length file and a trace of service packets only are empty traces, not errors', () => {
    assert.deepEqual(read(new Uint8Array(0)).codes, ['perfetto.empty-trace']);
    const e = read(emptyTrace());
    assert.deepEqual(e.codes, ['perfetto.empty-trace']);
    assert.match(e.messages[0], /holds 7 packets but no events/);
  });

  it('skips fields it does not model (newer packets, unknown fields inside known messages)', () => {
    const t = new TraceWriter();
    t.packet((p) => {
      msg(p, 76, (f) => u64(f, 1, 5));
      str(p, 900, 'for_testing');
      u64(p, 79, 1234);
      p.tag(98, WireType.Bit32).fixed32(1);
    });
    ftracePrints(t, [{ ts: 5n, tid: 9, buf: 'B|9|x' }, { ts: 6n, tid: 9, buf: 'E|9' }]);
    const r = read(t.finish());
    assert.deepEqual(r.codes, []);
    assert.equal(r.seen.slices[0].name, 'x');
  });

  it('flags compressed packets instead of reading garbage', () => {
    const t = new TraceWriter();
    t.packet((p) => p.tag(50, WireType.LengthDelimited).bytes(Uint8Array.from([0x78, 0x9c, 1, 2])));
    assert.deepEqual(read(t.finish()).codes, ['perfetto.compressed-packets', 'perfetto.empty-trace']);
  });
});

describe('perfetto reader: atrace marks in ftrace print events', () => {
  it('reads B/E per thread with nesting, C counters, S/F async slices and process_tree names', () => {
    const { r, seen, codes } = read(androidSystemTrace());
    assert.deepEqual(codes, []);
    const byName = Object.fromEntries(seen.slices.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(byName).sort(), ['Choreographer#doFrame 42', 'DrawFrames 42', 'launching: com.example', 'onMessageInvalidate', 'traversal']);
    assert.equal(byName.traversal.start, 100_000);
    assert.equal(byName.traversal.end, 300_000);
    assert.equal(byName['Choreographer#doFrame 42'].end, 500_000);
    assert.equal(r.tracks[byName['DrawFrames 42'].track].tid, 1250);
    assert.equal(r.tracks[byName['DrawFrames 42'].track].pid, 1234);
    assert.equal(r.tracks[byName['launching: com.example'].track].kind, 'async');
    assert.deepEqual(seen.counters.map((c) => c.v), [3]);
    assert.equal(r.processNames.get(1234), 'com.android.systemui');
    assert.equal(r.threadNames.get(1250), 'RenderThread');
  });

  it('reports an E with no B and a B never closed, per thread', () => {
    const t = new TraceWriter();
    ftracePrints(t, [{ ts: 1n, tid: 5, buf: 'E|5' }, { ts: 2n, tid: 6, buf: 'B|6|open' }, { ts: 3n, tid: 5, buf: 'B|5|a' }, { ts: 4n, tid: 5, buf: 'E|5' }, { ts: 5n, tid: 6, buf: 'C|6|c|' }]);
    const r = read(t.finish());
    assert.deepEqual(r.codes.sort(), ['perfetto.counter-without-value', 'perfetto.unclosed-slice', 'perfetto.unmatched-end']);
    assert.equal(r.seen.lonely, 1);
    const open = r.seen.slices.find((s) => s.name === 'open')!;
    assert.ok(Number.isNaN(open.end));
  });

  it('parses the mark forms', () => {
    assert.deepEqual(parseMark('B|12|name|with|bars'), { kind: 'B', pid: 12, name: 'name|with|bars' });
    assert.deepEqual(parseMark('E'), { kind: 'E', pid: undefined });
    assert.deepEqual(parseMark('E|12'), { kind: 'E', pid: 12 });
    assert.deepEqual(parseMark('C|12|q|-3.5'), { kind: 'C', pid: 12, name: 'q', value: -3.5 });
    assert.deepEqual(parseMark('C|12|q|x'), { kind: 'C', pid: 12, name: 'q', value: undefined });
    assert.deepEqual(parseMark('S|12|load|7'), { kind: 'S', pid: 12, name: 'load', cookie: '7' });
    assert.deepEqual(parseMark('N|12|track|hit'), { kind: 'I', pid: 12, name: 'hit' });
    assert.equal(parseMark('Hello kernel'), undefined);
    assert.equal(markText('B|1|x\n'), 'B|1|x');
  });
});

describe('perfetto reader: SDK track events', () => {
  it('reads slices, instants and counters with interned names, categories and debug annotations', () => {
    const { r, seen, codes } = read(sdkTrace());
    assert.deepEqual(codes, []);
    assert.equal(seen.slices.length, 6);
    assert.deepEqual(seen.slices.map((s) => s.name), ['RunInference', 'LoadModel', 'Invoke', 'RunInference', 'LoadModel', 'Invoke']);
    assert.ok(seen.slices.every((s) => s.category === 'inference'));
    assert.deepEqual(JSON.parse(seen.slices[1].args!), { batch: 1 });
    assert.deepEqual(seen.instants.map((i) => i.name), ['checkpoint', 'checkpoint']);
    assert.deepEqual(seen.counters.map((c) => c.v), [0, 1, 2, 0]);
    assert.equal(r.tracks[seen.counters[0].track].unit, 'requests');
    assert.equal(r.threadNames.get(4244), 'worker-1');
    assert.equal(r.processNames.get(4242), 'com.example.inference');
  });

  it('keeps epoch nanoseconds exact: 1 ns apart at 1.7e18 ns is 1 ns apart', () => {
    const t = new TraceWriter();
    const t0 = 1_732_780_800_123_456_789n;
    event(t, t0, (e) => {
      str(e, 23, 'a');
      u64(e, 9, 1);
    }, 1, (p) => msg(p, 59, (d) => u64(d, 58, 1)));
    event(t, t0 + 1n, (e) => u64(e, 9, 2));
    event(t, t0 + 2n, (e) => {
      str(e, 23, 'b');
      u64(e, 9, 3);
    });
    const { seen, codes } = read(t.finish());
    assert.deepEqual(codes, []);
    assert.deepEqual([seen.slices[0].start, seen.slices[0].end, seen.instants[0].t], [0, 1, 2]);
  });

  it('an iid the sequence never interned is reported and shown as #iid', () => {
    const t = new TraceWriter();
    event(t, 10n, (e) => {
      u64(e, 10, 7);
      u64(e, 9, 3);
    }, 1);
    const { seen, codes } = read(t.finish());
    assert.deepEqual(codes, ['perfetto.unknown-interned-id']);
    assert.equal(seen.instants[0].name, '#7');
  });

  it('clearing the incremental state forgets interned names; a sequence never cleared skips events needing it', () => {
    const t = new TraceWriter();
    const intern = (p: BinaryWriter) => msg(p, 12, (d) => msg(d, 2, (n) => {
      u64(n, 1, 1);
      str(n, 2, 'named');
    }));
    event(t, 10n, (e) => {
      u64(e, 10, 1);
      u64(e, 9, 3);
    }, 1, intern);
    event(t, 20n, (e) => {
      u64(e, 10, 1);
      u64(e, 9, 3);
    }, 1);
    const { seen, codes } = read(t.finish());
    assert.deepEqual(seen.instants.map((i) => i.name), ['named', '#1']);
    assert.deepEqual(codes, ['perfetto.unknown-interned-id']);
    const never = new TraceWriter();
    event(never, 10n, (e) => {
      str(e, 23, 'x');
      u64(e, 9, 3);
    }, 2);
    event(never, 11n, (e) => {
      str(e, 23, 'y');
      u64(e, 9, 3);
    }, 2);
    const n = read(never.finish());
    assert.deepEqual(n.codes, ['perfetto.needs-incremental-state']);
    assert.equal(n.seen.instants.length, 0);
  });

  it('a counter event without a value is reported', () => {
    const t = new TraceWriter();
    event(t, 10n, (e) => u64(e, 9, 4), 1);
    assert.deepEqual(read(t.finish()).codes, ['perfetto.counter-without-value']);
  });
});

describe('perfetto reader: clocks', () => {
  it('never shares an origin between clocks no snapshot relates, and says so', () => {
    const t = new TraceWriter();
    event(t, 1_700_000_000_000_000_000n, (e) => {
      str(e, 23, 'sdk');
      u64(e, 9, 3);
    }, 1, (p) => msg(p, 59, (d) => u64(d, 58, 1)));
    ftracePrints(t, [{ ts: 5_000_000_000n, tid: 9, buf: 'I|9|boot' }]);
    const { r, seen, codes } = read(t.finish());
    assert.deepEqual(codes, ['perfetto.unrelated-clocks']);
    // Each from its own first event.
    assert.deepEqual(seen.instants.map((i) => i.t), [0, 0]);
    assert.notEqual(r.tracks[0].domain, r.tracks[1].domain);
  });

  it('with a ClockSnapshot, REALTIME events are placed on the boot-time axis of ftrace', () => {
    const t = new TraceWriter();
    t.packet((p) => {
      msg(p, 6, (cs) => {
        msg(cs, 1, (c) => {
          u64(c, 1, 6);
          u64(c, 2, 5_000_000_000n);
        });
        msg(cs, 1, (c) => {
          u64(c, 1, 1);
          u64(c, 2, 1_700_000_000_000_000_000n);
        });
      });
      u64(p, 10, 1);
    });
    ftracePrints(t, [{ ts: 5_000_000_000n, tid: 9, buf: 'I|9|boot' }]);
    event(t, 1_700_000_000_000_000_500n, (e) => {
      str(e, 23, 'sdk');
      u64(e, 9, 3);
    }, 1, (p) => msg(p, 59, (d) => u64(d, 58, 1)));
    const { seen, codes } = read(t.finish());
    assert.deepEqual(codes, []);
    assert.deepEqual(seen.instants.map((i) => [i.name, i.t]), [['boot', 0], ['sdk', 500]]);
  });
});

describe('perfetto: recognised by content and name', () => {
  it('takes generated traces by content whatever their name, and text never', () => {
    for (const b of [sdkTrace(), androidSystemTrace(), emptyTrace()]) assert.ok(looksLikePerfettoProto('capture.bin', b.subarray(0, 4096)));
    const enc = (s: string) => new TextEncoder().encode(s);
    assert.equal(looksLikePerfettoProto('a.txt', enc('\n# tracer: nop\n  task-1 ( 1) [000] ...1 1.0: tracing_mark_write: B|1|x\n')), false);
    assert.equal(looksLikePerfettoProto('a.json', enc('\n{"traceEvents": []}')), false);
    assert.equal(looksLikePerfettoProto('a.systrace', enc('# tracer: nop\n')), false);
    assert.equal(looksLikePerfettoProto('trace.perfetto-trace', enc('\n# not a trace\n')), false);
  });
  it('takes the usual names, gzipped too, and an empty file by its name only', () => {
    assert.ok(looksLikePerfettoProto('x.pftrace.gz', Uint8Array.from([0x1f, 0x8b, 8, 0])));
    assert.ok(looksLikePerfettoProto('x.perfetto-trace', new Uint8Array(0)));
    assert.ok(looksLikePerfettoProto('x.perfetto', new Uint8Array(0)));
    assert.equal(looksLikePerfettoProto('x.bin', new Uint8Array(0)), false);
    assert.equal(looksLikePerfettoProto('x.json.gz', Uint8Array.from([0x1f, 0x8b, 8, 0])), false);
  });
});
