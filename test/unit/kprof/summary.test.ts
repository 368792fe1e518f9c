// The panel's facts, statistics tables and overlap as sent to the page (core/kprof/summary.ts),
// and the page's checks on them (protocol/kprof.ts): capped while built, hostile values refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode } from '../../../core/kprof/decode';
import { groupOverlap } from '../../../core/kprof/overlap';
import { regionStats } from '../../../core/kprof/stats';
import { kprofFacts, kprofOverlap, kprofRange, kprofSummary, MAX_SUMMARY_ROWS } from '../../../core/kprof/summary';
import { factPairs } from '../../../webview/kprofTables';
import { parseHostMessage, parseWebviewMessage } from '../../../protocol/timeline';
import { genKprof, genKprofLarge, warpSpecProgram } from '../../gen/kprofGen';

describe('kprof panel summary', () => {
  const g = genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 });
  const d = decode({ words: g.words, slots: g.slots }, { names: ['issue-tma-k', 'issue-tma-v', 'mma-qk'] });
  it('facts and the three tables hold what regionStats gives; the page accepts them', () => {
    const s = kprofSummary(d, 1, 3);
    assert.deepEqual(s.facts, {
      layout: 'tvm', num_blocks: 2, num_groups: 6, header_valid: true, write_stride: 12, stride_inferred: true, slots: 1024, records: 304,
      regions: d.regionCount, duration_ns: d.durationNs, timer_wrapped: false, problems: d.problems.length, launch: 1, launches: 3,
      lanes_from_slots: false, sms: 0, full_lanes: 0, lanes: 12,
    });
    assert.deepEqual(s.sms, []);
    for (const t of s.tables) {
      const want = regionStats(d, t.by);
      assert.deepEqual(t.rows.map((r) => [r.name, r.of, r.count, r.total_ns, r.p95_ns, r.std_ns]), want.map((x) => [x.name, x.of, x.count, x.totalNs, x.p95Ns, x.stdNs]));
      assert.equal(t.omitted, 0);
    }
    assert.ok(parseHostMessage({ type: 'kprofSummary', summary: s }));
    assert.ok(parseHostMessage({ type: 'kprofOverlap', overlap: kprofOverlap(groupOverlap(d, 0, 1)), message: '' }));
  });
  it('a table longer than MAX_SUMMARY_ROWS is cut while built, the rest counted, and still accepted', () => {
    // 1400 blocks × 8 events: 11 200 rows per block.
    const big = genKprofLarge(1400, 1, 17);
    const bd = decode({ words: big.words, slots: big.slots });
    const s = kprofSummary(bd);
    const byBlock = s.tables.find((t) => t.by === 'block')!;
    assert.equal(byBlock.rows.length, MAX_SUMMARY_ROWS);
    // Only the first rows are built, and they are the first of all rows in (event, block) order.
    assert.deepEqual(byBlock.rows.map((r) => [r.event, r.of, r.count, r.total_ns, r.p50_ns]), regionStats(bd, 'block').slice(0, MAX_SUMMARY_ROWS).map((r) => [r.event, r.of, r.count, r.totalNs, r.p50Ns]));
    assert.equal(byBlock.omitted, 1400 * 8 - MAX_SUMMARY_ROWS);
    assert.ok(parseHostMessage({ type: 'kprofSummary', summary: s }));
  });
  it('the page refuses a summary or overlap with a wrong field, a non-finite number, too many rows or a huge name', () => {
    const s = kprofSummary(d);
    const bad = (f: (x: ReturnType<typeof kprofSummary>) => void) => {
      const c = structuredClone(s);
      f(c);
      return parseHostMessage({ type: 'kprofSummary', summary: c });
    };
    assert.equal(bad((c) => { c.facts.num_blocks = NaN; }), undefined);
    assert.equal(bad((c) => { (c.facts as { layout: unknown }).layout = 3; }), undefined);
    assert.equal(bad((c) => { c.tables[0].rows[0].mean_ns = Infinity; }), undefined);
    assert.equal(bad((c) => { c.tables[0].rows[0].name = 'x'.repeat(201); }), undefined);
    assert.equal(bad((c) => { c.tables[0].rows = Array.from({ length: MAX_SUMMARY_ROWS + 1 }, () => c.tables[0].rows[0]); }), undefined);
    assert.equal(bad((c) => { (c.tables[0] as { by: string }).by = 'lane'; }), undefined);
    const o = kprofOverlap(groupOverlap(d, 0, 1));
    assert.equal(parseHostMessage({ type: 'kprofOverlap', overlap: { ...o, of_a: NaN }, message: '' }), undefined);
    assert.equal(parseHostMessage({ type: 'kprofOverlap', overlap: { ...o, blocks: [{ block: 0 }] }, message: '' }), undefined);
    assert.ok(parseHostMessage({ type: 'kprofOverlap', overlap: null, message: 'Pick two different groups.' }));
  });
  it('the page\'s overlap question: two group indices, nothing else', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'kprofOverlap', a: 0, b: 3, extra: 1 }), { type: 'kprofOverlap', a: 0, b: 3 });
    for (const m of [{ a: -1, b: 0 }, { a: 0.5, b: 1 }, { a: '0', b: 1 }, { a: 0, b: 2 ** 40 }, { a: 0 }]) assert.equal(parseWebviewMessage({ type: 'kprofOverlap', ...m }), undefined, JSON.stringify(m));
  });
});

