// FlashInfer's profiler buffers as its CUDA macros write them (test/gen/flashinferBuffer.ts follows
// include/flashinfer/profiler.cuh): the default decode must read them as a reference that takes
// each lane from its slot does, per (event, group), with the SM of every lane and no error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KPROF_CODES } from '../../../core/kprof/codes';
import { decode, LANE_FLAG, MAX_MISMATCH_LANES, type Decoded } from '../../../core/kprof/decode';
import { detectLayout, FLASHINFER, FLASHINFER_PY, TVM } from '../../../core/kprof/layouts';
import { readNpy } from '../../../core/kprof/npy';
import { SEVERITY } from '../../../core/kprof/problems';
import { recordFields } from '../../../core/kprof/records';
import { regionStats } from '../../../core/kprof/stats';
import { smRows } from '../../../core/kprof/sms';
import { kprofSummary } from '../../../core/kprof/summary';
import { parseHostMessage } from '../../../protocol/timeline';
import { FI_NAMES, genFlashInfer, type FlashInferBuffer } from '../../gen/flashinferBuffer';
import { npyBytes } from '../../gen/kprofGen';

interface Ref {
  regions: string[];
  instants: string[];
  /** Per lane `block/group` the SM, as the slot's block and the tag's SM bits say. */
  sm: Map<string, number>;
  /** `event/group` → [count, total ns]. */
  perEventGroup: Map<string, [number, number]>;
}

/**
 * The reference: the saved .npy's uint64 words (BigInt, no shared code), slot 0 as two int32 as
 * FlashInfer's Python side reads it, each record's lane from its slot (`(slot − 1) mod (blocks ·
 * groups)`), a stack of STARTs per (lane, event).
 */
function reference(npy: Uint8Array, slots: number): Ref {
  const at = npy.length - slots * 8;
  const words = new BigUint64Array(npy.slice(at).buffer);
  const [numBlocks, numGroups] = new Int32Array(npy.slice(at, at + 8).buffer);
  const lanes = numBlocks * numGroups;
  const base = Math.min(...Array.from(words.slice(1)).filter((x) => x !== 0n).map((x) => Number(x >> 32n)));
  const open = new Map<string, number[]>();
  const out: Ref = { regions: [], instants: [], sm: new Map(), perEventGroup: new Map() };
  for (let s = 1; s < slots; s++) {
    if (words[s] === 0n) continue;
    const tag = Number(words[s] & 0xffffffffn);
    const t = Number(words[s] >> 32n) - base;
    const lane = (s - 1) % lanes;
    const block = Math.floor(lane / numGroups);
    const group = lane % numGroups;
    const ev = (tag >> 2) & 0x3ff;
    const key = `${block}/${group}`;
    if (!out.sm.has(key)) out.sm.set(key, (tag >>> 24) & ~(block >> 12));
    const k = `${key}:${ev}`;
    if ((tag & 3) === 0) open.set(k, [...(open.get(k) ?? []), t]);
    else if ((tag & 3) === 1) {
      const t0 = open.get(k)!.pop()!;
      out.regions.push(`${key}:${FI_NAMES[ev]}@${t0}+${t - t0}`);
      const eg = `${FI_NAMES[ev]}/${group}`;
      const [c, tot] = out.perEventGroup.get(eg) ?? [0, 0];
      out.perEventGroup.set(eg, [c + 1, tot + t - t0]);
    } else out.instants.push(`${key}:${FI_NAMES[ev]}@${t}`);
  }
  return out;
}

function decoded(d: Decoded): Ref {
  const lane = (l: number) => `${Math.floor(l / d.numGroups)}/${l % d.numGroups}`;
  const out: Ref = { regions: [], instants: [], sm: new Map(), perEventGroup: new Map() };
  for (let i = 0; i < d.regionCount; i++) out.regions.push(`${lane(d.regLane[i])}:${d.names[d.regEvent[i]]}@${d.regStart[i]}+${d.regEnd[i] - d.regStart[i]}`);
  for (let i = 0; i < d.instantCount; i++) out.instants.push(`${lane(d.instLane[i])}:${d.names[d.instEvent[i]]}@${d.instT[i]}`);
  for (let l = 0; l < d.numBlocks * d.numGroups; l++) if (d.laneRecords[l]) out.sm.set(lane(l), d.laneSm[l]);
  for (const s of regionStats(d, 'group')) out.perEventGroup.set(`${s.name}/${s.of}`, [s.count, s.totalNs]);
  return out;
}

