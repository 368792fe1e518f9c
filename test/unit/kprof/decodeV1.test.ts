// The decoder was restructured for speed (a typed-array stack per lane, 32-bit relative time,
// regLane filled per lane): on random words and on generated buffers with every caveat it must
// give exactly what the previous decoder (decodeV1.ts) gave.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, type Decoded } from '../../../core/kprof/decode';
import { FLASHINFER_PY, MIRAGE, TVM } from '../../../core/kprof/layouts';
import { genKprof, regionsProgram, warpSpecProgram, type Op } from '../../gen/kprofGen';
import { decode as decodeV1 } from './decodeV1';

function same(words: Uint32Array, slots: number, opts: Parameters<typeof decode>[1] = {}): void {
  const now = used(decode({ words, slots }, opts));
  const before = used(decodeV1({ words, slots }, opts));
  assert.deepEqual(now, before);
}

/** The arrays cut to what is used: past `regionCount` / `instantCount` they hold leftover room. */
function used(d: Omit<Decoded, 'laneFlags' | 'laneSm' | 'lanesFromSlots'>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...d };
  // Added after v1 (v1 read lanes from tags only).
  delete out.laneFlags;
  delete out.laneSm;
  delete out.lanesFromSlots;
  for (const k of ['regLane', 'regEvent', 'regStartSlot', 'regEndSlot', 'regStart', 'regEnd'] as const) out[k] = d[k].slice(0, d.regionCount);
  for (const k of ['instLane', 'instEvent', 'instSlot', 'instT'] as const) out[k] = d[k].slice(0, d.instantCount);
  return out;
}

describe('the faster decoder decodes as the previous one', () => {
  it('random words (nested, repeated, unmatched, wrapped), every tag-laned layout, with and without stride and names', () => {
    const word = fc.tuple(
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0x3fff })),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1000, max: 1100 }), fc.integer({ min: 2 ** 32 - 200, max: 2 ** 32 - 1 })),
    );
    fc.assert(fc.property(
      fc.array(word, { minLength: 1, maxLength: 300 }),
      fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
      fc.constantFrom(TVM, FLASHINFER_PY, MIRAGE),
      fc.constantFrom([], ['a'], ['a', 'b', 'c']),
      fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
      (ws, stride, layout, names, [blocks, groups]) => {
        const words = new Uint32Array(ws.flat());
        // A plausible header half the time, so lanes and regions are found, not only no-header.
        if (blocks && groups) { words[0] = blocks; words[1] = groups; }
        same(words, ws.length, { stride, layout, names, maxProblems: 30 });
      }), { numRuns: 1500 });
  });

  it('generated buffers with each caveat, deep nesting, instants and a timer wrap', () => {
    const nested = (): Op[] => [[0, 0, 0], [0, 1, 5], [0, 0, 5], [2, 3, 1], [1, 0, 7], [1, 1, 0], [1, 0, 9], [0, 2, 3], [1, 2, 0]];
    // Three STARTs, the middle one closed: two stay open, reported outermost first.
    const unclosed = (): Op[] => [[0, 0, 0], [0, 1, 5], [0, 2, 5], [1, 1, 3]];
    const cases = [
      genKprof({ blocks: 2, groups: 2, program: unclosed }),
      genKprof({ blocks: 4 }),
      genKprof({ blocks: 2, groups: 6, program: warpSpecProgram }),
      genKprof({ blocks: 3, groups: 2, program: nested, startNs: 2 ** 32 - 20 }),
      genKprof({ blocks: 4, noFinalize: [1, 2] }),
      genKprof({ blocks: 4, twoLeaders: 2 }),
      genKprof({ blocks: 4, stride: 2 }),
      genKprof({ blocks: 4, slots: 15 }),
      genKprof({ blocks: 4, noHeader: true }),
      genKprof({ blocks: 5, seed: 7, program: () => regionsProgram([[0, 10], [1, 0], [2, 30], [1, 5]], 3), startNs: 2 ** 32 - 5000 }),
    ];
    for (const g of cases) {
      same(g.words, g.slots);
      same(g.words, g.slots, { names: ['load'], maxProblems: 3 });
    }
  });
});
