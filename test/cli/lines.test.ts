// node/io/lines.ts reads files in 1 MiB chunks: line ends and characters cut by a chunk boundary.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { forEachLine, forEachLineBytes, forEachLineIn, forEachText, TextPieces, textSizeHint } from '../../node/io/lines';
import { readLines } from '../../client/timeline/lineReader';
import { splitLines } from '../../core/common/lines';
import { isUtf8 } from '../../core/common/utf8';

const dir = mkdtempSync(join(tmpdir(), 'trace-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const MiB = 1 << 20;

/** Both readers (text, and bytes as the CLI uses) must see the same lines; returns them. */
async function linesOf(name: string, content: Buffer): Promise<string[]> {
  const file = join(dir, name);
  writeFileSync(file, content);
  // Runs of empty lines are counted, not handed on: a number not seen is an empty line.
  const out: string[] = [];
  const n = await forEachLine(file, (l, i) => (out[i] = l));
  const viaBytes: string[] = [];
  assert.equal(await forEachLineBytes(file, (b, s, e, i, decode) => (viaBytes[i] = decode(b, s, e)), (l, i) => (viaBytes[i] = l)), n);
  for (let i = 0; i < n; i++) {
    out[i] ??= '';
    viaBytes[i] ??= '';
  }
  assert.deepEqual(viaBytes, out, 'forEachLineBytes disagrees with forEachLine');
  // forEachLineIn: one number per decoded text (readers keep searches per number), -1 for a text
  // made for this one line.
  const lengthOf = new Map<number, number>();
  let lastId = 0;
  await forEachLineIn(file, (t, s, e, i, id) => {
    assert.equal(t.slice(s, e), out[i], `line ${i}`);
    if (id < 0) return;
    assert.ok(id >= lastId, 'numbers only grow');
    lastId = id;
    assert.equal(lengthOf.get(id) ?? t.length, t.length, `text ${id} is one text`);
    lengthOf.set(id, t.length);
  });
  const plain = /\.gz$/.test(name) ? undefined : content.toString('utf8').replace(/^\uFEFF/, '');
  if (plain !== undefined) assert.deepEqual(out, splitLines(plain), 'the editor would split differently');
  return out;
}

describe('forEachLine / forEachLineBytes', () => {
  it('a CRLF split across the chunk boundary is one line end', async () => {
    const a = 'a'.repeat(MiB - 1);
    const got = await linesOf('crlf.txt', Buffer.from(`${a}\r\nb\r\n`));
    assert.deepEqual(got.map((l) => l.length), [MiB - 1, 1, 0]);
  });

  it('a multi-byte character split across the boundary stays whole', async () => {
    const a = 'a'.repeat(MiB - 2);
    const got = await linesOf('utf8.txt', Buffer.from(`${a}€x\n€`));
    assert.equal(got.length, 2);
    assert.equal(got[0].slice(-2), '€x');
    assert.equal(got[1], '€');
  });

  it('a BOM is dropped, only at the start; gz is decompressed', async () => {
    assert.deepEqual(await linesOf('bom.txt', Buffer.from('\uFEFFa\n\uFEFFb')), ['a', '\uFEFFb']);
    assert.deepEqual(await linesOf('bom.txt.gz', gzipSync(Buffer.from('\uFEFFa\r\nb'))), ['a', 'b']);
  });

  it('an empty file is one empty line, as in the editor; tiny files too', async () => {
    assert.deepEqual(await linesOf('empty.txt', Buffer.alloc(0)), ['']);
    assert.deepEqual(await linesOf('one.txt', Buffer.from('a')), ['a']);
    assert.deepEqual(await linesOf('bomonly.txt', Buffer.from('\uFEFF')), ['']);
    assert.deepEqual(await linesOf('cr.txt', Buffer.from('\r')), ['', '']);
    // Files shorter than a BOM are still split into lines (they were one line of '\n' bytes).
    assert.deepEqual(await linesOf('lf.txt', Buffer.from('\n')), ['', '']);
    assert.deepEqual(await linesOf('lflf.txt', Buffer.from('\n\n')), ['', '', '']);
    assert.deepEqual(await linesOf('alf.txt', Buffer.from('a\n')), ['a', '']);
  });

  it('lines longer than many chunks, with line ends of every kind between them', async () => {
    const big = 'x'.repeat(3 * MiB + 7);
    const got = await linesOf('long.txt', Buffer.from(`${big}\r\n${big}\n${big}\r${big}`));
    assert.deepEqual(got.map((l) => l.length), [big.length, big.length, big.length, big.length]);
  });

  it('more than 4 MiB of lone-CR lines is split as it streams', async () => {
    const got = await linesOf('crs.txt', Buffer.from('abc\r'.repeat(1_500_000) + 'end'));
    assert.equal(got.length, 1_500_001);
    assert.equal(got[1_499_999], 'abc');
    assert.equal(got[1_500_000], 'end');
  });

  it('runs of empty lines are counted without a call per line, and the lines after them keep their numbers', async () => {
    const calls = { text: 0, bytes: 0 };
    const content = `a\n${'\n'.repeat(3 * MiB)}b\n\n\nc\r\n\n\n\nd`;
    const got = await linesOf('blank.txt', Buffer.from(content));
    assert.equal(got.length, 3 * MiB + 9);
    assert.deepEqual([got[0], got[3 * MiB + 1], got[3 * MiB + 4], got[3 * MiB + 8]], ['a', 'b', 'c', 'd']);
    const file = join(dir, 'blank.txt');
    await forEachLine(file, () => calls.text++);
    await forEachLineBytes(file, () => calls.bytes++, () => calls.bytes++);
    assert.ok(calls.text < 100 && calls.bytes < 100, JSON.stringify(calls));
  });

  // The length is the line's bytes without its line end, as the editor counts characters: a CRLF
  // line of 20 bytes is 20 long (the readers before the one splitter counted its CR, 21).
  it('a line over maxLineBytes is reported with its length and not handed on, whole or cut by chunks', async () => {
    const file = join(dir, 'limit.txt');
    const long = 'x'.repeat(3 * MiB);
    writeFileSync(file, `short\n${long}\nmid\n${'y'.repeat(20)}\r\nend\n${long}`);
    for (const max of [10, 2 * MiB]) {
      const seen: string[] = [];
      const tooLong: [number, number][] = [];
      const opts = { maxLineBytes: max, onTooLong: (n: number, len: number) => tooLong.push([n, len]) };
      const n = await forEachLineBytes(file, (b, s, e, i, decode) => seen.push(`${i}:${decode(b, s, e)}`), (l, i) => seen.push(`${i}:${l}`), opts);
      const short = max === 10 ? [] : [`3:${'y'.repeat(20)}`];
      assert.deepEqual(seen, ['0:short', '2:mid', ...short, '4:end'], `bytes, limit ${max}`);
      assert.deepEqual(tooLong, max === 10 ? [[1, 3 * MiB], [3, 20], [5, 3 * MiB]] : [[1, 3 * MiB], [5, 3 * MiB]]);
      assert.equal(n, 6);
      const seenIn: string[] = [];
      tooLong.length = 0;
      assert.equal(await forEachLineIn(file, (t, s, e, i) => seenIn.push(`${i}:${t.slice(s, e)}`), opts), 6);
      assert.deepEqual(seenIn, ['0:short', '2:mid', ...short, '4:end'], `text, limit ${max}`);
      assert.deepEqual(tooLong, max === 10 ? [[1, 3 * MiB], [3, 20], [5, 3 * MiB]] : [[1, 3 * MiB], [5, 3 * MiB]]);
    }
  });

  it('a lone CR inside a line over the limit still ends a line: the numbers after it are right', async () => {
    const file = join(dir, 'crlimit.txt');
    writeFileSync(file, 'aaaa\rbb\ncc');
    const opts = () => {
      const tooLong: [number, number][] = [];
      return { tooLong, maxLineBytes: 3, onTooLong: (n: number, len: number) => tooLong.push([n, len]) };
    };
    const bytes: string[] = [];
    const b = opts();
    assert.equal(await forEachLineBytes(file, (x, s, e, i, decode) => bytes.push(`${i}:${decode(x, s, e)}`), (l, i) => bytes.push(`${i}:${l}`), b), 3);
    assert.deepEqual([bytes, b.tooLong], [['1:bb', '2:cc'], [[0, 4]]]);
    const text: string[] = [];
    const t = opts();
    assert.equal(await forEachLineIn(file, (x, s, e, i) => text.push(`${i}:${x.slice(s, e)}`), t), 3);
    assert.deepEqual([text, t.tooLong], [['1:bb', '2:cc'], [[0, 4]]]);
  });

  it('a cut-off .gz: the lines before the cut are read, the cut one is not, and the end says so', async () => {
    const whole = gzipSync(Buffer.from(Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n')));
    const file = join(dir, 'cut.txt.gz');
    writeFileSync(file, whole.subarray(0, whole.length >> 1));
    const gzip = { truncated: false, garbageAt: undefined };
    const seen: string[] = [];
    const n = await forEachLineBytes(file, (b, s, e, i, decode) => (seen[i] = decode(b, s, e)), (l, i) => (seen[i] = l), { gzip });
    assert.equal(gzip.truncated, true);
    assert.equal(seen.length, n - 1, 'the cut line is counted, not handed on');
    assert.ok(n > 1000);
    seen.forEach((l, i) => assert.equal(l, `line ${i}`));
  });

  it('readLines (the timeline details) splits as the readers do: BOM dropped, CR and CRLF, empty runs, .gz', async () => {
    const content = '\uFEFFfirst\r\nsecond\rthird\n\n\n\nseventh\n';
    for (const [name, bytes] of [['read.txt', Buffer.from(content)], ['read.txt.gz', gzipSync(content)]] as const) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const got = await readLines(file, [0, 1, 2, 4, 5, 6, 9]);
      assert.deepEqual([...got].sort((a, b) => a[0] - b[0]), [[0, 'first'], [1, 'second'], [2, 'third'], [4, ''], [5, ''], [6, 'seventh']], name);
    }
  });

  it('utf8Chunks: the lines of a well-formed chunk are vouched for, and a line joined across chunks when it is well-formed; those of a chunk with a bad byte or cut inside a character are not', async () => {
    const flags = async (name: string, content: Buffer, utf8Chunks?: boolean) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      const got: boolean[] = [];
      await forEachLineBytes(file, (b, s, e, i, _d, utf8) => {
        got[i] = utf8;
        // Never vouched for wrongly.
        if (utf8) assert.ok(isUtf8(b, s, e), `line ${i}`);
      }, () => {}, { utf8Chunks });
      return got;
    };
    const line = `${'é'.repeat(20)}${'x'.repeat(59)}\n`; // 100 bytes: line k is bytes [100k, 100k + 100)
    const good = Buffer.from(line.repeat(3 * 10486));
    const a = await flags('ok.txt', good, true);
    assert.ok(a.length >= 3 * 10486);
    assert.ok(a.every(Boolean), 'every line, the ones joined across chunk boundaries too');
    assert.ok((await flags('off.txt', good)).every((f) => f === false), 'without the option, none');
    // A bad byte in the second chunk (lines 10486–20970 lie wholly in it): none of its lines is vouched for.
    const bad = Buffer.from(good);
    bad[MiB + 500] = 0xff;
    const b = await flags('bad.txt', bad, true);
    assert.ok(b.slice(0, 10486).every(Boolean) && b.slice(10486, 20971).every((f) => f === false) && b.slice(20971).every(Boolean));
    // A first line of 51 bytes makes the second chunk end on the lead byte of an é (line 20972's
    // first), and the third begin on its second byte: neither is well-formed on its own, so their
    // lines (10487–20971, 20973–31456) are not vouched for; line 20972, joined across them, is
    // checked alone. The first chunk comes joined with the bytes held for a BOM: its lines too.
    const cut = Buffer.concat([Buffer.from(`${'p'.repeat(50)}\n`), good]);
    assert.deepEqual([cut[2 * MiB - 1], cut[2 * MiB]], [0xc3, 0xa9]);
    const c = await flags('cut.txt', cut, true);
    assert.ok(c.slice(0, 10487).every(Boolean) && c.slice(10487, 20972).every((f) => f === false) && c[20972] && c.slice(20973, 31457).every((f) => f === false) && c.slice(31457).every(Boolean));
  });

  it('lone CRs, and a CR right at the chunk boundary followed by a non-LF', async () => {
    assert.deepEqual(await linesOf('lone.txt', Buffer.from('a\rb\r\nc\n\rd')), ['a', 'b', 'c', '', 'd']);
    const a = 'a'.repeat(MiB - 1);
    assert.deepEqual((await linesOf('crb.txt', Buffer.from(`${a}\rb`))).map((l) => l.length), [MiB - 1, 1]);
  });
});

describe('forEachText and textSizeHint (a document read in pieces, gzipped or not)', () => {
  it('gives the text whole: a character cut by the 1 MiB read joined, a leading BOM dropped, the same from a .gz', async () => {
    // '入' (3 bytes) starts 1 byte before the first read boundary.
    const text = `${'a'.repeat(MiB - 1 - 3)}入${'b'.repeat(10)}\r\n${'c'.repeat(MiB)}é`;
    const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    assert.equal(raw.subarray(MiB - 1, MiB + 2).toString(), '入');
    for (const [name, content] of [['t.json', raw], ['t.json.gz', gzipSync(raw)]] as const) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const pieces: string[] = [];
      await forEachText(file, (t) => pieces.push(t));
      assert.ok(pieces.length > 1, name);
      assert.equal(pieces.join(''), text, name);
      assert.equal(textSizeHint(file), raw.length, `${name}: the size on disk, or the gzip trailer's`);
    }
  });

  it('a .gz too short to hold a trailer hints 0; a cut one reads what decoded and says so', async () => {
    const tiny = join(dir, 'tiny.json.gz');
    writeFileSync(tiny, Buffer.from([0x1f, 0x8b, 8]));
    assert.equal(textSizeHint(tiny), 0);
    const cut = join(dir, 'cut.json.gz');
    const whole = gzipSync(Buffer.from('x'.repeat(100000)));
    writeFileSync(cut, whole.subarray(0, whole.length - 20));
    const gzip = { truncated: false, garbageAt: undefined };
    const pieces: string[] = [];
    await forEachText(cut, (t) => pieces.push(t), { gzip });
    assert.equal(gzip.truncated, true);
    assert.match(pieces.join(''), /^x+$/);
  });

  it('decodes pieces as a StringDecoder does: ASCII pieces copied, characters cut between pieces, bad bytes', () => {
    // Bytes from ASCII, multi-byte characters and stray bytes, cut anywhere.
    const part = fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom('a', '{', '"', '\n', '\t'), maxLength: 12 }).map((t) => Buffer.from(t)) },
      fc.constantFrom('é', '入', '😀', '\u2028').map((t) => Buffer.from(t)),
      fc.constantFrom(0x80, 0xbf, 0xc3, 0xe5, 0xf0, 0xff).map((b) => Buffer.from([b])),
    );
    let ascii = 0;
    fc.assert(fc.property(fc.array(part, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
      const bytes = Buffer.concat(parts);
      const at = [...new Set([0, ...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
      const want = new StringDecoder('utf8');
      const got = new TextPieces();
      let w = '';
      let g = '';
      for (let k = 0; k + 1 < at.length; k++) {
        const piece = bytes.subarray(at[k], at[k + 1]);
        if (piece.every((b) => b < 0x80)) ascii++;
        w += want.write(piece);
        g += got.write(piece);
      }
      assert.equal(g + got.end(), w + want.end());
    }), { numRuns: 2000, seed: 21 });
    assert.ok(ascii > 500, `only ${ascii} ASCII pieces`);
  });
});
