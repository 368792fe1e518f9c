// The one splitter of streamed bytes (the CLI's readers and the timeline's line reader use it):
// held to the editor's `splitLines` on any bytes cut into any chunks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineSplitter } from '../../../core/common/lineSplitter';
import { splitLines } from '../../../core/common/lines';

interface Split {
  lines: (string | undefined)[];
  tooLong: [number, number][];
  offsets: Map<number, number>;
  count: number;
}

function split(chunks: Uint8Array[], opts: { maxLineBytes?: number; cutOff?: boolean } = {}): Split {
  const out: Split = { lines: [], tooLong: [], offsets: new Map(), count: 0 };
  const s = new LineSplitter({
    line: (b, st, e, n, offset) => {
      assert.equal(out.lines[n], undefined, `line ${n} handed on twice`);
      out.lines[n] = Buffer.from(b.subarray(st, e)).toString('utf8');
      out.offsets.set(n, offset);
    },
    tooLong: (n, length) => out.tooLong.push([n, length]),
  }, { maxLineBytes: opts.maxLineBytes, atFileStart: true });
  for (const c of chunks) assert.equal(s.feed(c), undefined);
  out.count = s.end(opts.cutOff);
  return out;
}

/** `bytes` cut at the given points. */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

// Bytes rich in what splitting gets wrong: CR, LF, runs of LF, a BOM, multi-byte characters.
const PIECES = ['a', 'bc', '\r', '\n', '\r\n', '\n\n\n', '\uFEFF', 'é', '€', '\u{1F600}'];
const BYTES = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => new Uint8Array(Buffer.from(p.join(''), 'utf8')));

describe('LineSplitter', () => {
  it('splits any bytes cut into any chunks as the editor splits the text (BOM dropped, CR, LF, CRLF)', () => {
    fc.assert(fc.property(BYTES, fc.array(fc.nat(), { maxLength: 12 }), (bytes, at) => {
      const text = Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, '');
      const want = splitLines(text);
      const got = split(cut(bytes, at));
      assert.equal(got.count, want.length);
      // Runs of empty lines are counted, not handed on.
      assert.deepEqual(want.map((l, i) => got.lines[i] ?? (l === '' ? '' : `missing line ${i}`)), want);
      assert.deepEqual(got.tooLong, []);
      // Each line handed on starts where its bytes are.
      const body = Buffer.from(bytes);
      for (const [n, offset] of got.offsets) assert.ok(body.subarray(offset).toString('utf8').startsWith(want[n]), `offset of line ${n}`);
    }));
  });

  it('a line over the limit is reported with its byte length (no line end), whatever the chunks', () => {
    fc.assert(fc.property(BYTES, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 0, max: 8 }), (bytes, at, limit) => {
      const want = splitLines(Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, ''));
      const got = split(cut(bytes, at), { maxLineBytes: limit });
      assert.equal(got.count, want.length);
      const long = want.map((l, i) => [i, Buffer.byteLength(l)]).filter(([, len]) => len > limit);
      assert.deepEqual(got.tooLong, long);
      for (const [i, l] of want.entries()) {
        if (Buffer.byteLength(l) <= limit) assert.equal(got.lines[i] ?? '', l, `line ${i}`);
        else assert.equal(got.lines[i], undefined, `line ${i} is over the limit`);
      }
    }));
  });

  it('a lone CR ends a line also inside a line over the limit (it used to make one long line of two)', () => {
    const got = split([Buffer.from('aaaa\rbb\ncc')], { maxLineBytes: 3 });
    assert.deepEqual(got.tooLong, [[0, 4]]);
    assert.deepEqual([...got.lines], [undefined, 'bb', 'cc']);
  });

  it('a stream cut off in a line does not hand that line on, but counts it', () => {
    const got = split([Buffer.from('a\nb\nhal')], { cutOff: true });
    assert.deepEqual(got.lines, ['a', 'b']);
    assert.equal(got.count, 3);
  });

  it('stops after a line and gives back the rest of the chunk, which reads on the same way', () => {
    const lines: string[] = [];
    const s: LineSplitter = new LineSplitter({
      line: (b, st, e, n) => {
        lines[n] = Buffer.from(b.subarray(st, e)).toString('utf8');
        if (n === 1) s.stop();
      },
    });
    const rest = s.feed(Buffer.from('a\r\nb\r\nc\rd'));
    assert.equal(Buffer.from(rest!).toString(), 'c\rd');
    assert.equal(s.offset, 6);
    assert.equal(s.feed(rest!), undefined);
    assert.equal(s.end(), 4);
    assert.deepEqual(lines, ['a', 'b', 'c', 'd']);
  });

  it('counts a gigabyte-like run of newlines without handing each on', () => {
    let calls = 0;
    const s = new LineSplitter({ line: () => calls++ });
    // Unaligned too: the run is read 8 bytes at a time where it can be.
    const nl = new Uint8Array((1 << 20) + 3).fill(10).subarray(3);
    for (let i = 0; i < 16; i++) s.feed(nl);
    s.feed(new Uint8Array([97, 10, 10, 10]));
    assert.equal(s.end(), 16 * (1 << 20) + 4);
    assert.ok(calls < 100, `${calls} calls`);
  });
});
