import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lowerBound, upperBound } from '../../../core/common/bounds';

test('lowerBound and upperBound agree with a linear scan of the sorted run [lo, hi)', () => {
  fc.assert(fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 40 }), fc.integer({ min: -6, max: 6 }), fc.nat(), fc.nat(), (xs, x, a, b) => {
    const col = Float64Array.from(xs.sort((p, q) => p - q));
    const lo = col.length ? a % (col.length + 1) : 0;
    const hi = lo + (col.length - lo ? b % (col.length - lo + 1) : 0);
    let first = lo;
    while (first < hi && col[first] < x) first++;
    let above = lo;
    while (above < hi && col[above] <= x) above++;
    assert.equal(lowerBound(col, lo, hi, x), first);
    assert.equal(upperBound(col, lo, hi, x), above);
  }));
});
