// Generated Perfetto track events with debug annotations of every kind, laid out as the writers lay
// them out (google/perfetto, SDK v4x): `TRACE_EVENT("cat", "name", "arg", value, …)` writes one
// `DebugAnnotation` per argument with `name_iid` interned in the sequence's
// `InternedData.debug_annotation_names` (in the packet that first uses the name) and the value by
// its C++ type (src/tracing/traced_value.cc: int64 → int_value, uint64 → uint_value, double,
// bool, const char* / std::string → string_value, a pointer → pointer_value; a TracedDictionary's
// items → dict_entries with a plain `name`, a TracedArray's → array_values); a `DynamicString` name
// is written plain (`name`). Older writers: Chrome's legacy ConvertableToTraceFormat
// (`legacy_json_value`) and its 2019–2021 `nested_value`; writers that intern string values
// (Trace Processor's own converters) use `string_value_iid` from `debug_annotation_string_values`.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { msg, servicePackets, str, TraceWriter, u64 } from './perfettoGen';

const SEQ = 21;
const TRACK = 0x2000n;
export const ARGS_T0 = 1_732_780_800_000_000_000n;

function f64(w: BinaryWriter, f: number, x: number): void {
  w.tag(f, WireType.Bit64).double(x);
}

function i64(w: BinaryWriter, f: number, x: bigint | number): void {
  w.tag(f, WireType.Varint).int64(x);
}

/** One annotation as field 4 of a TrackEvent: `fill` writes its name and value. */
export function annotation(e: BinaryWriter, fill: (a: BinaryWriter) => void): void {
  msg(e, 4, fill);
}

/** The first packet of the writer's sequence: state cleared, REALTIME defaults, the thread's track. */
export function argsSequenceStart(t: TraceWriter): void {
  t.packet((p) => {
    msg(p, 60, (d) => {
      u64(d, 1, TRACK);
      msg(d, 4, (td) => {
        u64(td, 1, 7000);
        u64(td, 2, 7001);
        str(td, 5, 'inference-worker');
      });
    });
    msg(p, 59, (def) => {
      u64(def, 58, 1);
      msg(def, 11, (ted) => u64(ted, 11, TRACK));
    });
    u64(p, 10, SEQ);
    u64(p, 13, 1);
  });
}

/** A track event packet of the writer's sequence; `interned` writes the packet's interned_data (12). */
export function argsEvent(t: TraceWriter, ts: bigint, fill: (e: BinaryWriter) => void, interned?: (d: BinaryWriter) => void): void {
  t.packet((p) => {
    u64(p, 8, ts);
    msg(p, 11, fill);
    if (interned) msg(p, 12, interned);
    u64(p, 10, SEQ);
    u64(p, 13, 2);
  });
}

/** An interned entry (`iid` 1, `name`/`str` 2) in list `f` of InternedData. */
export function internedEntry(d: BinaryWriter, f: number, iid: number, name: string): void {
  msg(d, f, (x) => {
    u64(x, 1, iid);
    str(x, 2, name);
  });
}

/** The annotation names the SDK interns, by iid. */
export const ARG_NAMES = ['batch', 'count', 'ok', 'scale', 'model', 'buffer', 'config', 'shape', 'legacy', 'legacy_text', 'nested', 'device', 'delta', 'status', 'where'];
const iidOf = (name: string) => ARG_NAMES.indexOf(name) + 1;

/**
 * A REALTIME SDK trace: `TRACE_EVENT("inference", "Invoke", …)` with an argument of every kind, its
 * `TRACE_EVENT_END` with one of its own (`status`), and a `TRACE_EVENT_INSTANT` with one (`where`).
 */