describe('kprof range statistics (the timeline\'s Shift+drag range)', () => {
  // One lane: load 0..100 ns, compute 110..160, load 200..300, then finalize.
  const rec = (type: number, ev: number, t: number) => [(ev << 2) | type, 1000 + t];
  const words = new Uint32Array([1, 1, ...rec(0, 0, 0), ...rec(1, 0, 100), ...rec(0, 1, 110), ...rec(1, 1, 160), ...rec(0, 0, 200), ...rec(1, 0, 300), ...rec(3, 0, 300)]);
  const d = decode({ words, slots: words.length / 2 }, { names: ['load', 'compute'] });
  const row = (r: { name: string; count: number; total_ns: number; min_ns: number; max_ns: number }) => [r.name, r.count, r.total_ns, r.min_ns, r.max_ns];
  it('regions overlapping the range, each counted with its time inside it, per event and per group; the page accepts it', () => {
    const r = kprofRange(d, 50, 250);
    assert.equal(r.regions, 3);
    assert.deepEqual(r.tables.map((t) => t.by), ['event', 'group']);
    assert.deepEqual(r.tables[0].rows.map(row), [['load', 2, 100, 50, 50], ['compute', 1, 50, 50, 50]]);
    assert.deepEqual(r.tables[1].rows.map(row), [['load', 2, 100, 50, 50], ['compute', 1, 50, 50, 50]]);
    assert.deepEqual(kprofRange(d, 120, 130).tables[0].rows.map(row), [['compute', 1, 10, 10, 10]]);
    const none = kprofRange(d, 400, 500);
    assert.equal(none.regions, 0);
    assert.deepEqual(none.tables[0].rows, []);
    assert.ok(parseHostMessage({ type: 'kprofRange', range: r }));
    assert.equal(parseHostMessage({ type: 'kprofRange', range: { ...r, regions: 1.5 } }), undefined);
    // The whole buffer as the range gives the whole buffer's statistics.
    assert.deepEqual(kprofRange(d, 0, d.durationNs).tables[0].rows, kprofSummary(d).tables[0].rows);
  });
});

describe('a buffer that ran out of room', () => {
  it('counts its full lanes among the facts, and the page says so before the numbers', () => {
    const full = kprofFacts(decode(genKprof({ blocks: 2, slots: 8 })));
    assert.deepEqual([full.full_lanes, full.lanes], [2, 2]);
    assert.ok(factPairs(full).some(([k, v]) => k === '⚠ buffer full' && v === '2 of 2 lanes: their later records were lost'));
    const roomy = kprofFacts(decode(genKprof({ blocks: 2, slots: 15 })));
    assert.deepEqual([roomy.full_lanes, roomy.lanes], [0, 2]);
    assert.ok(!factPairs(roomy).some(([k]) => k.includes('buffer full')));
  });
});
