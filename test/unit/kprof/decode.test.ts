// The tvm decoder: one test per kprof.* code on buffers the generator writes with that caveat
// (code, slot, lane, severity), the spec's own decode loop as an oracle, stride inference and
// override, timer unwrapping, statistics and overlap.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, type Decoded } from '../../../core/kprof/decode';
import { groupOverlap } from '../../../core/kprof/overlap';
import { regionStats } from '../../../core/kprof/stats';
import { genKprof, loadComputeStore, regionsProgram, SPEC_NAMES, warpSpecProgram, type Generated, type Op } from '../../gen/kprofGen';

const dec = (g: Generated, o: Parameters<typeof decode>[1] = {}) => decode({ words: g.words, slots: g.slots }, o);
const codes = (d: Decoded) => d.problems.map((p) => `${p.code} slot ${p.slot} lane ${p.block}/${p.group} ${p.severity}`);

/**
 * The decode loop of the spec ("Run it and read the trace"), transcribed: per block, every END's
 * name and its duration since the last START of that (block, event). Only for groups = 1, no
 * wrap, as the spec's loop assumes.
 */
function specLoop(words: Uint32Array, slots: number, numGroups: number, names: string[]): Map<number, [string, number][]> {
  const opens = new Map<string, number>();
  const spans = new Map<number, [string, number][]>();
  for (let i = 1; i < slots; i++) {
    const word = (BigInt(words[2 * i + 1]) << 32n) | BigInt(words[2 * i]);
    if (word === 0n) continue;
    const ts = Number(word >> 32n);
    const tag = Number(word & 0xffffffffn);
    const block = Math.floor((tag >> 12) / numGroups);
    const eventIdx = (tag >> 2) & 0x3ff;
    const eventType = tag & 0x3;
    if (eventType === 0) opens.set(`${block},${eventIdx}`, ts);
    else if (eventType === 1) {
      if (!spans.has(block)) spans.set(block, []);
      spans.get(block)!.push([names[eventIdx], ts - opens.get(`${block},${eventIdx}`)!]);
    }
  }
  return spans;
}

function perBlock(d: Decoded): Map<number, [string, number][]> {
  const out = new Map<number, [string, number][]>();
  for (let i = 0; i < d.regionCount; i++) {
    const b = Math.floor(d.regLane[i] / d.numGroups);
    if (!out.has(b)) out.set(b, []);
    out.get(b)!.push([d.names[d.regEvent[i]], d.regEnd[i] - d.regStart[i]]);
  }
  return out;
}

describe('the spec\'s example buffer', () => {
  const g = genKprof({ blocks: 4, slots: 4096 });
  const d = dec(g, { names: SPEC_NAMES });
  it('decodes to the spec\'s printed durations, with no problem', () => {
    assert.deepEqual([...perBlock(d)].map(([b, s]) => `block ${b}: ${s.map(([n, t]) => `${n}=${t}ns`).join(', ')}`), [
      'block 0: load=32ns, compute=8704ns, store=64ns',
      'block 1: load=96ns, compute=8704ns, store=64ns',
      'block 2: load=96ns, compute=8704ns, store=64ns',
      'block 3: load=96ns, compute=8704ns, store=64ns',
    ]);
    assert.deepEqual(d.problems, []);
    assert.equal(d.numBlocks, 4);
    assert.equal(d.numGroups, 1);
    assert.equal(d.stride, 4);
    assert.equal(d.records, 28);
  });
  it('equals the spec\'s loop on generated buffers (blocks, regions, durations, stride, buffer size)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 6 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 100_000 })), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 1000 }),
      (blocks, extraStride, regions, seed) => {
        const gen = genKprof({ blocks, stride: blocks + extraStride, seed, program: () => regionsProgram(regions, 17), startNs: seed * 1000 });
        const slots = gen.slots + extraStride * 3;
        const words = new Uint32Array(slots * 2);
        words.set(gen.words);
        const names = ['a', 'b', 'c', 'd', 'e', 'f'];
        const mine = decode({ words, slots }, { names });
        assert.deepEqual(perBlock(mine), specLoop(words, slots, 1, names));
        assert.deepEqual(mine.problems.filter((p) => p.severity !== 'information'), []);
        assert.equal(mine.stride, regions.length > 0 ? blocks + extraStride : blocks);
      }), { numRuns: 200 });
  });
});

