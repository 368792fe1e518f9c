import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childListing } from '../../../core/inferscope/childListing';
import type { Element } from '../../../core/inferscope/model';

const scope = (index: number, obj: Record<string, unknown> | undefined): Element => ({ index, start: index, end: index + 1, kind: 'object', obj, broken: false });

describe('childListing', () => {
  it('says whether any scope with the parent id lists the child, ids repeated or not', () => {
    const listed = childListing([
      scope(0, { id: 'a', child_ids: [] }),
      scope(1, { id: 'a', child_ids: ['b', 'b', 7, 'c'] }),
      scope(2, { id: 'b', child_ids: ['__proto__', ''] }),
      scope(3, { id: 7, child_ids: ['x'] }),
      scope(4, undefined),
      scope(5, { id: 'd', child_ids: 'e' }),
    ]);
    assert.equal(listed('a', 'b'), true);
    assert.equal(listed('a', 'c'), true);
    assert.equal(listed('b', '__proto__'), true);
    assert.equal(listed('b', ''), true);
    assert.equal(listed('a', '7'), false);
    assert.equal(listed('7', 'x'), false);
    assert.equal(listed('d', 'e'), false);
    assert.equal(listed('b', 'a'), false);
    assert.equal(listed('c', 'a'), false);
  });

  it('does not take a parent and child that join to the same text for another pair', () => {
    const listed = childListing([scope(0, { id: 'a\0b', child_ids: ['c'] }), scope(1, { id: 'p', child_ids: ['q\ud800'] })]);
    assert.equal(listed('a\0b', 'c'), true);
    assert.equal(listed('a', 'b\0c'), false);
    assert.equal(listed('p', 'q\ud800'), true);
    assert.equal(listed('p', 'q\udc00'), false);
  });

  it('holds many listings of one parent exactly', () => {
    const kids = Array.from({ length: 3000 }, (_, i) => `k${i}`);
    const listed = childListing([scope(0, { id: 'p', child_ids: kids }), scope(1, { id: 'q', child_ids: kids.slice(0, 10) })]);
    assert.ok(kids.every((k) => listed('p', k)));
    assert.equal(listed('q', 'k9'), true);
    assert.equal(listed('q', 'k10'), false);
    assert.equal(listed('p', 'k3000'), false);
  });
});
