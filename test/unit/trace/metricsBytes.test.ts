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
import { line, small, trace } from './metricsLineGen';

const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

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