/** The buffer saved as FlashInfer users save it, read back and decoded with the layout chosen by default. */
function defaultDecode(g: FlashInferBuffer): { d: Decoded; npy: Uint8Array } {
  const npy = npyBytes(g.words);
  const buf = readNpy(npy)[0];
  return { d: decode(buf, { layout: detectLayout(buf.words, buf.slots), names: FI_NAMES }), npy };
}

const sorted = (r: Ref) => ({ regions: [...r.regions].sort(), instants: [...r.instants].sort(), sm: [...r.sm].sort(), perEventGroup: [...r.perEventGroup].sort() });

describe('FlashInfer profiler.cuh buffers', () => {
  for (const [blocks, groups] of [[264, 2], [1056, 1], [3960, 2]] as const) {
    it(`${blocks} blocks × ${groups} group(s): the default decode is the slot reference, SMs included, no error`, () => {
      const g = genFlashInfer({ grid: [blocks], numGroups: groups });
      const { d, npy } = defaultDecode(g);
      assert.equal(d.layout, FLASHINFER);
      assert.ok(d.lanesFromSlots);
      assert.deepEqual(d.problems.filter((p) => p.severity !== 'information'), []);
      const ref = reference(npy, g.slots);
      assert.ok(ref.regions.length > 0 && ref.instants.length > 0);
      assert.deepEqual(sorted(decoded(d)), sorted(ref));
      // Every lane's SM is the one its block ran on.
      for (let l = 0; l < g.numBlocks * groups; l++) assert.equal(d.laneSm[l], g.blockSm[Math.floor(l / groups)]);
      assert.equal(d.numBlocks * d.numGroups, g.numBlocks * groups);
    });
  }

  it('the 264-block × 2-group grid: 528 lanes, the two groups doing unequal work, instants overwritten but the last', () => {
    const g = genFlashInfer({ grid: [264], numGroups: 2 });
    const { d } = defaultDecode(g);
    assert.equal(d.layout, FLASHINFER);
    assert.equal(d.laneRecords.filter((c) => c > 0).length, 528);
    const perGroup = regionStats(d, 'group').map((s) => `${s.name}/${s.of}`);
    assert.deepEqual(perGroup, ['load/0', 'mma/1', 'epilogue/1']);
    // Group 0 ends with barrier then done, both instants at one slot: done survives. Group 1's
    // barriers each precede a START, which overwrote them.
    const inst = Array.from({ length: d.instantCount }, (_, i) => `${d.instLane[i] % 2}:${d.names[d.instEvent[i]]}`);
    assert.equal(inst.length, 264);
    assert.ok(inst.every((x) => x === '0:done'));
    // The header as PROFILER_INIT stores it: nblocks in the low word, ngroups in the high one.
    assert.deepEqual([g.words[0], g.words[1]], [264, 2]);
  });

  it('read as tvm (the old default) or as FlashInfer\'s Python decoder reads it, the same buffer loses lanes', () => {
    const g = genFlashInfer({ grid: [264], numGroups: 2 });
    const buf = { words: g.words, slots: g.slots };
    const tvm = decode(buf, { layout: TVM });
    assert.ok(tvm.problems.filter((p) => p.code === 'kprof.bad-group').length > 100);
    // The Python decoder's block_group // num_groups: block b's records land in lane b of block b / 2.
    const py = decode(buf, { layout: FLASHINFER_PY });
    assert.ok(py.laneRecords.filter((c) => c > 0).length <= 264);
    assert.ok(py.problems.some((p) => p.code === 'kprof.lane-collision'));
  });

  it('blocks past 4095 run into the SM id bits: lanes read from the slots, SM ids with those bits cleared, one information', () => {
    const g = genFlashInfer({ grid: [4224], numGroups: 1, blocksPerSm: 1 });
    const { d, npy } = defaultDecode(g);
    assert.equal(d.layout, FLASHINFER);
    assert.deepEqual(d.problems.map((p) => `${p.severity} ${p.code}`), ['information kprof.sm-spill']);
    assert.match(d.problems[0].message, /^128 lane\(s\) of blocks 4096 and up/);
    assert.deepEqual(sorted(decoded(d)), sorted(reference(npy, g.slots)));
    for (let b = 0; b < g.numBlocks; b++) {
      assert.equal(d.laneSm[b], b < 4096 ? g.blockSm[b] : g.blockSm[b] & ~1);
      assert.equal((d.laneFlags[b] & LANE_FLAG.smSpill) !== 0, b >= 4096);
    }
  });

  it('a record whose tag names another block than its slot: decoded in its slot\'s lane, one warning per lane, capped', () => {
    const g = genFlashInfer({ grid: [264], numGroups: 2 });
    // Rewrite the block field of the first record of lanes 10..49 (40 lanes, 40 records of ~3,000).
    for (let l = 10; l < 50; l++) g.words[2 * (1 + l)] = ((g.words[2 * (1 + l)] & ~(0xfff << 12)) | (((Math.floor(l / 2) + 7) & 0xfff) << 12)) >>> 0;
    const { d } = defaultDecode(g);
    assert.equal(d.layout, FLASHINFER);
    const mm = d.problems.filter((p) => p.code === 'kprof.block-mismatch');
    assert.equal(mm.length, MAX_MISMATCH_LANES + 1);
    assert.equal(mm[0].severity, 'warning');
    assert.deepEqual([mm[0].slot, mm[0].block, mm[0].group], [11, 5, 0]);
    assert.match(mm[0].message, /^1 of the \d+ record\(s\) in the slots of block 5 group 0 \(1 \+ 10 \+ k·528\) name block 12 in their tag/);
    assert.match(mm[MAX_MISMATCH_LANES].message, /^20 more lane\(s\) hold 20 record\(s\)/);
    // The regions are those of the clean buffer: the slot decided.
    const clean = defaultDecode(genFlashInfer({ grid: [264], numGroups: 2 })).d;
    assert.deepEqual(sorted(decoded(d)).regions, sorted(decoded(clean)).regions);
  });

  it('a record\'s details: block and group from its slot, the tag\'s SM id', () => {
    const g = genFlashInfer({ grid: [264], numGroups: 2 });
    const { d } = defaultDecode(g);
    // Slot 1 + 7 is lane 7: block 3, group 1.
    const f = Object.fromEntries(recordFields({ words: g.words, slots: g.slots }, d, 8));
    assert.deepEqual([f.block, f.group, f.sm_id], ['3', '1', String(g.blockSm[3])]);
  });

  it('the per-SM view: each SM with its blocks, lanes and regions', () => {
    const g = genFlashInfer({ grid: [264], numGroups: 2 });
    const { d } = defaultDecode(g);
    const rows = smRows(d);
    assert.equal(rows.length, 132);
    assert.deepEqual(rows.map((r) => r.sm), Array.from({ length: 132 }, (_, i) => i));
    // 264 blocks on 132 SMs, two resident per SM: two blocks each, four lanes.
    assert.ok(rows.every((r) => r.blocks === 2 && r.lanes === 4));
    assert.equal(rows.reduce((a, r) => a + r.regions, 0), d.regionCount);
    assert.deepEqual(smRows(decode({ words: g.words, slots: g.slots }, { layout: TVM })), []);
    // The panel's summary carries it, and the page accepts it.
    const s = kprofSummary(d);
    assert.deepEqual([s.facts.layout, s.facts.lanes_from_slots, s.facts.sms, s.sms.length], ['flashinfer', true, 132, 132]);
    assert.deepEqual(s.sms[0], { sm: rows[0].sm, blocks: 2, lanes: 4, records: rows[0].records, regions: rows[0].regions, region_ns: rows[0].regionNs, first_ns: rows[0].firstNs, last_ns: rows[0].lastNs });
    assert.ok(parseHostMessage({ type: 'kprofSummary', summary: s }));
  });

  it('a --stride past the buffer reads each slot as its own lane, without arrays of that size', () => {
    const g = genFlashInfer({ grid: [4], numGroups: 1 });
    const d = decode({ words: g.words, slots: g.slots }, { layout: FLASHINFER, stride: 999_999_999 });
    assert.equal(d.stride, g.slots);
    assert.equal(d.laneRecords.length, 4);
  });

  it('every problem code, the two new ones included, is in the documented list with its severity', () => {
    assert.deepEqual(Object.fromEntries(KPROF_CODES.map((c) => [c.code, c.severity])), SEVERITY);
  });
});
