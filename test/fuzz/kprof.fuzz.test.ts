// Property-based fuzzing of the kprof decode on FlashInfer-shaped buffers (lanes from slots): random
// tags and timestamps under a plausible header, and generated buffers with random records'
// tags rewritten. Whatever the input, the decode never throws, problems stay bounded, every region
// and instant sits in the lane its slot belongs to, and detection never throws.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, MAX_MISMATCH_LANES } from '../../core/kprof/decode';
import { detectLayout, FLASHINFER } from '../../core/kprof/layouts';
import { smRows } from '../../core/kprof/sms';
import { regionStats } from '../../core/kprof/stats';
import { genFlashInfer } from '../gen/flashinferBuffer';

describe('kprof decode, FlashInfer layout, under fuzzing', () => {
  it('random words under a random header: no exception, bounded problems, regions and instants in their slot\'s lane', () => {
    const word = fc.tuple(
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x3fff })),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1000, max: 1100 })),
    );
    fc.assert(fc.property(
      fc.array(word, { minLength: 1, maxLength: 300 }),
      fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 })),
      fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined }),
      (ws, [blocks, groups], stride) => {
        const words = new Uint32Array(ws.flat());
        if (ws.length > 1) { words[0] = blocks; words[1] = groups; }
        detectLayout(words, ws.length);
        const d = decode({ words, slots: ws.length }, { layout: FLASHINFER, stride, maxProblems: 25, names: ['a', 'b'] });
        assert.ok(d.problems.length <= 25);
        assert.ok(d.problems.filter((p) => p.code === 'kprof.block-mismatch').length <= MAX_MISMATCH_LANES + 1);
        const lanes = d.numBlocks * d.numGroups;
        assert.equal(d.laneSm.length, lanes);
        for (let i = 0; i < d.regionCount; i++) {
          assert.ok(d.regStartSlot[i] < d.regEndSlot[i] && d.regEndSlot[i] < ws.length);
          if (d.lanesFromSlots) {
            assert.equal((d.regStartSlot[i] - 1) % d.stride, d.regLane[i]);
            assert.equal((d.regEndSlot[i] - 1) % d.stride, d.regLane[i]);
          }
        }
        if (d.lanesFromSlots) for (let i = 0; i < d.instantCount; i++) assert.equal((d.instSlot[i] - 1) % d.stride, d.instLane[i]);
        for (const p of d.problems) assert.ok(p.slot >= 0 && p.slot < ws.length && p.message.length < 600, `${p.code} ${p.slot}`);
        regionStats(d, 'group');
        assert.ok(smRows(d).length <= 256);
      }), { numRuns: 1000 });
  });

  it('a generated buffer with random tags rewritten: still its slot lanes; the rewritten lanes, and only they, are reported', () => {
    const g0 = genFlashInfer({ grid: [24], numGroups: 2, sms: 8 });
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: g0.slots - 1 }), { maxLength: 12 }), fc.integer({ min: 1, max: 4095 }), (slots, shift) => {
      const words = g0.words.slice();
      const lanes = 48;
      const hit = new Set<number>();
      for (const s of slots) {
        if ((words[2 * s] | words[2 * s + 1]) === 0) continue;
        const block = Math.floor(((s - 1) % lanes) / 2);
        words[2 * s] = ((words[2 * s] & ~(0xfff << 12)) | (((block + shift) & 0xfff) << 12)) >>> 0;
        hit.add((s - 1) % lanes);
      }
      const d = decode({ words, slots: g0.slots }, { layout: FLASHINFER });
      const reported = new Set(d.problems.filter((p) => p.code === 'kprof.block-mismatch').map((p) => p.block * 2 + p.group));
      assert.deepEqual([...reported].sort((a, b) => a - b), [...hit].sort((a, b) => a - b));
      assert.deepEqual(d.problems.filter((p) => p.code !== 'kprof.block-mismatch'), []);
    }), { numRuns: 200 });
  });
});
