import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fastTraceBytes } from '../../../core/trace/fastBytes';
import { parseTraceLine } from '../../../core/trace/parseLine';
import { locate } from '../../../core/trace/locate';
import { TraceDocument } from '../../../core/trace/document';
import { traceFormat } from '../../../core/trace/descriptor';

const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b).toString('utf8', s, e);
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

const TYPES = ['CMD_ENQUEUE', 'CMD_START', 'CMD_END', 'JOB_ISSUE', 'JOB_DONE', 'DMA_START', 'DMA_END', 'TE_START', 'TE_END', 'VE_START', 'VE_END',
  'SRAM_ACCESS', 'SRAM_CONFLICT', 'DRAM_TX_START', 'DRAM_TX_END', 'NOC_TX_START', 'NOC_TX_END', 'IRQ_EMIT', 'TOKEN_COMPLETE', 'ERROR', 'WARN', 'TRACE_META', 'BOGUS'];
const KEYS = ['t_cycle', 'cmd_id', 'job_id', 'tx_id', 'latency_cycles', 'cmd_type', 'status', 'channel', 'direction', 'size_bytes', 'access_type', 'bank_id',
  'by', 'num_requests', 'link_id', 'token', 'version', 'layer_id', 'phase', 't_ns', 'source', 'extra', 'component', 'code', 'msg'];
const VALUES = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }), fc.constantFrom(0, 1.5, -0.5, 1e3, 2 ** 53, 2 ** 60, 2 ** 64, -(2 ** 64), 1e21, 'OK', 'FAIL', 'READ', 'TE', 'ISA', 'DRAM_TO_SRAM', 'x\\"y', 'é', '\t'),
  fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null), fc.constant([1]), fc.constant({ a: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Raw text of nested values, some of which JSON.parse rejects: the fast path must not certify those. */
const NESTED_TEXT = fc.constantFrom('{"q":1}', '{ "a" : [ 1 , -2.5e3 , true ] , "b" : { } }', '[]', '[[[]]]', '{"a":null}', '[1,"x",{"y":false}]',
  '{,}', '{"a"}', '{"a":}', '[1,]', '[,1]', '{"a":1,}', '{"a":1 "b":2}', '[1 2]', '{"a":[}', '{"a":-}', '{"a":01}', '{"a":1.}', '{"a":.5}',
  '{"a":tru}', '{"a":"x\\u0041"}', '{"a":"é"}', '{"a":1}}', '[1]]', '{"a":[1}', '{"a" 1}', '{"a":1e}', '{"a":--1}', '[' .repeat(70) + ']'.repeat(70),
  // SRAM_CONFLICT's stalled_clients (an array of enum strings, which the fast path checks), good and bad.
  '["DMA"]', '[ "TE" , "VE","DMA" ]', '["TE","TE"]', '["te"]', '["T"]', '["TEX"]', '["TE",]', '["TE" "VE"]', '["TE",1]', '[null]', '["TE",["VE"]]',
  '["T\\u0045"]', '["VE"', '{"TE":1}', '[ ]', '[\t"VE"\t]');

const TEMPLATES: Record<string, unknown>[] = [
  { event_type: 'CMD_ENQUEUE', t_cycle: 100, cmd_id: 42, cmd_type: 'MATMUL', source: 'ISA', token: 10, layer_id: 3, phase: 'QKV_PROJ' },
  { event_type: 'CMD_START', t_cycle: 150, cmd_id: 42 },
  { event_type: 'CMD_END', t_cycle: 900, cmd_id: 42, status: 'OK' },
  { event_type: 'JOB_ISSUE', t_cycle: 200, job_id: 1001, cmd_id: 42, job_type: 'TE_GEMM', tile_id: 5, vec_chunk_id: null },
  { event_type: 'JOB_DONE', t_cycle: 260, job_id: 1001, cmd_id: 42, latency_cycles: 60 },
  { event_type: 'DMA_START', t_cycle: 210, tx_id: 500, channel: 0, direction: 'DRAM_TO_SRAM', size_bytes: 65536, cmd_id: 42 },
  { event_type: 'DMA_END', t_cycle: 260, tx_id: 500, channel: 0 },
  { event_type: 'TE_START', t_cycle: 230, job_id: 1001, m: 128, n: 128, k: 256 },
  { event_type: 'TE_END', t_cycle: 280, job_id: 1001, mac_count: 4194304, latency_cycles: 50 },
  { event_type: 'SRAM_ACCESS', t_cycle: 235, addr: 8192, bank_id: 1, access_type: 'READ', by: 'TE', conflict: false },
  { event_type: 'SRAM_CONFLICT', t_cycle: 231, bank_id: 3, num_requests: 2, allowed: 1, stalled_clients: ['DMA', 'TE'], cmd_id: 1 },
  { event_type: 'NOC_TX_START', t_cycle: 218, tx_id: 500, link_id: 0, size_bytes: 65536, t_ns: 12.5 },
  { event_type: 'TOKEN_COMPLETE', t_cycle: 900, token: 10, status: 'OK' },
  { event_type: 'WARN', t_cycle: 700, component: 'TE', code: 'LOW_UTIL', msg: 'low' },
];

/** Mostly undefined: most generated lines keep a valid shape so the fast path is exercised. */
const rarely = <T>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: a, weight: 1 });

