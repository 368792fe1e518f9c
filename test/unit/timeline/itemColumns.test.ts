// The item columns a builder lets go at its last finish (ItemBuffer.take with release): reordered
// in place when sized exactly and the order is a permutation, copied otherwise; the same columns
// as the copying take in every case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ItemBuffer } from '../../../core/timeline/columns';

function filled(n: number, reserve: boolean): ItemBuffer {
  const b = new ItemBuffer();
  if (reserve) b.reserve(n);
  for (let i = 0; i < n; i++) {
    b.start.push(i * 1.5); b.end.push(i * 2.5); b.line.push(i + 7); b.endLine.push(i); b.name.push(i % 5);
    b.id.push(-i); b.ctx.push(i % 3); b.bytes.push(i * 4); b.kind.push(i % 7); b.flags.push(i % 2); b.track.push(i % 4);
  }
  return b;
}

test('a released take gives the columns a copying take gives: in place for a permutation of an exactly sized buffer, else copied', () => {
  // Past the default capacity (1024), so a reserved buffer is sized exactly.
  fc.assert(fc.property(fc.integer({ min: 0, max: 3000 }), fc.boolean(), fc.boolean(), fc.integer(), (n, reserve, perm, seed) => {
    let x = seed >>> 0;
    const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const order = Uint32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    // Not a permutation: a repeated place (the copying take still answers).
    if (!perm && n > 1) order[0] = order[1];
    const want = filled(n, reserve).take(order);
    const b = filled(n, reserve);
    const startBuffer = b.start.data.buffer;
    const got = b.take(order, true);
    assert.deepEqual(got, want);
    assert.equal(b.length, 0, 'let go');
    // Sized exactly: reserved past the default capacity, or grown to exactly n (1024, the default
    // capacity itself, or 2048) without a reserve.
    assert.equal(got.start.buffer === startBuffer, (perm || n < 2) && n > 0 && startBuffer.byteLength === n * 8, 'in place only when it can be');
    if (reserve && n > 1024) assert.equal(startBuffer.byteLength, n * 8, 'a reserve past the default capacity sizes exactly');
  }), { numRuns: 300 });
});
