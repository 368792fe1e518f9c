// cli/lines.ts reads files in 1 MiB chunks: line ends and characters cut by a chunk boundary.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { forEachLine, forEachLineBytes } from '../../cli/lines';

const dir = mkdtempSync(join(tmpdir(), 'trace-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const MiB = 1 << 20;

/** Both readers (text, and bytes as the CLI uses) must see the same lines; returns them. */
async function linesOf(name: string, content: Buffer): Promise<string[]> {
  const file = join(dir, name);
  writeFileSync(file, content);
  const out: string[] = [];
  await forEachLine(file, (l) => out.push(l));
  const viaBytes: string[] = [];
  await forEachLineBytes(file, (b, s, e, i, decode) => (viaBytes[i] = decode(b, s, e)), (l, i) => (viaBytes[i] = l));
  assert.deepEqual(viaBytes, out, 'forEachLineBytes disagrees with forEachLine');
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
  });

  it('lone CRs, and a CR right at the chunk boundary followed by a non-LF', async () => {
    assert.deepEqual(await linesOf('lone.txt', Buffer.from('a\rb\r\nc\n\rd')), ['a', 'b', 'c', '', 'd']);
    const a = 'a'.repeat(MiB - 1);
    assert.deepEqual((await linesOf('crb.txt', Buffer.from(`${a}\rb`))).map((l) => l.length), [MiB - 1, 1]);
  });
});