export function sdkArgsTrace(): Uint8Array {
  const t = new TraceWriter();
  servicePackets(t);
  argsSequenceStart(t);
  argsEvent(t, ARGS_T0, (e) => {
    u64(e, 3, 1);
    u64(e, 10, 1);
    u64(e, 9, 1);
    const named = (name: string, value: (a: BinaryWriter) => void) => annotation(e, (a) => {
      u64(a, 1, iidOf(name));
      value(a);
    });
    named('batch', (a) => i64(a, 4, 8));
    named('delta', (a) => i64(a, 4, -3));
    named('count', (a) => u64(a, 3, 18446744073709551615n));
    named('ok', (a) => a.tag(2, WireType.Varint).bool(true));
    named('scale', (a) => f64(a, 5, 0.5));
    named('model', (a) => str(a, 6, 'mobilenet_v2 "quant"\n'));
    named('buffer', (a) => u64(a, 7, 0xdeadbeefn));
    named('config', (a) => {
      msg(a, 11, (x) => {
        str(x, 10, 'threads');
        i64(x, 4, 4);
      });
      msg(a, 11, (x) => {
        str(x, 10, 'delegate');
        str(x, 6, 'nnapi');
      });
      msg(a, 11, (x) => {
        str(x, 10, 'dims');
        for (const d of [1, 224]) msg(x, 12, (y) => i64(y, 4, d));
      });
    });
    named('shape', (a) => {
      for (const d of [1, 224, 224, 3]) msg(a, 12, (y) => i64(y, 4, d));
    });
    named('legacy', (a) => str(a, 9, '{"a":[1,2],"b":null}'));
    named('legacy_text', (a) => str(a, 9, '{not json'));
    named('nested', (a) => msg(a, 8, (n) => {
      u64(n, 1, 1);
      str(n, 2, 'k');
      msg(n, 3, (v) => i64(v, 5, 5));
      str(n, 2, 'list');
      msg(n, 3, (v) => {
        u64(v, 1, 2);
        msg(v, 4, (x) => f64(x, 6, 1.5));
        msg(v, 4, (x) => x.tag(7, WireType.Varint).bool(false));
        msg(v, 4, (x) => str(x, 8, 's'));
      });
    }));
    named('device', (a) => u64(a, 17, 1));
    // A DynamicString name: written plain.
    annotation(e, (a) => {
      str(a, 10, 'dynamic name');
      str(a, 6, 'yes');
    });
  }, (d) => {
    internedEntry(d, 1, 1, 'inference');
    internedEntry(d, 2, 1, 'Invoke');
    ARG_NAMES.forEach((n, k) => internedEntry(d, 3, k + 1, n));
    internedEntry(d, 29, 1, 'npu0');
  });
  argsEvent(t, ARGS_T0 + 1_000_000n, (e) => {
    str(e, 23, 'checkpoint');
    u64(e, 9, 3);
    annotation(e, (a) => {
      u64(a, 1, iidOf('where'));
      str(a, 6, 'after load');
    });
  });
  argsEvent(t, ARGS_T0 + 2_000_000n, (e) => {
    u64(e, 9, 2);
    annotation(e, (a) => {
      u64(a, 1, iidOf('status'));
      str(a, 6, 'ok');
    });
  });
  return t.finish();
}

/** What sdkArgsTrace's slice has as its arguments (its end's `status` added), as JSON. */
export const SDK_ARGS_SLICE = {
  batch: 8,
  delta: -3,
  count: '18446744073709551615',
  ok: true,
  scale: 0.5,
  model: 'mobilenet_v2 "quant"\n',
  buffer: '0xdeadbeef',
  config: { threads: 4, delegate: 'nnapi', dims: [1, 224] },
  shape: [1, 224, 224, 3],
  legacy: { a: [1, 2], b: null },
  legacy_text: '{not json',
  nested: { k: 5, list: [1.5, false, 's'] },
  device: 'npu0',
  'dynamic name': 'yes',
  status: 'ok',
};

/** One slice whose single annotation `fill` writes (plain name `a`): for the bounds of hostile values. */
export function oneArgTrace(fill: (e: BinaryWriter) => void): Uint8Array {
  const t = new TraceWriter();
  argsSequenceStart(t);
  argsEvent(t, ARGS_T0, (e) => {
    str(e, 23, 'x');
    u64(e, 9, 3);
    fill(e);
  });
  return t.finish();
}
