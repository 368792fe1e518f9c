// Any bytes, in any pieces: the Perfetto reader never throws, reports its problems with stable
// codes at byte offsets inside the file, and reads the same model whatever the piece boundaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PerfettoFile } from '../../core/perfetto/file';
import { PERFETTO_CODES } from '../../core/perfetto/codes';
import { NNAPI_CODES } from '../../core/nnapi/codes';
import { androidSystemTrace, sdkTrace } from '../gen/perfettoGen';

const KNOWN = new Set([...PERFETTO_CODES, ...NNAPI_CODES].map((c) => c.code));

function read(bytes: Uint8Array, cuts: number[]): { codes: string[]; slices: number; maxAt: number } {
  const f = new PerfettoFile();
  let p = 0;
  for (const c of [...cuts, bytes.length].sort((a, b) => a - b)) {
    f.feed(bytes.subarray(p, Math.max(p, c)));
    p = Math.max(p, c);
  }
  const r = f.end({ nnapi: true });
  return { codes: r.diagnostics.map((d) => d.code), slices: f.reader.stats.slices, maxAt: Math.max(0, ...r.diagnostics.map((d) => d.range.start.character)) };
}

const seeds = [androidSystemTrace({ marks: 2 }), sdkTrace({ slices: 2 })];

describe('perfetto reader on hostile bytes (property)', () => {
  it('mutated traces: no throw, known codes, offsets inside the file, same result in any pieces', () => {
    fc.assert(fc.property(
      fc.constantFrom(0, 1), fc.array(fc.record({ at: fc.nat(), v: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
      fc.nat(), fc.array(fc.nat(), { maxLength: 6 }),
      (which, edits, cut, pieces) => {
        const src = seeds[which];
        const b = src.slice(0, src.length - (cut % 64));
        for (const e of edits) b[e.at % b.length] = e.v;
        const cuts = pieces.map((x) => x % (b.length + 1));
        const whole = read(b, []);
        const split = read(b, cuts);
        assert.deepEqual(split, whole);
        for (const c of whole.codes) assert.ok(KNOWN.has(c) || /^perfetto\./.test(c), c);
        assert.ok(whole.maxAt <= b.length, `offset ${whole.maxAt} inside ${b.length} bytes`);
      },
    ), { numRuns: 300 });
  });

  it('random bytes: no throw', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
      read(b, [b.length >> 1]);
    }), { numRuns: 500 });
  });
});
