// Profiler buffers built to hurt the kprof reader and decoder through the built CLI: a zip bomb
// in an .npz, headers claiming 2^63 elements, millions of broken records, millions of regions
// asked for as JSON. Bounds are generous: they assert that cost stays bounded, not speed.
import assert from 'node:assert/strict';
import { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';
import { MAX_INFLATED_BYTES } from '../../core/kprof/errors';
import { genKprofLarge, npyBytes, npzBytes } from '../gen/kprofGen';
import { runCliLimited, scratch } from './limits';

const { dir, done } = scratch();
after(done);

/**
 * Generated: an `.npz` as `numpy.savez_compressed` (numpy 2.x `_savez` → CPython `zipfile`) writes
 * it, holding one `prof.npy` of `words` zero uint64s: `zipf.open(…, 'w', force_zip64=True)` gives a
 * local header with a zip64 extra (its sizes rewritten after the data), the central directory
 * sizes of 32 bits when they fit. The deflated body is produced streamed, so the test holds only
 * the compressed bytes (about 2 MB for 512 MB of zeros); the directory's size is the honest one.
 */
async function zerosNpz(file: string, words: number): Promise<number> {
  const header = Buffer.from(npyBytes(new Uint32Array(0), { shape: `(${words},)` }));
  const size = header.length + words * 8;
  const name = Buffer.from('prof.npy');
  const local = Buffer.alloc(30 + name.length + 20);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(45, 4); local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0xffffffff, 18); local.writeUInt32LE(0xffffffff, 22);
  local.writeUInt16LE(name.length, 26); local.writeUInt16LE(20, 28);
  name.copy(local, 30);
  local.writeUInt16LE(1, 30 + name.length); local.writeUInt16LE(16, 32 + name.length);
  const body: Buffer[] = [];
  const deflate = createDeflateRaw({ level: 1 });
  deflate.on('data', (b: Buffer) => body.push(b));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  let crc = crc32(header);
  deflate.write(header);
  const zeros = Buffer.alloc(1 << 20);
  for (let left = words * 8; left > 0; left -= zeros.length) {
    const chunk = left >= zeros.length ? zeros : zeros.subarray(0, left);
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const compressed = body.reduce((a, b) => a + b.length, 0);
  local.writeUInt32LE(crc, 14);
  local.writeBigUInt64LE(BigInt(size), 34 + name.length); local.writeBigUInt64LE(BigInt(compressed), 42 + name.length);
  const cd = Buffer.alloc(46);
  cd.writeUInt32LE(0x02014b50, 0); cd.writeUInt16LE(45, 4); cd.writeUInt16LE(45, 6); cd.writeUInt16LE(8, 10);
  cd.writeUInt32LE(crc, 16); cd.writeUInt32LE(compressed, 20); cd.writeUInt32LE(size, 24); cd.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12); end.writeUInt32LE(local.length + compressed, 16);
  const fd = openSync(file, 'w');
  for (const b of [local, ...body, cd, name, end]) writeSync(fd, b);
  closeSync(fd);
  return size;
}

