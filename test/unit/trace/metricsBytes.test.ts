// The byte reader of the metrics (`npu-trace stats`) must give exactly what JSON.parse of every
// line gives: random lines written the many ways JSON allows (number spellings, duplicate keys,
// escapes, non-ASCII, nesting, ids past 2^53, broken lines) are fed both ways and compared.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildTimeline } from '../../../core/detectFormat';
import { MetricsCollector, type StatsOptions } from '../../../core/trace/metrics/collector';
import { fieldsOfBytes } from '../../../core/trace/metrics/byteFields';
import { fieldsOfObject, newEventFields } from '../../../core/trace/metrics/eventFields';

const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

const TYPES = ['CMD_ENQUEUE', 'CMD_START', 'CMD_END', 'JOB_ISSUE', 'JOB_DONE', 'TE_START', 'TE_END', 'VE_START', 'VE_END', 'DMA_START', 'DMA_END',
  'DRAM_TX_START', 'DRAM_TX_END', 'NOC_TX_START', 'NOC_TX_END', 'SRAM_ACCESS', 'SRAM_CONFLICT', 'TRACE_META', 'IRQ_EMIT', 'constructor', '__proto__', 'TE_STARTX', 'TE'];

/** A number as a file may spell it. */
const small = fc.integer({ min: 0, max: 6 });
const numberText = fc.oneof(
  { weight: 8, arbitrary: small.map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) },
  fc.constantFrom('-0', '-1', '0.0', '1.0', '2.50', '1e1', '1E+1', '5e-1', '-2.5e0', '1e400', '83.33', '0.1', '123456789012345', '1234567890123456',
    '9007199254740993', '12345678901234567890', '0.30000000000000004', '3.141592653589793238', '1.7976931348623157e308'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
);
const stringText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('"LN1"', '"MLP"', '"ATTN"', '"DRAM_TO_SRAM"', '"SRAM_TO_DRAM"', '""', '"0"') },
  fc.constantFrom('"M\\u004cP"', '"a\\"b"', '"ünï"', '"tab\\there"', '"\u2028"', '"x\\\\"'),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
);
const valueText = fc.oneof(
  { weight: 6, arbitrary: numberText },
  { weight: 3, arbitrary: stringText },
  fc.constantFrom('true', 'false', 'null', '{}', '[]', '{"a":[1,{"b":null}]}', '[1, 2 ,"x"]', '{"deep":[[[[1]]]]}'),
);
const typeText = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...TYPES).map((t) => `"${t}"`) }, valueText);
const KEYS = ['t_cycle', 't_ns', 'cmd_id', 'job_id', 'tx_id', 'npu_id', 'core_id', 'channel', 'link_id', 'size_bytes', 'direction', 'phase', 'layer_id',
  'bank_id', 'clock_ghz', 'sim_id', 'event_typ', 't_cycles', 'ph\\u0061se'];
const field = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(fc.constantFrom(...KEYS), valueText) },
  fc.tuple(fc.constantFrom('t_cycle', 'cmd_id', 'job_id', 'tx_id'), small.map(String)),
);
const blank = fc.constantFrom('', '', '', ' ', '\t', ' \t ');

/** The fields an event of the metrics mostly has, with plausible values (so pairs match and spans form). */
const plausible = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: fc.constant('@T@') }, small.map(String)), fc.constantFrom('1', '2', '3'), fc.option(fc.constantFrom('83.33', '0.5', '1.25', '7', '100.001', '2.675'), { nil: undefined }),
  fc.option(fc.constantFrom('0', '1', '1.0', '2'), { nil: undefined }), fc.option(fc.constantFrom('16384', '100', '0.5', '1e3'), { nil: undefined }),
  fc.option(fc.constantFrom('"LN1"', '"MLP"', '0', '1.50', 'true'), { nil: undefined }), fc.option(fc.constantFrom('"0"', '1', '2e0', 'null'), { nil: undefined }),
).map(([t, id, ns, core, size, phase, layer]) => {
  const out: [string, string][] = [['t_cycle', t], ['cmd_id', id], ['job_id', id], ['tx_id', id]];
  if (ns !== undefined) out.push(['t_ns', ns]);
  if (core !== undefined) out.push(['core_id', core], ['npu_id', core], ['channel', core], ['link_id', String(id.length + Number(core) + 1)], ['bank_id', core]);
  if (size !== undefined) out.push(['size_bytes', size]);
  if (phase !== undefined) out.push(['phase', phase], ['direction', phase]);
  if (layer !== undefined) out.push(['layer_id', layer]);
  return out;
});

/** One line: usually a flat event object, sometimes damaged. */
const line = fc.tuple(typeText, fc.array(field, { maxLength: 5 }), plausible, fc.nat(), blank, blank, fc.integer({ min: 0, max: 19 }), fc.nat())
  .map(([type, noise, good, at, b1, b2, damage, cut]) => {
    const fields = [...good, ...noise];
    const pairs = fields.map(([k, v]) => `${b1}"${k}"${b2}:${b1}${v}${b2}`);
    pairs.splice(at % (pairs.length + 1), 0, `"event_type":${type}`);
    const text = `${b1}{${pairs.join(',')}}${b2}`;
    if (damage === 0) return text.slice(0, cut % (text.length + 1));
    if (damage === 1) return `${text},`;
    if (damage === 2) return text.replace('{', '[');
    if (damage === 3) return `\ufeff${text}`;
    return text;
  });

