/**
 * The editor opens and decodes buffers in the built worker (dist/kprofWorker.js): same result as
 * the in-process decode (and the same timeline model and statistics), format errors as
 * KprofFormatError, Cancel stops it, and the calling
 * thread keeps running its event loop while a big buffer decodes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { KprofFormatError } from '../../../core/kprof/errors';
import { decodeInWorker, KprofCancelled } from '../../../client/kprof/decodeInWorker';
import { runRequest } from '../../../node/workers/kprofDecode';
import { genKprof, genKprofLarge, npyBytes } from '../../gen/kprofGen';

const ROOT = resolve(__dirname, '../../..');
const WORKER = join(ROOT, 'dist/kprofWorker.js');
const inflate = (d: Uint8Array, max: number) => inflateRawSync(d, { maxOutputLength: Math.max(1, max) });

describe('kprof worker', () => {
  it('is built', () => assert.ok(existsSync(WORKER), 'dist/kprofWorker.js is missing: run `npm run build` first'));

  it('opens and decodes as the in-process decode does: the spec example, a 2-D buffer, a buffer with problems, names', async () => {
    const spec = new Uint8Array(readFileSync(join(ROOT, 'examples/spec.kprof.npy')));
    const a = genKprof({ blocks: 2 }).words;
    const twoD = new Uint32Array(a.length * 2);
    twoD.set(a);
    twoD.set(a, a.length);
    const cases = [
      { kind: 'open' as const, fileName: 'spec.kprof.npy', bytes: spec, launch: 0 },
      { kind: 'open' as const, fileName: 'two.npy', bytes: npyBytes(twoD, { shape: `(2, ${a.length / 2})` }), launch: 1, names: ['load'] },
      { kind: 'open' as const, fileName: 'bad.kprof.npy', bytes: npyBytes(genKprof({ blocks: 2, slots: 8 }).words), launch: 0 },
    ];
    for (const req of cases) {
      const here = runRequest({ ...req, bytes: req.bytes.slice() }, inflate);
      const there = await decodeInWorker(WORKER, req);
      assert.deepEqual(there.decoded, here.decoded);
      // The panel's timeline model and statistics are built there too.
      assert.deepEqual(there.model, here.model);
      assert.deepEqual(there.summary, here.summary);
      assert.equal(there.opened?.launches.length, here.opened?.launches.length);
      assert.deepEqual(there.opened?.launches.map((l) => [...l.words]), here.opened?.launches.map((l) => [...l.words]));
    }
    const g = genKprof({ blocks: 3 });
    const again = await decodeInWorker(WORKER, { kind: 'decode', words: g.words.slice(), slots: g.slots, names: ['x'], launch: 1, launches: 2 });
    const againHere = runRequest({ kind: 'decode', words: g.words, slots: g.slots, names: ['x'], launch: 1, launches: 2 }, inflate);
    assert.deepEqual(again.decoded, againHere.decoded);
    assert.deepEqual(again.model, againHere.model);
    assert.deepEqual([again.summary.facts.launch, again.summary.facts.launches], [1, 2]);
  });

  it('the caller\'s bytes are transferred when they are the whole of a large buffer, copied when a view into one', async () => {
    const whole = npyBytes(genKprofLarge(8, 2, 2049).words);
    assert.ok(whole.byteOffset === 0 && whole.buffer.byteLength === whole.byteLength && whole.byteLength > 1 << 16);
    await decodeInWorker(WORKER, { kind: 'open', fileName: 'a.npy', bytes: whole, launch: 0 });
    assert.equal(whole.byteLength, 0, 'transferred: detached here');
    const outer = new Uint8Array(1 << 20);
    const inner = npyBytes(genKprofLarge(8, 2, 2049).words);
    outer.set(inner, 64);
    const view = outer.subarray(64, 64 + inner.byteLength);
    const r = await decodeInWorker(WORKER, { kind: 'open', fileName: 'b.npy', bytes: view, launch: 0 });
    assert.equal(outer.byteLength, 1 << 20, 'a view into a larger buffer is copied, its buffer left alone');
    assert.equal(r.decoded.records, 8 * 2 * 2049);
  });

  it('a file that is not a buffer rejects with its message as a KprofFormatError', async () => {
    await assert.rejects(decodeInWorker(WORKER, { kind: 'open', fileName: 'be.npy', bytes: npyBytes(new Uint32Array(8), { descr: '>u8' }), launch: 0 }), (e) => e instanceof KprofFormatError && /big-endian/.test(e.message));
  });

  it('the caller\'s event loop keeps turning while 4M records decode, and Cancel stops the worker', async () => {
    const big = npyBytes(genKprofLarge(64, 4, 16_384).words);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    let phases = '';
    const r = await decodeInWorker(WORKER, { kind: 'open', fileName: 'big.kprof.npy', bytes: big, launch: 0 }, { onPhase: (p) => (phases += `${p} `) });
    clearInterval(timer);
    assert.equal(r.decoded.records, 64 * 4 * 16_383);
    assert.equal(phases, 'reading decoding ');
    // In-process, the decode holds the thread and no tick runs until it returns.
    assert.ok(ticks >= 2, `the event loop ticked ${ticks} time(s) during the decode`);
    const stop = new AbortController();
    const p = decodeInWorker(WORKER, { kind: 'open', fileName: 'big.kprof.npy', bytes: npyBytes(genKprofLarge(64, 4, 16_384).words), launch: 0 }, { signal: stop.signal });
    stop.abort();
    await assert.rejects(p, KprofCancelled);
  });
});
