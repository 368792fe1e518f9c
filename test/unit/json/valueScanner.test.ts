// The value scanner under the streaming readers (Chrome events, InferScope events and scopes): fed
// a document in pieces cut anywhere, it must end each value where a reader of the whole text does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringEnd, ValueScanner, type BareEnd } from '../../../core/json/valueScanner';

/** Where the value starting at `text[0]` ends, fed in pieces of the given sizes. */
function endIn(text: string, cuts: number[], bareEnd: BareEnd): number {
  const v = new ValueScanner(bareEnd);
  v.begin(text.charCodeAt(0));
  let at = 0;
  const sizes = [...cuts, text.length];
  for (const size of sizes) {
    const piece = text.slice(at, at + Math.max(1, size));
    if (!piece) break;
    const end = v.scan(piece, 0);
    if (end >= 0) return at + end;
    at += piece.length;
  }
  return -1;
}

const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
// Strings full of the characters the scanner turns on: quotes, backslashes, brackets, commas.
const tricky = fc.array(fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', 'a', ' '), { maxLength: 12 }).map((cs) => JSON.stringify(cs.join('')));

describe('ValueScanner (core/json/valueScanner)', () => {
  it('finds the end of any JSON value, however the text is cut into pieces', () => {
    fc.assert(fc.property(fc.oneof(value, tricky, tricky.map((s) => `{"k":${s},"a":[${s}]}`)), fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 40 }), (v, cuts) => {
      const text = `${v},{"next":1}]`;
      assert.equal(endIn(text, cuts, 'token'), v.length);
      assert.equal(endIn(text, cuts, 'delimiter'), v.length);
    }));
  });

  it('a bare value ends at its token (JSON reading) or at the next delimiter (Chrome\'s reading)', () => {
    assert.equal(endIn('12 x,', [], 'token'), 2);
    assert.equal(endIn('12 x,', [], 'delimiter'), 4);
    assert.equal(endIn('"a" x]', [], 'token'), 3);
    assert.equal(endIn('"a" x]', [], 'delimiter'), 5);
    assert.equal(endIn('{"a":1', [], 'token'), -1);
  });

  it('an escape cut between two pieces still escapes the quote after it', () => {
    // "a\"" then ,: cut right after the backslash.
    assert.equal(endIn('"a\\"",', [3], 'token'), 5);
    assert.equal(endIn('"a\\\\",', [4], 'token'), 5);
  });

  it('a line break between pieces ends an escape (pieces that are lines)', () => {
    const v = new ValueScanner('delimiter');
    v.begin(0x7b);
    assert.equal(v.scan('{"a":"x\\', 0), -1);
    v.lineBreak();
    assert.equal(v.scan('"}', 0), 2);
  });

  it('stringEnd counts the backslashes before a quote', () => {
    assert.equal(stringEnd('ab"', 0), 2);
    assert.equal(stringEnd('a\\"b"', 0), 4);
    assert.equal(stringEnd('a\\\\"', 0), 3);
    assert.equal(stringEnd('"x"', 0, true), 2);
    assert.equal(stringEnd('abc', 0), -1);
  });
});
