// The parallel `npu-trace stats` reads stretches of a trace into rows on other threads (eventRows.ts)
// and one collector replays them in file order: the result must be the one pass's, byte for byte,
// wherever the stretches are cut — also where a span is paired inside a stretch while a START of its
// id is still open from an earlier one, or takes its core from its command.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MetricsCollector, type StatsOptions } from '../../../core/trace/metrics/collector';
import { replayRows, RowsCollector } from '../../../core/trace/metrics/eventRows';
import { small, trace } from './metricsLineGen';

const decode = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

/** The lines cut before each index of `cuts`, each stretch read into rows (from its bytes), replayed in order. */
function inStretches(lines: string[], cuts: number[], opts: StatsOptions = {}) {
  const at = [...new Set([0, ...cuts.map((c) => c % (lines.length + 1)), lines.length])].sort((a, b) => a - b);
  const collector = new MetricsCollector(opts);
  let paired = 0;
  for (let k = 0; k + 1 < at.length; k++) {
    const rows = new RowsCollector(4);
    for (const l of lines.slice(at[k], at[k + 1])) {
      const b = Buffer.from(`${l}\n`, 'utf8');
      rows.addBytes(b, 0, b.length - 1, decode);
    }
    const r = rows.rows();
    for (let i = 0; i < r.count; i++) if (r.pair[i] >= 0) paired++;
    replayRows(r, collector);
  }
  return { stats: collector.finish(), paired };
}

function onePass(lines: string[], opts: StatsOptions = {}) {
  const ref = new MetricsCollector(opts);
  for (const l of lines) ref.addLine(l);
  return ref.finish();
}

/** The same trace, its ids drawn from few values, with spans that cross every cut. */
const cuts = fc.array(fc.nat(), { maxLength: 4 });

describe('trace metrics read in stretches and replayed in order (the parallel stats)', () => {
  it('equal the one pass on random traces, wherever they are cut', () => {
    let paired = 0;
    let unpaired = 0;
    fc.assert(fc.property(trace, cuts, (lines, c) => {
      const got = inStretches(lines, c);
      const want = onePass(lines);
      assert.deepStrictEqual(got.stats, want);
      paired += got.paired;
      unpaired += want.unpaired;
    }), { numRuns: 600, seed: 31 });
    // Spans were paired inside stretches, and broken pairs were there to be counted alike.
    assert.ok(paired > 200, `only ${paired} rows paired inside a stretch`);
    assert.ok(unpaired > 1000, `only ${unpaired} broken pairs`);
  });

  it('equal it with a window (--from/--to)', () => {
    fc.assert(fc.property(trace, cuts, small, small, (lines, c, a, b) => {
      const opts = { from: Math.min(a, b), to: Math.max(a, b) + 0.5 };
      assert.deepStrictEqual(inStretches(lines, c, opts).stats, onePass(lines, opts));
    }), { numRuns: 200, seed: 32 });
  });

  it('pair a span in its stretch over a START of its id left open before it, and a START whose core is its command\'s not', () => {
    const ev = (o: Record<string, unknown>) => JSON.stringify(o);
    const lines = [
      ev({ event_type: 'CMD_ENQUEUE', t_cycle: 0, t_ns: 0, cmd_id: 1, npu_id: 1, core_id: 3, phase: 'MLP' }),
      ev({ event_type: 'TE_START', t_cycle: 1, job_id: 7, cmd_id: 1, npu_id: 0, core_id: 0 }),
      // Cut here: the START above is still open when this stretch pairs its own START of job 7.
      ev({ event_type: 'TE_START', t_cycle: 5, job_id: 7, cmd_id: 1, npu_id: 0, core_id: 2 }),
      ev({ event_type: 'TE_END', t_cycle: 9, job_id: 7, cmd_id: 1 }),
      // No core of its own: it runs on its command's (1/3), which only the collector knows.
      ev({ event_type: 'VE_START', t_cycle: 10, job_id: 8, cmd_id: 1 }),
      ev({ event_type: 'VE_END', t_cycle: 14, t_ns: 14, job_id: 8, cmd_id: 1 }),
    ];
    const got = inStretches(lines, [2]);
    assert.deepStrictEqual(got.stats, onePass(lines));
    assert.equal(got.paired, 2, 'the TE span is paired in its stretch, the VE span is not');
    assert.equal(got.stats.unpaired, 1);
    assert.deepEqual(got.stats.cores.map((c) => [c.npu_id, c.core_id, c.te_busy_cycles, c.ve_busy_cycles]), [[0, 2, 4, 0], [1, 3, 0, 4]]);
  });

  it('pair as many STARTs waiting at once as a stretch has, their ENDs in another order', () => {
    const ev = (o: Record<string, unknown>) => JSON.stringify(o);
    for (const open of [31, 32, 33, 100]) {
      const lines: string[] = [];
      for (let j = 0; j < open; j++) lines.push(ev({ event_type: 'TE_START', t_cycle: j, job_id: j, npu_id: 0, core_id: j % 3 }));
      // A START of an id already waiting overwrites it (a broken pair): the first is not paired.
      lines.push(ev({ event_type: 'TE_START', t_cycle: open, job_id: open - 1, npu_id: 0, core_id: 1 }));
      // Every id's END once (7 is prime to each count), and once more (nothing waits for it then).
      for (let j = 0; j < open; j++) lines.push(ev({ event_type: 'TE_END', t_cycle: 2 * open + j, job_id: (7 * j) % open }));
      for (let j = 0; j < open; j++) lines.push(ev({ event_type: 'TE_END', t_cycle: 3 * open + j, job_id: j }));
      const got = inStretches(lines, []);
      assert.deepStrictEqual(got.stats, onePass(lines), `${open} waiting`);
      assert.equal(got.paired, 2 * open, `${open} waiting: every id's START and first END paired in the stretch`);
    }
  });

  it('keep ids past 2^53 exact: two that round to one double are two spans\' ids', () => {
    // 2^53 + 1 and 2^53 are one double: read as numbers, this END would close the other id's START.
    const lines = [
      '{"event_type":"TE_START","t_cycle":1,"job_id":9007199254740993,"npu_id":0,"core_id":0}',
      '{"event_type":"TE_END","t_cycle":5,"job_id":9007199254740992}',
    ];
    const got = inStretches(lines, []);
    assert.deepStrictEqual(got.stats, onePass(lines));
    assert.equal(got.stats.unpaired, 2);
    assert.equal(got.stats.cores[0]?.te_busy_cycles ?? 0, 0);
  });
});