describe('one test per code', () => {
  it('kprof.no-header: slot 0 empty, or a shape impossible for the buffer', () => {
    assert.deepEqual(codes(dec(genKprof({ blocks: 2, noHeader: true }))), ['kprof.no-header slot 0 lane -1/-1 error']);
    const big = genKprof({ blocks: 2 });
    big.words[0] = 100;
    const d = dec(big);
    assert.deepEqual(codes(d), ['kprof.no-header slot 0 lane -1/-1 error']);
    assert.match(d.problems[0].message, /num_blocks 100, num_groups 1, impossible for a buffer of 15 slots \(100 lanes need at least 101 slots\)/);
    // Lanes are still read: blocks from the records.
    assert.equal(d.numBlocks, 2);
    assert.equal(d.regionCount, 6);
    const zeroGroups = genKprof({ blocks: 2 });
    zeroGroups.words[1] = 0;
    assert.deepEqual(codes(dec(zeroGroups)), ['kprof.no-header slot 0 lane -1/-1 error']);
  });
  it('kprof.unmatched-end at its own slot, kprof.unclosed-start at its own', () => {
    const d = dec(genKprof({ blocks: 2, program: () => [[1, 0, 0], [0, 1, 5], [1, 1, 10], [0, 2, 3]] }), { names: SPEC_NAMES });
    assert.deepEqual(codes(d), [
      'kprof.unmatched-end slot 1 lane 0/0 error', 'kprof.unmatched-end slot 2 lane 1/0 error',
      'kprof.unclosed-start slot 7 lane 0/0 error', 'kprof.unclosed-start slot 8 lane 1/0 error',
    ]);
    assert.match(d.problems[0].message, /END of "load" \(event 0\) in block 0 group 0 has no open START/);
    assert.match(d.problems[2].message, /START of "store" \(event 2\) in block 0 group 0 is never closed/);
  });
  it('kprof.not-finalized: a lane with records but no finalize, room left in the buffer', () => {
    const d = dec(genKprof({ blocks: 2, noFinalize: [1], slots: 64 }));
    assert.deepEqual(codes(d), ['kprof.not-finalized slot 12 lane 1/0 warning']);
  });
  it('kprof.after-finalize: records after the lane\'s finalize', () => {
    const prog = (b: number): Op[] => (b ? [[0, 0, 0], [1, 0, 5], [3, 0, 5], [0, 1, 3], [1, 1, 3]] : loadComputeStore(0));
    const d = dec(genKprof({ blocks: 2, program: prog, noFinalize: [1], slots: 64 }));
    assert.deepEqual(codes(d), ['kprof.after-finalize slot 8 lane 1/0 error']);
    assert.match(d.problems[0].message, /2 record\(s\) of block 1 group 0 after its finalize at slot 6, the first at slot 8/);
  });
  it('kprof.unknown-event: once per event index beyond the names, at its first slot', () => {
    const d = dec(genKprof({ blocks: 2 }), { names: ['load'] });
    assert.deepEqual(codes(d), ['kprof.unknown-event slot 5 lane 0/0 warning', 'kprof.unknown-event slot 9 lane 0/0 warning']);
    assert.match(d.problems[0].message, /Event index 1 is beyond the 1 event name\(s\): it is shown as "event_1"/);
    assert.deepEqual(dec(genKprof({ blocks: 2 })).problems, [], 'no names given: no unknown event');
  });
  it('kprof.lane-collision: write_stride smaller than the lanes', () => {
    const d = dec(genKprof({ blocks: 4, stride: 2 }));
    assert.equal(codes(d)[0], 'kprof.lane-collision slot 0 lane -1/-1 error');
    assert.match(d.problems[0].message, /write_stride 2 \(inferred from the records\) is smaller than the 4 \(block, group\) lanes/);
  });
  it('kprof.lane-collision: records off their lane\'s stride', () => {
    const g = genKprof({ blocks: 2, slots: 64 });
    // A record of lane 1 at slot 41 (its cursor writes 2, 4, 6, …: every slot is even).
    g.words[82] = (1 << 12) | 2;
    g.words[83] = g.words[2 * 14 + 1] + 10;
    const d = dec(g);
    assert.deepEqual(codes(d), ['kprof.after-finalize slot 41 lane 1/0 error', 'kprof.lane-collision slot 41 lane 1/0 error']);
    assert.match(d.problems.find((p) => p.code === 'kprof.lane-collision')!.message, /off their lane's stride: 1 record\(s\) of block 1 group 0, the first at slot 41/);
  });
  it('kprof.lane-collision: two leaders in one lane — two finalize records; timestamps backwards', () => {
    const d = dec(genKprof({ blocks: 2, twoLeaders: 1 }));
    assert.equal(d.problems[0].code, 'kprof.lane-collision');
    assert.match(d.problems[0].message, /Two leaders in one lane: block 1 group 0 has 2 finalize records/);
    // Backwards: two leaders whose writes interleave in time.
    const g = genKprof({ blocks: 1, slots: 16 });
    [g.words[3], g.words[5]] = [g.words[5], g.words[3]];
    const back = dec(g);
    assert.ok(codes(back).includes('kprof.lane-collision slot 2 lane 0/0 error'), codes(back).join('; '));
    assert.match(back.problems.find((p) => p.code === 'kprof.lane-collision')!.message, /timestamps go backwards along the slots of block 0 group 0 at slot 2/);
  });
  it('kprof.buffer-full: the next slot of an unfinished lane is past the end; says how big the buffer must be', () => {
    const d = dec(genKprof({ blocks: 2, slots: 8 }));
    assert.deepEqual(codes(d), ['kprof.buffer-full slot 6 lane 1/0 error', 'kprof.buffer-full slot 7 lane 0/0 error']);
    assert.match(d.problems[0].message, /next record of block 1 group 0 would be at slot 8, past the end of the 8-slot buffer.*\(1 region\(s\) left open\).*at least 11 slots/);
    assert.match(d.problems[1].message, /next record of block 0 group 0 would be at slot 9, past the end of the 8-slot buffer, and the lane has no finalize: records were probably lost\. Make the buffer at least 11 slots/);
    // With the size it asks for (and one more record per lane, the finalize): clean.
    assert.deepEqual(dec(genKprof({ blocks: 2, slots: 15 })).problems, []);
  });
  it('kprof.bad-group: a block at or past num_blocks', () => {
    const g = genKprof({ blocks: 3 });
    g.words[0] = 2;
    const d = dec(g);
    assert.deepEqual(codes(d), ['kprof.bad-group slot 3 lane 2/0 error']);
    assert.match(d.problems[0].message, /block 2 \(block_group 2\), but the header says 2 block\(s\) × 1 group\(s\); 7 records of this block_group: they are left out/);
  });
  it('kprof.too-short: a region of 0 ns (information)', () => {
    const d = dec(genKprof({ blocks: 1, program: () => regionsProgram([[0, 0], [1, 10]]) }));
    assert.deepEqual(codes(d), ['kprof.too-short slot 2 lane 0/0 information']);
  });
  it('kprof.timer-wrap: the timer wrapped during the kernel; durations are right', () => {
    const g = genKprof({ blocks: 4, slots: 4096, startNs: 2 ** 32 - 5000 });
    const d = dec(g, { names: SPEC_NAMES });
    assert.deepEqual(codes(d), ['kprof.timer-wrap slot 13 lane 0/0 information']);
    assert.equal(d.timerWrapped, true);
    assert.deepEqual(perBlock(d), perBlock(dec(genKprof({ blocks: 4, slots: 4096 }), { names: SPEC_NAMES })));
    assert.equal(d.durationNs, 8976);
  });
});

describe('stride, caps, statistics, overlap', () => {
  it('--stride overrides the inferred stride', () => {
    const g = genKprof({ blocks: 2, stride: 5, slots: 64 });
    assert.equal(dec(g).stride, 5);
    const forced = dec(g, { stride: 2 });
    assert.equal(forced.stride, 2);
    assert.equal(forced.strideInferred, false);
    assert.ok(forced.problems.some((p) => p.code === 'kprof.lane-collision' && /off their lane's stride/.test(p.message)));
  });
  it('keeps the first maxProblems problems by slot and counts the rest', () => {
    const g = genKprof({ blocks: 50, program: () => [[1, 0, 0], [1, 0, 1], [1, 0, 1]], slots: 1000 });
    const d = dec(g, { maxProblems: 10 });
    assert.equal(d.problems.length, 10);
    assert.equal(d.problemsDropped, 140);
    assert.deepEqual(d.problems.map((p) => p.slot), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(d.problemsDroppedError, true);
  });
  it('per-region statistics: count, total, mean, min, p50, p95, max, std; per block and group', () => {
    const d = dec(genKprof({ blocks: 4, slots: 4096 }), { names: SPEC_NAMES });
    const load = regionStats(d)[0];
    assert.deepEqual({ ...load, stdNs: Math.round(load.stdNs * 100) / 100 }, { event: 0, name: 'load', of: -1, count: 4, totalNs: 320, meanNs: 80, minNs: 32, p50Ns: 96, p95Ns: 96, maxNs: 96, stdNs: 27.71 });
    const byBlock = regionStats(d, 'block').filter((s) => s.event === 0);
    assert.deepEqual(byBlock.map((s) => [s.of, s.totalNs]), [[0, 32], [1, 96], [2, 96], [3, 96]]);
    const ws = dec(genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 }));
    assert.deepEqual(regionStats(ws, 'group').filter((s) => s.event === 4).map((s) => [s.of, s.count]), [[3, 16], [4, 16]]);
  });
  it('nearest-rank percentiles on 1..100', () => {
    const prog = (): Op[] => regionsProgram(Array.from({ length: 100 }, (_, i) => [0, i + 1] as [number, number]));
    const s = regionStats(dec(genKprof({ blocks: 1, program: prog })))[0];
    assert.deepEqual([s.minNs, s.p50Ns, s.p95Ns, s.maxNs, s.count, s.totalNs], [1, 50, 95, 100, 100, 5050]);
  });
  it('nested and repeated regions of one event in one lane pair innermost first', () => {
    const d = dec(genKprof({ blocks: 1, program: () => [[0, 0, 0], [0, 0, 10], [1, 0, 5], [1, 0, 20], [0, 0, 5], [1, 0, 7]] }));
    assert.deepEqual(d.problems, []);
    assert.deepEqual(Array.from({ length: d.regionCount }, (_, i) => d.regEnd[i] - d.regStart[i]), [5, 35, 7]);
  });
  it('group overlap: the producer group 0 against the MMA group 1 of the warp-specialized kernel', () => {
    const ws = dec(genKprof({ blocks: 2, groups: 6, program: warpSpecProgram, slots: 1024 }));
    const o = groupOverlap(ws, 0, 1);
    // Per stage: group 0 busy [t, t+160) ∪ [t+200, t+360), group 1 [t+180, t+400): overlap 160 of 320 and of 220.
    assert.deepEqual([o.busyANs, o.busyBNs, o.overlapNs], [2 * 8 * 320, 2 * 8 * 220, 2 * 8 * 160]);
    assert.equal(o.ofA, 0.5);
    assert.throws(() => groupOverlap(ws, 0, 6), /group 6 is not one of the buffer's 6/);
  });
});

describe('decoder under fuzzing', () => {
  it('random words and headers: no exception, bounded problems, consistent lanes and regions', () => {
    const word = fc.tuple(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x7fff })), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1000, max: 1100 })));
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 200 }), fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }), (ws, stride) => {
      const words = new Uint32Array(ws.flat());
      const d = decode({ words, slots: ws.length }, { stride, maxProblems: 20, names: ['a'] });
      assert.ok(d.problems.length <= 20);
      const lanes = d.numBlocks * d.numGroups;
      assert.equal(d.laneRegions.length, lanes + 1);
      assert.equal(d.laneRegions[lanes], d.regionCount);
      for (let l = 0; l < lanes; l++) {
        assert.ok(d.laneRegions[l] <= d.laneRegions[l + 1]);
        for (let i = d.laneRegions[l]; i < d.laneRegions[l + 1]; i++) {
          assert.equal(d.regLane[i], l);
          assert.ok(d.regStartSlot[i] < d.regEndSlot[i] && d.regEndSlot[i] < ws.length);
        }
      }
      for (const p of d.problems) assert.ok(p.slot >= 0 && p.slot < ws.length && p.message.length < 600, `${p.code} ${p.slot}`);
      regionStats(d, 'group');
    }), { numRuns: 1000 });
  });
});
