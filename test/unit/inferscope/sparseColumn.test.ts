import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SparseColumn } from '../../../core/inferscope/sparseColumn';

describe('SparseColumn', () => {
  it('gives back every value set, and `absent` for every other row (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.double({ noNaN: true })), { maxLength: 300 }), fc.constantFrom(NaN, -1), (steps, absent) => {
      const col = new SparseColumn(absent);
      const set = new Map<number, number>();
      let row = -1;
      for (const [gap, v] of steps) {
        row += gap;
        col.set(row, v);
        set.set(row, v);
      }
      for (let i = 0; i <= row + 40; i++) assert.ok(Object.is(col.get(i), set.has(i) ? set.get(i) : absent), `row ${i}`);
    }));
  });

  it('holds rows at word and block edges (bit 31, the last row of a block) and a full block', () => {
    const col = new SparseColumn(-1);
    const rows = [0, 31, 32, 63, 65535, 65536, 65567, 200000];
    rows.forEach((r, k) => col.set(r, k));
    rows.forEach((r, k) => assert.equal(col.get(r), k));
    for (const r of [1, 30, 33, 64, 65534, 65537, 131071, 199999, 200001]) assert.equal(col.get(r), -1);
    const full = new SparseColumn(NaN);
    for (let i = 0; i < 70000; i++) full.set(i, i * 0.5);
    for (let i = 0; i < 70000; i += 997) assert.equal(full.get(i), i * 0.5);
    assert.equal(full.get(69999), 69999 * 0.5);
  });

  it('refuses a row set out of order, or twice', () => {
    const col = new SparseColumn(NaN);
    col.set(5, 1);
    assert.throws(() => col.set(5, 2), RangeError);
    assert.throws(() => col.set(3, 2), RangeError);
    assert.equal(col.get(5), 1);
  });
});
