// Profiler buffers built to hurt the kprof reader and decoder through the built CLI: a zip bomb
// in an .npz, headers claiming 2^63 elements, millions of broken records, millions of regions
// asked for as JSON. Bounds are generous: they assert that cost stays bounded, not speed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { genKprofLarge, npyBytes, npzBytes } from '../gen/kprofGen';
import { runCliLimited, scratch } from './limits';

const { dir, done } = scratch();
after(done);

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
