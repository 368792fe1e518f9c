// Line and character of offsets in text fed in chunks, as an editor counts them in an LF file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChunkLines } from '../../../core/json/chunkLines';

describe('ChunkLines (core/json/chunkLines)', () => {
  it('gives every asked offset the line and character of the whole text', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '\n', '{'), { maxLength: 60 }).map((cs) => cs.join(''));
    fc.assert(fc.property(text, fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 20 }), fc.array(fc.nat(60)), (t, sizes, asks) => {
      const lines = new ChunkLines();
      let at = 0;
      for (const size of [...sizes, t.length]) {
        const chunk = t.slice(at, at + size);
        lines.next(chunk);
        const wanted = asks.filter((k) => k >= at && k < at + chunk.length).sort((a, b) => a - b);
        for (const k of wanted) {
          const before = t.slice(0, k);
          const line = before.split('\n').length - 1;
          assert.equal(lines.lineAt(k - at), line);
          assert.equal(lines.characterAt(k - at), k - (before.lastIndexOf('\n') + 1));
        }
        lines.end();
        at += chunk.length;
        if (at >= t.length) break;
      }
      assert.equal(lines.lines, t.split('\n').length - 1);
      assert.equal(lines.lastCharacter, t.length - (t.lastIndexOf('\n') + 1));
    }));
  });
});