// A line: a valid event, then maybe a field changed, added or dropped, reordered, spaced or cut short.
const LINE = fc.record({
  base: fc.constantFrom(...TEMPLATES),
  set: rarely(fc.tuple(fc.constantFrom(...KEYS, 'event_type'), VALUES)),
  drop: rarely(fc.nat()),
  type: rarely(fc.constantFrom(...TYPES)),
  spaced: fc.boolean(),
  reverse: fc.boolean(),
  cut: rarely(fc.nat()),
  nested: rarely(fc.tuple(fc.constantFrom('dbg', 'cmd_type', 't_cycle', 'stalled_clients', 'layer_id', 'extra'), NESTED_TEXT)),
}).map(({ base, set, drop, type, spaced, reverse, cut, nested }) => {
  const o: Record<string, unknown> = { ...base };
  if (type) o.event_type = type;
  if (set) o[set[0]] = set[1];
  const keys = Object.keys(o);
  if (drop !== undefined) delete o[keys[drop % keys.length]];
  const entries = Object.entries(o);
  if (reverse) entries.reverse();
  const fields = entries.map(([k, v]) => `${JSON.stringify(k)}:${spaced ? ' ' : ''}${JSON.stringify(v)}`);
  if (nested) fields.push(`${JSON.stringify(nested[0])}:${nested[1]}`);
  const text = `{${fields.join(spaced ? ', ' : ',')}}`;
  return cut === undefined ? text : text.slice(0, cut % (text.length + 1));
});