/** Lines in order of time mostly: `@T@` is the line's own cycle, so STARTs meet their ENDs. */
const trace = fc.array(line, { minLength: 20, maxLength: 60 }).map((ls) => ls.map((l, i) => l.replace('@T@', String(10 * i))));

function both(lines: string[], opts: StatsOptions = {}) {
  const ref = new MetricsCollector(opts);
  const fast = new MetricsCollector(opts);
  for (const l of lines) {
    ref.addLine(l);
    // Bytes after the line end as the readers leave them: a line break.
    const b = Buffer.from(`${l}\n`, 'utf8');
    fast.addBytes(b, 0, b.length - 1, decode);
  }
  return [fast.finish(), ref.finish()];
}

describe('trace metrics from the line bytes', () => {
  it('read every field JSON.parse would give, or leave the line to it', () => {
    let read = 0;
    fc.assert(fc.property(line, (l) => {
      l = l.replace('@T@', '7');
      const b = Buffer.from(`${l}\n`, 'utf8');
      const fast = newEventFields();
      if (!fieldsOfBytes(b, 0, b.length - 1, fast, decode)) return;
      read++;
      const o = JSON.parse(l) as Record<string, unknown>;
      assert.ok(typeof o === 'object' && o !== null && !Array.isArray(o));
      const ref = newEventFields();
      fieldsOfObject(o, ref, () => assert.fail('no exact ids on the byte path'));
      assert.deepStrictEqual({ ...fast }, { ...ref });
    }), { numRuns: 3000, seed: 13 });
    assert.ok(read > 1000, `only ${read} lines read from bytes`);
  });

  it('equal the metrics of JSON.parse on every line, on random traces', () => {
    const seen = { te: 0, dma: 0, noc: 0, commands: 0, clock: 0 };
    fc.assert(fc.property(trace, (lines) => {
      const [fast, ref] = both(lines);
      assert.deepStrictEqual(fast, ref);
      seen.te += fast.cores.some((c) => c.te_busy_cycles > 0) ? 1 : 0;
      seen.dma += fast.dma.bytes > 0 ? 1 : 0;
      seen.noc += fast.noc.links.length ? 1 : 0;
      seen.commands += fast.phases.some((p) => p.commands) ? 1 : 0;
      seen.clock += fast.ns_per_cycle !== null ? 1 : 0;
    }), { numRuns: 400, seed: 14 });
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 20, `only ${n} random traces have ${k}`);
  });

  it('equal them with a window (--from/--to), which clips and prorates', () => {
    fc.assert(fc.property(trace, small, small, (lines, a, b) => {
      const [fast, ref] = both(lines, { from: Math.min(a, b), to: Math.max(a, b) + 0.5 });
      assert.deepStrictEqual(fast, ref);
    }), { numRuns: 200, seed: 15 });
  });

  it('equal the Summary the timeline builder computes from its own parse of the lines', () => {
    fc.assert(fc.property(trace, (lines) => {
      const ref = new MetricsCollector();
      for (const l of lines) ref.addLine(l);
      assert.deepStrictEqual(buildTimeline('x.trace.jsonl', lines)?.stats, ref.finish());
    }), { numRuns: 300, seed: 16 });
  });

  it('read a clean event without JSON.parse, with the values JSON.parse gives', () => {
    const f = newEventFields();
    const text = '{"event_type":"DMA_START","t_cycle":136,"t_ns":113.33,"tx_id":500,"channel":2,"direction":"DRAM_TO_SRAM","size_bytes":16384,"cmd_id":1,"npu_id":0,"core_id":1,"pad":{"a":[1,2]}}';
    const b = Buffer.from(text);
    assert.equal(fieldsOfBytes(b, 0, b.length, f, decode), true);
    assert.deepEqual(
      [f.t, f.tNs, f.tx, f.channel, f.direction, f.size, f.cmd, f.npu, f.core],
      [136, 113.33, 500, 2, 'DRAM_TO_SRAM', 16384, 1, 0, 1],
    );
  });

  it('leave to JSON.parse the lines they cannot be sure of', () => {
    const f = newEventFields();
    for (const text of ['{"event_type":"TRACE_META","clock_ghz":1.2}', '{"event_type":"TE_START","t_cycle":1,"job_id":9007199254740993}',
      '{"event_type":"TE_START","t_cycle":1,"phase":"\\u0041"}', '{"event_type":"TE_START","t_cycle":1,"phase":"é"}', '{"event_type":"TE_START","t_cycle":1,}']) {
      const b = Buffer.from(text);
      assert.equal(fieldsOfBytes(b, 0, b.length, f, decode), false, text);
    }
  });
});
