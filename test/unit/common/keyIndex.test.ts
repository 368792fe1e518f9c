import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HashSlots, hashKey, hashString, KeyIndex } from '../../../core/common/keyIndex';

/** A KeyIndex over `keys` with every entry added; returns what each add said, and the index. */
function indexed(keys: readonly (string | number | undefined)[], hash?: (k: string | number) => number, expected = 0) {
  const ix = new KeyIndex((i) => keys[i], expected, hash);
  const firsts = keys.map((_, i) => ix.add(i));
  return { ix, firsts };
}

/** What a Map says for the same keys: the earlier entry with the key, else -1. */
function byMap(keys: readonly (string | number | undefined)[]): number[] {
  const m = new Map<string | number, number>();
  return keys.map((k, i) => {
    if (k === undefined) return -1;
    const f = m.get(k);
    if (f === undefined) m.set(k, i);
    return f ?? -1;
  });
}

describe('KeyIndex', () => {
  it('finds the first entry of a repeated key, and only of the same key', () => {
    const keys = ['a', 'b', 'a', 'c', 'b', 'a'];
    const { ix, firsts } = indexed(keys);
    assert.deepEqual(firsts, [-1, -1, 0, -1, 1, 0]);
    assert.equal(ix.get('a'), 0);
    assert.equal(ix.get('c'), 3);
    assert.equal(ix.get('d'), -1);
    assert.equal(ix.size, 3);
  });

  it('keeps the string "1" and the number 1 apart, and -0 and 0 together, as a Map does', () => {
    const keys = ['1', 1, 1, '1', 0, -0, '0', '-0', 1.5, '1.5'];
    assert.deepEqual(indexed(keys).firsts, byMap(keys));
    assert.deepEqual(indexed(keys).firsts, [-1, -1, 1, 0, -1, 4, -1, -1, -1, -1]);
  });

  it('is exact when every key hashes alike: a hash match is compared, never taken for a duplicate', () => {
    const keys = ['x', 'y', 'z', 'y', '', 'x', '', 7, '7', 7];
    const { ix, firsts } = indexed(keys, () => 42);
    assert.deepEqual(firsts, byMap(keys));
    assert.equal(ix.get('z'), 2);
    assert.equal(ix.get('w'), -1);
  });

  it('is exact with a weak hash (a few buckets) across growth from the smallest table', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `id${i % 1700}` : i % 3 === 1 ? i % 900 : `${i % 900}`));
    const weak = (k: string | number) => (typeof k === 'string' ? k.length : 1) & 3;
    assert.deepEqual(indexed(keys, weak).firsts, byMap(keys));
    assert.deepEqual(indexed(keys).firsts, byMap(keys));
  });

  it('grows from a table sized too small, and one sized right gives the same answers', () => {
    const keys = Array.from({ length: 20000 }, (_, i) => `evt_${i % 12345}`);
    const small = indexed(keys, undefined, 1);
    const right = indexed(keys, undefined, keys.length);
    assert.deepEqual(small.firsts, byMap(keys));
    assert.deepEqual(right.firsts, small.firsts);
    assert.equal(small.ix.size, 12345);
  });

  it('takes ids that are Object.prototype names, empty, very long, or lone surrogates as plain keys', () => {
    const long = 'x'.repeat(1 << 20);
    const keys = ['__proto__', 'constructor', 'hasOwnProperty', '', long, `${long}y`, '\ud800', '\udc00', '\ud800\udc00', '__proto__', '', `${'x'.repeat(1 << 20)}`, '\udc00', 'toString'];
    const { ix, firsts } = indexed(keys);
    assert.deepEqual(firsts, byMap(keys));
    assert.equal(ix.get('toString'), 13);
    assert.equal(ix.get('valueOf'), -1);
    assert.equal(ix.get(`${long}y`), 5);
  });

  it('skips entries without a key', () => {
    const keys = [undefined, 'a', undefined, 'a'];
    const { ix, firsts } = indexed(keys);
    assert.deepEqual(firsts, [-1, -1, -1, 1]);
    assert.equal(ix.size, 1);
  });

  it('agrees with a Map on any keys (property)', () => {
    const key = fc.oneof(fc.string({ maxLength: 4, unit: 'binary' }), fc.integer({ min: -5, max: 5 }), fc.constantFrom(-0, 0.5, 1e21, undefined));
    fc.assert(fc.property(fc.array(key, { maxLength: 300 }), fc.boolean(), (keys, weak) => {
      assert.deepEqual(indexed(keys, weak ? (k) => hashKey(k) & 1 : undefined).firsts, byMap(keys));
    }));
  });
});

describe('hashString / hashKey', () => {
  it('hashes code units (lone surrogates too) to unsigned 32 bits, and -0 as 0', () => {
    for (const s of ['', 'a', '\ud800', '\udc00\ud800', 'x'.repeat(1000)]) {
      const h = hashString(s);
      assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 32);
    }
    assert.notEqual(hashString('\ud800\udc00'), hashString('\udc00\ud800'));
    assert.equal(hashKey(-0), hashKey(0));
  });

  it('starts from a seed of the process, so pairs that collide under plain FNV-1a do not (all of them, but for a 2^-32 chance each)', () => {
    // Each pair collides from FNV-1a's published offset basis (0x811c9dc5).
    const pairs = [['costarring', 'liquid'], ['declinate', 'macallums'], ['altarage', 'zinke'], ['altarages', 'zinkes']];
    const collided = pairs.filter(([a, b]) => hashString(a) === hashString(b));
    assert.ok(collided.length < pairs.length, `every published FNV-1a collision still collides: ${JSON.stringify(collided)}`);
  });
});

describe('HashSlots', () => {
  it('finds what was inserted under colliding hashes, across growth', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => i * 7);
    const slots = new HashSlots(() => 5);
    keys.forEach((_, i) => slots.insert(5, i));
    assert.equal(slots.size, 1000);
    for (const i of [0, 1, 499, 999]) assert.equal(slots.find(5, (j) => keys[j] === keys[i]), i);
    assert.equal(slots.find(5, () => false), -1);
  });
});