describe('byte fast path agrees with JSON.parse + ajv', () => {
  it('certifies only lines the full parser finds clean, with the same values and ranges', () => {
    let certified = 0;
    fc.assert(fc.property(LINE, (text) => {
      const b = bytes(text);
      const fast = fastTraceBytes(b, 0, b.length, decode);
      const full = parseTraceLine(text);
      if (!fast) return;
      certified++;
      assert.equal(full.local, undefined, `fast path certified a line with problems: ${text}`);
      assert.deepEqual([fast.type, fast.t, fast.cmd, fast.job, fast.tx, fast.latency], [full.type, full.t, full.cmd, full.job, full.tx, full.latency], text);
      for (const k of ['t_cycle', 'cmd_id', 'job_id', 'tx_id', 'latency_cycles']) {
        const r = fast.rangeOf!(k);
        if (r) assert.deepEqual(r, locate(text, k), `${k} in ${text}`);
      }
      assert.equal(fast.text, text);
    }), { numRuns: 3000 });
    assert.ok(certified > 100, `the generator must reach the fast path (certified ${certified})`);
  });

  it('gives the same diagnostics streamed as bytes as the editor does on text', () => {
    fc.assert(fc.property(fc.array(LINE, { maxLength: 30 }), (lines) => {
      const text = lines.join('\n');
      const viaEditor = TraceDocument.parse(text).allDiagnostics();
      const c = traceFormat.createChecker!();
      const all = bytes(text);
      let s = 0;
      let n = 0;
      for (let i = 0; i <= all.length; i++) {
        if (i === all.length || all[i] === 10) {
          c.addBytes!(all, s, i, n++, decode);
          s = i + 1;
        }
      }
      const key = (d: { code: string; range: unknown; message: string }) => JSON.stringify([d.code, d.range, d.message]);
      assert.deepEqual(c.finish().map(key).sort(), viaEditor.map(key).sort(), text);
    }), { numRuns: 300 });
  });

  it('reads each key as itself where the line before had another key at that place (the scanner guesses keys by position)', () => {
    // The same event type line after line, with keys that start like, or are cut from, the key the
    // line before had at that position.
    const lines = [
      '{"event_type":"CMD_START","t_cycle":5,"cmd_id":1}',
      '{"event_type":"CMD_START","t_cycle":6,"cmd_idx":9,"cmd_id":2}',
      '{"event_type":"CMD_START","t_cycle":7,"cmd_i":9,"cmd_id":3}',
      '{"event_type":"CMD_START","t_cycle":8,"cmd_id":4}',
      '{"event_type":"CMD_START","t_cyclf":9,"t_cycle":9,"cmd_id":5}',
      '{"event_type":"CMD_START","t_cycle":10,"cmd_id":6}',
      '{"event_type":"CMD_START","t_cycle":11,"cmd_i\\u0064":7,"cmd_id":8}',
      '{"event_type":"CMD_START","t_cycle":12,"job_id":3,"cmd_id":9}',
      '{"t_cycle":13,"event_type":"CMD_START","cmd_id":10}',
    ];
    let certified = 0;
    for (const text of lines) {
      const b = bytes(text);
      const fast = fastTraceBytes(b, 0, b.length, decode);
      const full = parseTraceLine(text);
      if (!fast) continue;
      certified++;
      assert.deepEqual([fast.type, fast.t, fast.cmd, fast.job, fast.tx], [full.type, full.t, full.cmd, full.job, full.tx], text);
      for (const k of ['t_cycle', 'cmd_id', 'job_id']) {
        const r = fast.rangeOf!(k);
        if (r) assert.deepEqual(r, locate(text, k), `${k} in ${text}`);
      }
    }
    assert.ok(certified >= 8, `most of these lines are clean (certified ${certified})`);
  });

  it('certifies 64-bit ids (20 digits) and keeps them as their exact digits, as the full parse does', () => {
    const text = '{"event_type":"DMA_START","t_cycle":12345678901234567,"tx_id":18446744073709551615,"channel":0,"cmd_id":9007199254740993}';
    const b = bytes(text);
    const fast = fastTraceBytes(b, 0, b.length, decode);
    assert.ok(fast, 'certified');
    const full = parseTraceLine(text);
    assert.deepEqual([fast.t, fast.tx, fast.cmd], [full.t, full.tx, full.cmd]);
    assert.deepEqual([fast.tx, fast.cmd], ['18446744073709551615', '9007199254740993']);
    assert.deepEqual(fast.rangeOf!('tx_id'), locate(text, 'tx_id'));
  });

  it('keeps the ranges of values that start past 32 KB of the line, or run over 64 KB, and of a line starting mid-buffer', () => {
    const pad = 'x'.repeat(40_000);
    const long = '1'.repeat(70_000);
    const lines = [
      `{"event_type":"CMD_START","note":"${pad}","t_cycle":5,"cmd_id":123}`,
      `{"event_type":"CMD_START","t_cycle":6,"cmd_id":7,"dbg":[${long}]}`,
      `{"event_type":"CMD_START","dbg":[${long}],"t_cycle":7,"cmd_id":8}`,
      // An id key the type does not define: any value, here one of 70 000 bytes.
      `{"event_type":"CMD_START","t_cycle":8,"cmd_id":9,"tx_id":[${long}]}`,
      `{"event_type":"CMD_START","note":"${pad}","t_cycle":8,"cmd_id":9,"tx_id":[${long}]}`,
    ];
    for (const text of lines) {
      const b = bytes(`\n${text}\n`);
      const fast = fastTraceBytes(b, 1, b.length - 1, decode);
      assert.ok(fast, 'certified');
      for (const k of ['t_cycle', 'cmd_id']) assert.deepEqual(fast.rangeOf!(k), locate(text, k), k);
      if (text.includes('tx_id')) assert.deepEqual(fast.rangeOf!('tx_id'), locate(text, 'tx_id'));
      assert.equal(fast.rangeOf!('job_id'), undefined);
    }
  });

  it('certifies a line with a nested extra field (a debug object) and nothing where JSON.parse fails', () => {
    const ok = '{"event_type":"CMD_START","t_cycle":5,"cmd_id":1,"dbg":{"q":[1,{"r":null}],"s":"x"}}';
    const fast = fastTraceBytes(bytes(ok), 0, bytes(ok).length, decode);
    assert.ok(fast, 'certified');
    assert.deepEqual([fast.type, fast.t, fast.cmd], ['CMD_START', 5, 1]);
    for (const bad of ['{"q":1,}', '{"q" 1}', '[1 2]', '{"q":01}']) {
      const text = `{"event_type":"CMD_START","t_cycle":5,"cmd_id":1,"dbg":${bad}}`;
      assert.equal(fastTraceBytes(bytes(text), 0, bytes(text).length, decode), undefined, text);
    }
  });

  it('certifies SRAM_CONFLICT with stalled_clients a list of its enum, and nothing else there', () => {
    const line = (list: string) => `{"event_type":"SRAM_CONFLICT","t_cycle":231,"bank_id":3,"num_requests":2,"stalled_clients":${list},"cmd_id":7}`;
    for (const good of ['["DMA"]', '[]', '[ "TE" , "VE", "DMA" ]', '["VE","VE"]']) {
      const fast = fastTraceBytes(bytes(line(good)), 0, bytes(line(good)).length, decode);
      assert.ok(fast, good);
      assert.deepEqual([fast.type, fast.t, fast.cmd], ['SRAM_CONFLICT', 231, 7]);
      assert.equal(parseTraceLine(line(good)).local, undefined, good);
    }
    for (const bad of ['["XX"]', '["dma"]', '"DMA"', '[1]', '{}', '[["TE"]]', '["DMA",null]', '["D\\u004dA"]']) {
      assert.equal(fastTraceBytes(bytes(line(bad)), 0, bytes(line(bad)).length, decode), undefined, bad);
    }
  });
});