describe('kprof under hostile buffers', () => {
  it('an .npz whose entry inflates to 256 MB but says 4 KB stops at 4 KB', async () => {
    const bomb = new Uint8Array(deflateRawSync(new Uint8Array(256 << 20)));
    // The directory says 4096 bytes (the entry's real content); the deflated body is the bomb.
    const f = join(dir, 'bomb.npz');
    writeFileSync(f, npzBytes({ prof: new Uint8Array(4096) }, () => bomb));
    const r = await runCliLimited(['kprof', f], 20_000);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /does not inflate|inflates to/);
    assert.ok(r.peakMb < 300, `peak ${r.peakMb} MB`);
  });
  it('an .npz entry that honestly inflates past the stated limit is refused before inflating: named, the limit said (issue #29, 7)', async () => {
    // 1.9 MB inflating to 1.9 GB cost 4.0 GB RSS; just past the 512 MiB limit shows the same defect.
    const f = join(dir, 'zeros.kprof.npz');
    const size = await zerosNpz(f, MAX_INFLATED_BYTES / 8);
    const r = await runCliLimited(['kprof', f], 30_000);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^npu-trace kprof: zeros\\.kprof\\.npz: The \\.npz entry "prof\\.npy" inflates to ${size} bytes, over the ${MAX_INFLATED_BYTES} \\(512 MiB\\)`));
    // Inflated, it was 512 MB at least (and more decoded).
    assert.ok(r.peakMb < 300, `peak ${r.peakMb} MB`);
  });
  it('a .kprof.bin of exactly 2 GiB is refused by the size check, with its name (issue #29, 15)', async () => {
    // Sparse: no disk and no time spent. Node reads no file of 2 GiB at once: the old check let it
    // through to Node's own error, which names no file.
    const f = join(dir, 'two-gib.kprof.bin');
    const fd = openSync(f, 'w');
    ftruncateSync(fd, 2 ** 31);
    closeSync(fd);
    const r = await runCliLimited(['kprof', f], 10_000);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, 'npu-trace kprof: two-gib.kprof.bin: the file is 2147483648 bytes, over the 2147483647 bytes (2 GiB − 1) a buffer file may have\n');
    assert.ok(r.peakMb < 200, `peak ${r.peakMb} MB`);
  });
  it('headers claiming 2^63 or 2^62 elements are refused at once', async () => {
    for (const shape of ['(9223372036854775807,)', '(2147483648, 2147483648)']) {
      const f = join(dir, 'claim.npy');
      writeFileSync(f, npyBytes(new Uint32Array(64), { shape }));
      const r = await runCliLimited(['kprof', f], 10_000);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /claims .* elements/);
      assert.ok(r.peakMb < 200, `peak ${r.peakMb} MB`);
    }
  });
  it('4M unmatched ENDs and 1M stray block_groups: problems capped while produced', async () => {
    const n = 4_000_000;
    const w = new Uint32Array(2 * (n + 1));
    w[0] = 4; w[1] = 1;
    for (let s = 1; s <= n; s++) {
      // Every fifth record is of a block_group past the header's 4 lanes; the rest ENDs of lane s % 4.
      w[2 * s] = s % 5 === 0 ? ((4 + s) << 12) | 1 : ((s % 4) << 12) | 1;
      w[2 * s + 1] = 1000 + s;
    }
    const f = join(dir, 'ends.npy');
    writeFileSync(f, npyBytes(w));
    const r = await runCliLimited(['kprof', '--json', f], 60_000, { maxOutput: 64 << 20 });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { problems: unknown[]; problems_omitted: number };
    assert.equal(out.problems.length, 1000);
    assert.ok(out.problems_omitted > 1_000_000);
    assert.ok(r.peakMb < 1024, `peak ${r.peakMb} MB`);
    assert.ok(r.cpuMs < 30_000, `${r.cpuMs} ms CPU`);
  });
  it('8M records as JSON: at most 100 000 regions listed, the statistics over all', async () => {
    const g = genKprofLarge(64, 2, 62_501);
    const f = join(dir, 'big.npy');
    writeFileSync(f, npyBytes(g.words));
    const r = await runCliLimited(['kprof', '--json', f], 60_000, { maxOutput: 64 << 20 });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { regions_omitted: number; regions: { count: number }[]; records: number };
    assert.equal(out.records, 128 * 62_501);
    assert.equal(out.regions.reduce((a, x) => a + x.count, 0), 128 * 31_250);
    assert.equal(out.regions_omitted, 128 * 31_250 - 100_000);
    assert.ok(r.stdout.length < 32 << 20, `${r.stdout.length} bytes of JSON`);
    assert.ok(r.peakMb < 1536, `peak ${r.peakMb} MB`);
  });
  it('400 000 blocks × 8 events as JSON: 3.2M per-block statistics rows, only the 100 000 listed are built', async () => {
    const g = genKprofLarge(400_000, 1, 17);
    const f = join(dir, 'wide.npy');
    writeFileSync(f, npyBytes(g.words));
    const r = await runCliLimited(['kprof', '--json', f], 60_000, { maxOutput: 256 << 20 });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { regions_by_block: { block: number; event: number }[]; regions_by_block_omitted: number };
    assert.equal(out.regions_by_block.length, 100_000);
    assert.equal(out.regions_by_block_omitted, 3_200_000 - 100_000);
    // In (event, block) order: event 0's first 100 000 blocks.
    assert.deepEqual([out.regions_by_block[0], out.regions_by_block[99_999]].map((x) => [x.event, x.block]), [[0, 0], [0, 99_999]]);
    // Every row built then cut: 1.4 GB peak (2026-11-23); the first 100 000 only: about 0.7 GB.
    assert.ok(r.peakMb < 1024, `peak ${r.peakMb} MB`);
  });
});
