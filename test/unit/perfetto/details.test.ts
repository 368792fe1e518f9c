import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { MAX_DETAIL_CHARS, MAX_DETAIL_ROWS, PacketLocator, packetFields } from '../../../core/perfetto/packetDetails';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import { androidSystemTrace, ftracePrints, msg, sdkTrace, str, TraceWriter } from '../../gen/perfettoGen';

/** The details rows of the packets holding `offsets` of a whole trace. */
function located(bytes: Uint8Array, offsets: number[], piece = bytes.length): [string, string][][] {
  const loc = new PacketLocator(offsets);
  for (let p = 0; p < bytes.length && !loc.done; p += piece) loc.feed(bytes.subarray(p, p + piece));
  return offsets.map((o) => loc.fields(o));
}

const get = (rows: [string, string][], key: string) => rows.find(([k]) => k === key)?.[1];
const byKey = (rows: [string, string][], re: RegExp) => rows.filter(([k]) => re.test(k)).map(([, v]) => v);

describe('perfetto details pane: the packet at a clicked item\'s byte offset', () => {
  it('an atrace slice of an Android system trace: its begin and end ftrace events, with the byte offsets the model keeps', () => {
    const bytes = androidSystemTrace();
    const m = perfettoTimeline(bytes);
    const k = Array.from(m.items.name).findIndex((n) => m.strings[n] === 'traversal');
    const [begin, end] = [m.chars!.char[k], m.chars!.endChar[k]];
    // Fed in pieces of any size (packets cut across them), as the worker streams the file.
    for (const piece of [bytes.length, 7, 1]) {
      const [b, e] = located(bytes, [begin, end], piece);
      assert.equal(get(b, 'byte offset'), String(begin));
      assert.deepEqual(byKey(b, /print\.buf$/), [JSON.stringify('B|1234|traversal\n')]);
      assert.deepEqual(byKey(e, /print\.buf$/), [JSON.stringify('E|1234\n')]);
      assert.deepEqual(byKey(b, /\.pid$/), ['1234']);
      assert.match(get(b, 'ftrace_events.event') ?? '', new RegExp(`the one at byte ${begin} is shown`));
      assert.match(get(b, 'packet') ?? '', /^bytes \d+–\d+ \(\d+ bytes of fields\)$/);
    }
  });

  it('an SDK track event: the packet\'s own fields, interned names and the event type by name', () => {
    const bytes = sdkTrace();
    const m = perfettoTimeline(bytes);
    const k = Array.from(m.items.name).findIndex((n) => m.strings[n] === 'RunInference');
    const [rows] = located(bytes, [m.chars!.char[k]]);
    assert.equal(get(rows, 'track_event.type'), 'TYPE_SLICE_BEGIN');
    assert.ok(byKey(rows, /^interned_data\.event_names\.name$/).includes('"RunInference"'), JSON.stringify(rows));
    assert.equal(get(rows, 'timestamp'), '1732780800123456789', '64-bit timestamps shown exactly');
  });

  it('is bounded: a bundle of 5000 prints shows one event, a 1 MB mark is cut, controls and bidi characters are made visible', () => {
    const t = new TraceWriter();
    const prints = Array.from({ length: 5000 }, (_, i) => ({ ts: BigInt(1000 + i), tid: 7, buf: i === 4321 ? `B|7|${'x'.repeat(1 << 20)}` : i === 10 ? 'B|7|a\u202eb\u001b[31m' : 'E|7' }));
    ftracePrints(t, prints, { perBundle: 5000 });
    const bytes = t.finish();
    const m = perfettoTimeline(bytes);
    const long = Array.from(m.items.name).findIndex((n) => m.strings[n].length > 1000);
    const [rows] = located(bytes, [m.chars!.char[long]]);
    assert.ok(rows.length <= MAX_DETAIL_ROWS + 1);
    const buf = byKey(rows, /print\.buf$/);
    assert.equal(buf.length, 1);
    assert.ok(buf[0].length < MAX_DETAIL_CHARS + 20 && buf[0].includes('xxx…'), buf[0].slice(0, 40));
    // 5000 prints and the sched_switch the generator writes per bundle, as traced_probes does.
    assert.match(get(rows, 'ftrace_events.event') ?? '', /^5001 events/);
    const bidi = Array.from(m.items.name).findIndex((n) => m.strings[n].startsWith('a'));
    const [b] = located(bytes, [m.chars!.char[bidi]]);
    const shown = byKey(b, /print\.buf$/)[0];
    assert.ok(!shown.includes(String.fromCharCode(0x202e)) && !shown.includes(String.fromCharCode(0x1b)), shown);
    assert.ok(shown.includes('\\u202e') && shown.includes('\\u001b'), shown);
  });

  it('hostile packets: 100-deep nesting, a field run past its end, a packet claiming 2^60 bytes', () => {
    // 100 nested unknown messages: shown to a bounded depth.
    let inner = new Uint8Array([8, 1]);
    for (let d = 0; d < 100; d++) inner = new BinaryWriter().tag(900, WireType.LengthDelimited).bytes(inner).finish();
    const deep = packetFields(inner, 0, 0, 0);
    assert.ok(deep.some(([, v]) => v === '{…}'), JSON.stringify(deep.slice(0, 3)));
    // A field that claims more bytes than the packet has: what came before, and a row saying so.
    const cut = packetFields(new Uint8Array([0x40, 5, 0x5a, 50, 1, 2]), 0, 2, 0);
    assert.equal(get(cut, 'timestamp'), '5');
    assert.match(get(cut, 'error') ?? '', /not well-formed/);
    // 2^60 bytes claimed: the packet is skipped by the splitter, never read; the row says why.
    const huge = new Uint8Array([0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 2, 3]);
    const [rows] = located(huge, [0]);
    assert.match(get(rows, 'packet') ?? '', /no readable packet/);
    // A zero-length trace: nothing holds the offset.
    assert.match(get(located(new Uint8Array(0), [0])[0], 'packet') ?? '', /no readable packet/);
  });

  it('unknown fields by number: text as a string, a message as its fields, other bytes as hex', () => {
    const t = new TraceWriter();
    t.packet((w) => {
      str(w, 877, 'hello');
      msg(w, 878, (s) => s.tag(3, 0).uint32(42));
      w.tag(879, 2).bytes(new Uint8Array([0xff, 0xfe, 0x00]));
    });
    const rows = located(t.finish(), [0])[0];
    assert.equal(get(rows, '#877'), '"hello"');
    assert.equal(get(rows, '#878.#3'), '42');
    assert.equal(get(rows, '#879'), '<3 bytes: ff fe 00>');
  });

  it('the NNAPI fixture: a mark\'s packet at its offset', () => {
    const bytes = new Uint8Array(readFileSync('test/fixtures/real/perfetto/nnapi-mobilenet.perfetto-trace'));
    const m = perfettoTimeline(bytes);
    const k = Array.from(m.items.name).findIndex((n) => m.strings[n] === '[NN_LA_PO]mobilenet');
    const [rows] = located(bytes, [m.chars!.char[k]]);
    assert.deepEqual(byKey(rows, /print\.buf$/), [JSON.stringify('B|100|[NN_LA_PO]mobilenet\n')]);
  });
});
