import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IdTable, IntKeyed } from '../../../core/common/intKeyed';

type Key = number | string;
type Op = { op: 'set'; k: Key; v: number } | { op: 'delete'; k: Key } | { op: 'get'; k: Key };

/** Runs `ops` on an IntKeyed and a Map side by side; every get, and at the end every key of `pool`, must agree. */
function sameAsMap(ops: readonly Op[], pool: readonly Key[]): void {
  const t = new IntKeyed();
  const m = new Map<Key, number>();
  for (const o of ops) {
    if (o.op === 'set') {
      t.set(o.k, o.v);
      m.set(o.k, o.v);
    } else if (o.op === 'delete') {
      t.delete(o.k);
      m.delete(o.k);
    } else assert.equal(t.get(o.k), m.get(o.k), `get(${String(o.k)})`);
    assert.equal(t.size, m.size);
  }
  for (const k of pool) assert.equal(t.get(k), m.get(k), `get(${String(k)}) at the end`);
}

// Mostly small integers (runs of neighbouring slots, and runs that wrap past the table's end once
// the table holds a few dozen), some of every key an int32 table cannot hold.
const POOL: Key[] = [...Array.from({ length: 120 }, (_, i) => i), -1, -(2 ** 31), 2 ** 31 - 1, 2 ** 31, 2 ** 40, 2 ** 53 - 1, 0.5, -3.25, '7', 'x', '9007199254740993'];
const key = fc.constantFrom(...POOL);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), k: key, v: fc.integer({ min: 0, max: 2 ** 31 - 2 }) }),
  fc.record({ op: fc.constant('delete' as const), k: key }),
  fc.record({ op: fc.constant('get' as const), k: key }),
);

describe('IntKeyed', () => {
  it('gives what a Map gives for any mix of set, delete and get', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => sameAsMap(ops, POOL)), { numRuns: 300 });
  });

  it('keeps every key through growth and deletes in the middle of long runs', () => {
    // 5000 keys grow the table eight times (64 slots to 16384); deleting every third then finds the rest where the
    // backward shift left them.
    const ops: Op[] = [];
    for (let k = 0; k < 5000; k++) ops.push({ op: 'set', k: k * 7919 - 20_000, v: k });
    for (let k = 0; k < 5000; k += 3) ops.push({ op: 'delete', k: k * 7919 - 20_000 });
    for (let k = 0; k < 5000; k++) ops.push({ op: 'get', k: k * 7919 - 20_000 });
    sameAsMap(ops, []);
  });

  it('takes and drops an entry per event (a START, then its END), the live ones kept', () => {
    const t = new IntKeyed();
    for (let id = 0; id < 100_000; id++) {
      t.set(id, id);
      if (id >= 10) {
        assert.equal(t.get(id - 10), id - 10);
        t.delete(id - 10);
      }
    }
    assert.equal(t.size, 10);
    for (let id = 99_990; id < 100_000; id++) assert.equal(t.get(id), id);
  });

  it('has the keys of a Map: -0 is 0, a string is never a number', () => {
    const t = new IntKeyed();
    t.set(-0, 4);
    assert.equal(t.get(0), 4);
    t.set('4', 1);
    assert.equal(t.get(4), undefined);
    assert.equal(t.get('4'), 1);
    t.delete(0);
    assert.equal(t.get(-0), undefined);
    assert.equal(t.size, 1);
  });
});

describe('IdTable', () => {
  it('holds what a Map holds, and gives its entries in the order a Map does', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => {
      const t = new IdTable<{ v: number }>();
      const m = new Map<Key, { v: number }>();
      for (const o of ops) {
        if (o.op === 'set') {
          // A key set again keeps its place; one deleted and set again goes last.
          t.set(o.k, { v: o.v });
          m.set(o.k, { v: o.v });
        } else if (o.op === 'delete') {
          t.delete(o.k);
          m.delete(o.k);
        } else assert.deepEqual(t.get(o.k), m.get(o.k));
        assert.equal(t.size, m.size);
      }
      assert.deepEqual(t.entries(), [...m.entries()]);
    }), { numRuns: 300 });
  });
});
