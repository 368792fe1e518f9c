// The .npy / .npz / .bin readers: every format version, both dtypes, 1-D and 2-D, stored and
// deflated zips, and a clear KprofFormatError — never another exception or a hang — for every
// malformed input, including fuzzed ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { KprofFormatError } from '../../../core/kprof/errors';
import { readNpy } from '../../../core/kprof/npy';
import { readNpz } from '../../../core/kprof/npz';
import { openBuffer } from '../../../core/kprof/open';
import { readBin } from '../../../core/kprof/words';
import { genKprof, npyBytes, npyNames, npzBytes, wordBytes } from '../../gen/kprofGen';

const inflate = (b: Uint8Array, max: number) => inflateRawSync(b, { maxOutputLength: Math.max(1, max) });
const deflate = (b: Uint8Array) => new Uint8Array(deflateRawSync(b));
const spec = genKprof({ blocks: 4, slots: 64 });

function refused(f: () => unknown, pattern: RegExp): void {
  assert.throws(f, (e: unknown) => e instanceof KprofFormatError && pattern.test(e.message), `expected a KprofFormatError matching ${pattern}`);
}

/** Text of a .npy header with the given dict, for hand-made broken files. */
function rawNpy(dict: string, data = new Uint8Array(0), major = 1): Uint8Array {
  const pre = major === 1 ? 10 : 12;
  const out = new Uint8Array(pre + dict.length + data.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  new DataView(out.buffer).setUint16(8, dict.length, true);
  if (major !== 1) new DataView(out.buffer).setUint32(8, dict.length, true);
  for (let i = 0; i < dict.length; i++) out[pre + i] = dict.charCodeAt(i);
  out.set(data, pre + dict.length);
  return out;
}

describe('.npy', () => {
  for (const major of [1, 2, 3] as const) {
    it(`reads format ${major}.0, <u8 1-D, word for word`, () => {
      const [b] = readNpy(npyBytes(spec.words, { major }));
      assert.equal(b.slots, 64);
      assert.deepEqual([...b.words], [...spec.words]);
    });
  }
  it('reads <i8 (the same bits)', () => {
    const [b] = readNpy(npyBytes(spec.words, { descr: '<i8' }));
    assert.deepEqual([...b.words], [...spec.words]);
  });
  it('reads 2-D as one buffer per launch, C and Fortran order', () => {
    const other = genKprof({ blocks: 4, slots: 64, seed: 9 });
    const both = new Uint32Array([...spec.words, ...other.words]);
    const c = readNpy(npyBytes(both, { shape: '(2, 64)' }));
    assert.equal(c.length, 2);
    assert.deepEqual([...c[1].words], [...other.words]);
    // Fortran order: element (l, s) at s * 2 + l.
    const f = new Uint32Array(both.length);
    for (let s = 0; s < 64; s++) for (let l = 0; l < 2; l++) {
      const src = l === 0 ? spec.words : other.words;
      f[2 * (s * 2 + l)] = src[2 * s];
      f[2 * (s * 2 + l) + 1] = src[2 * s + 1];
    }
    const fo = readNpy(npyBytes(f, { shape: '(2, 64)', fortran: true }));
    assert.deepEqual([...fo[0].words], [...spec.words]);
    assert.deepEqual([...fo[1].words], [...other.words]);
  });
  it('reads data at an offset that is not 4-byte aligned (copied)', () => {
    const npy = npyBytes(spec.words);
    const shifted = new Uint8Array(npy.length + 1).subarray(1);
    shifted.set(npy);
    assert.deepEqual([...readNpy(shifted)[0].words], [...spec.words]);
  });
  it('refuses big-endian, object (pickled), 3-D, 0-D, float and structured dtypes, saying why', () => {
    refused(() => readNpy(npyBytes(spec.words, { descr: '>u8' })), /big-endian/);
    refused(() => readNpy(npyBytes(spec.words, { descr: '|O' })), /pickled.*never unpickled/);
    refused(() => readNpy(npyBytes(spec.words, { shape: '(2, 2, 16)' })), /3-D/);
    refused(() => readNpy(npyBytes(spec.words, { shape: '()' })), /0-D/);
    refused(() => readNpy(npyBytes(spec.words, { descr: '<f8' })), /dtype is "<f8"/);
    refused(() => readNpy(rawNpy("{'descr': [('a', '<u8')], 'fortran_order': False, 'shape': (8,), }")), /structured dtype/);
  });
  it('refuses a header claiming 2^63 elements, or more than the file holds', () => {
    refused(() => readNpy(npyBytes(spec.words, { shape: '(9223372036854775808,)' })), /over 2\^53.*the file holds 64/);
    refused(() => readNpy(npyBytes(spec.words, { shape: '(65536, 65536)' })), /over the 268435456 read/);
    refused(() => readNpy(npyBytes(spec.words, { shape: '(65,)' })), /cut off: shape \(65,\) needs 520 bytes, the file holds 512/);
  });
  it('refuses empty, truncated and damaged headers', () => {
    const good = npyBytes(spec.words);
    refused(() => readNpy(new Uint8Array(0)), /empty/);
    refused(() => readNpy(good.subarray(0, 9)), /cut off/);
    refused(() => readNpy(good.subarray(0, 40)), /header is cut off/);
    refused(() => readNpy(npyBytes(spec.words, { shape: '(0,)' })), /empty/);
    refused(() => readNpy(rawNpy("{'descr': '<u8', 'fortran_order': False, 'shape': (4,")), /not a valid dict/);
    refused(() => readNpy(rawNpy("{'descr': '<u8', 'shape': (4,), }")), /fortran_order/);
    const v9 = good.slice();
    v9[6] = 9;
    refused(() => readNpy(v9), /version 9\.0/);
  });
});

describe('.bin and .npz', () => {
  it('reads a raw .bin; refuses a size that is not whole words', () => {
    assert.deepEqual([...readBin(wordBytes(spec.words)).words], [...spec.words]);
    refused(() => readBin(wordBytes(spec.words).subarray(0, 13)), /13 bytes \(5 left over\)/);
    refused(() => readBin(new Uint8Array(0)), /empty/);
  });
  for (const [how, d] of [['stored (savez)', undefined], ['deflated (savez_compressed)', deflate]] as const) {
    it(`reads a ${how} .npz: buffer "prof" and the names array`, () => {
      const z = readNpz(npzBytes({ prof: npyBytes(spec.words), names: npyNames(['load', 'compute', 'störe']) }, d), inflate);
      assert.equal(z.key, 'prof');
      assert.deepEqual([...z.launches[0].words], [...spec.words]);
      assert.deepEqual(z.names, ['load', 'compute', 'störe']);
    });
  }
  it('takes the only integer array when no entry is "prof"; refuses two, or none', () => {
    const floats = npyBytes(new Uint32Array(4), { descr: '<f8' });
    assert.equal(readNpz(npzBytes({ buf: npyBytes(spec.words), other: floats }), inflate).key, 'buf');
    refused(() => readNpz(npzBytes({ a: npyBytes(spec.words), b: npyBytes(spec.words) }), inflate), /2 integer arrays \("a", "b"\) and none is named "prof"/);
    refused(() => readNpz(npzBytes({ a: floats }), inflate), /no uint64\/int64 array/);
  });
  it('refuses an object (pickled) names array and a pickled buffer', () => {
    const pickled = npyBytes(new Uint32Array(2), { descr: '|O', shape: '(1,)' });
    refused(() => readNpz(npzBytes({ prof: npyBytes(spec.words), names: pickled }), inflate), /names.*pickled.*never unpickled/);
    refused(() => readNpz(npzBytes({ prof: pickled }), inflate), /pickled/);
  });
  it('refuses a cut-off zip and a deflated entry that inflates past its declared size', () => {
    const z = npzBytes({ prof: npyBytes(spec.words) }, deflate);
    refused(() => readNpz(z.subarray(0, z.length - 30), inflate), /not a complete zip/);
    const lying = z.slice();
    // Central directory's uncompressed size (offset 24 of the entry) made smaller.
    const cd = lying.length - 22 - 46 - 'prof.npy'.length;
    new DataView(lying.buffer).setUint32(cd + 24, 100, true);
    refused(() => readNpz(lying, inflate), /does not inflate|not the 100/);
  });
  it('openBuffer tells the container by its bytes', () => {
    assert.equal(openBuffer('x.bin', npyBytes(spec.words), inflate).container, 'npy');
    assert.equal(openBuffer('x.kprof.bin', wordBytes(spec.words), inflate).container, 'bin');
    refused(() => openBuffer('x.npy', wordBytes(spec.words), inflate), /Not a \.npy/);
  });
});

describe('readers under fuzzing: a KprofFormatError or a buffer, nothing else', () => {
  const good = npyBytes(genKprof({ blocks: 2, slots: 16 }).words);
  const goodZ = npzBytes({ prof: good, names: npyNames(['a', 'b']) }, deflate);
  const check = (name: string, bytes: Uint8Array) => {
    try {
      const o = openBuffer(name, bytes, inflate);
      for (const l of o.launches) assert.equal(l.words.length, l.slots * 2);
    } catch (e) {
      if (!(e instanceof KprofFormatError)) throw e;
      assert.ok(e.message.length > 0 && e.message.length < 400);
    }
  };
  it('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('a.npy', 'a.npz', 'a.bin'), (b, n) => check(n, b)), { numRuns: 500 });
  });
  it('truncated and byte-mutated .npy and .npz', () => {
    fc.assert(fc.property(fc.boolean(), fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), (zip, cut, edits) => {
      const src = zip ? goodZ : good;
      const b = src.slice(0, 1 + (cut % src.length));
      for (const [at, v] of edits) b[at % b.length] = v;
      check(zip ? 'a.npz' : 'a.npy', b);
    }), { numRuns: 1000 });
  });
  it('header dicts with hostile shapes and dtypes', () => {
    const dims = fc.oneof(fc.constantFrom('9223372036854775808', '18446744073709551616', '0', '1', '99999999999999999999999'), fc.nat().map(String));
    fc.assert(fc.property(fc.array(dims, { maxLength: 4 }), fc.constantFrom('<u8', '<i8', '>u8', '|O', '<U3', '=u8', 'u8'), fc.boolean(), (shape, descr, fortran) => {
      check('a.npy', npyBytes(new Uint32Array(8), { descr, shape: `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`, fortran }));
    }), { numRuns: 500 });
  });
});
