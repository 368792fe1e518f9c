// Any bytes, in any pieces: the Perfetto reader never throws, reports its problems with stable
// codes at byte offsets inside the file, and reads the same model whatever the piece boundaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PerfettoFile } from '../../core/perfetto/file';
import { PERFETTO_CODES } from '../../core/perfetto/codes';
import { NNAPI_CODES } from '../../core/nnapi/codes';
import { WireType, type BinaryWriter } from '@bufbuild/protobuf/wire';
import { perfettoTimeline } from '../../core/perfetto/timeline';
import { argsOf } from '../../core/timeline/itemArgs';
import { androidSystemTrace, msg, sdkTrace, str } from '../gen/perfettoGen';
import { annotation, oneArgTrace, sdkArgsTrace } from '../gen/perfettoArgsGen';

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

const seeds = [androidSystemTrace({ marks: 2 }), sdkTrace({ slices: 2 }), sdkArgsTrace()];

describe('perfetto reader on hostile bytes (property)', () => {
  it('mutated traces: no throw, known codes, offsets inside the file, same result in any pieces', () => {
    fc.assert(fc.property(
      fc.constantFrom(0, 1, 2), fc.array(fc.record({ at: fc.nat(), v: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
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

  it('mutated annotations: every item\'s arguments are one JSON object', () => {
    fc.assert(fc.property(fc.array(fc.record({ at: fc.nat(), v: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 6 }), (edits) => {
      const b = seeds[2].slice();
      for (const e of edits) b[e.at % b.length] = e.v;
      const m = perfettoTimeline(b);
      for (let i = 0; i < m.items.start.length; i++) {
        const a = argsOf(m, i);
        if (a === undefined) continue;
        const o: unknown = JSON.parse(a);
        assert.ok(typeof o === 'object' && o !== null && !Array.isArray(o));
      }
    }), { numRuns: 300 });
  });

  it('any JSON value written as the SDK writes a TracedValue (dict_entries, array_values, scalars) comes back as that value', () => {
    /** The value as annotations: an empty dict or array, like null, writes no value (and reads as null). */
    const write = (a: BinaryWriter, v: unknown): void => {
      if (v === null) return;
      if (typeof v === 'boolean') a.tag(2, WireType.Varint).bool(v);
      else if (typeof v === 'number') {
        if (Number.isSafeInteger(v)) a.tag(4, WireType.Varint).int64(v);
        else a.tag(5, WireType.Bit64).double(v);
      } else if (typeof v === 'string') str(a, 6, v);
      else if (Array.isArray(v)) for (const x of v) msg(a, 12, (y) => write(y, x));
      else {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          msg(a, 11, (y) => {
            str(y, 10, k);
            write(y, x);
          });
        }
      }
    };
    const empty = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.length ? v.map(empty) : null;
      if (v !== null && typeof v === 'object') {
        const e = Object.entries(v);
        return e.length ? Object.fromEntries(e.map(([k, x]) => [k, empty(x)])) : null;
      }
      return v;
    };
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
      const m = perfettoTimeline(oneArgTrace((e) => annotation(e, (a) => {
        str(a, 10, 'v');
        write(a, v);
      })));
      const want = { v: empty(JSON.parse(JSON.stringify(v))) };
      assert.deepEqual(JSON.parse(argsOf(m, 0)!), JSON.parse(JSON.stringify(want)));
    }), { numRuns: 300 });
  });

  it('random bytes: no throw', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
      read(b, [b.length >> 1]);
    }), { numRuns: 500 });
  });
});
