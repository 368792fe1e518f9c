import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { readPerfettoBytes } from '../../../core/perfetto/file';
import { perfettoTimeline } from '../../../core/perfetto/timeline';
import type { TimelineModel } from '../../../core/timeline/model';
import { BYTE_READ_OPTIONS } from '../../../node/io/byteFiles';
import { androidSystemTrace, deflatedTrace, sdkTrace, TraceWriter } from '../../gen/perfettoGen';
import { runCli } from '../../cli/run';

const items = (m: TimelineModel) => Array.from(m.items.name, (n, i) => `${m.strings[n]} ${m.items.start[i]}..${m.items.end[i]}`).sort();
const codes = (b: Uint8Array, opts = BYTE_READ_OPTIONS) => readPerfettoBytes(b, undefined, opts).diagnostics.map((d) => d.code);
/** A trace of one packet whose compressed_packets field holds `bytes`. */
const wrapped = (bytes: Uint8Array) => new TraceWriter().packet((w) => w.tag(50, 2).bytes(bytes)).finish();

describe('perfetto compressed_packets (COMPRESSION_TYPE_DEFLATE)', () => {
  it('reads the inflated packets as the uncompressed trace: every slice, the same problems', () => {
    for (const trace of [androidSystemTrace({ marks: 3 }), sdkTrace(), new Uint8Array(readFileSync('test/fixtures/real/perfetto/nnapi-mobilenet.perfetto-trace'))]) {
      const plain = perfettoTimeline(trace);
      for (const per of [1, 3, 1000]) {
        const deflated = deflatedTrace(trace, per);
        const m = perfettoTimeline(deflated, BYTE_READ_OPTIONS);
        assert.deepEqual(items(m), items(plain), `batches of ${per}`);
        assert.deepEqual(m.summaryTables, plain.summaryTables);
        assert.deepEqual(codes(deflated), codes(trace, {}));
      }
    }
  });

  it('places what is inside at the byte offset of its compressed packet (its bytes are not in the file)', () => {
    const deflated = deflatedTrace(androidSystemTrace(), 1000);
    const m = perfettoTimeline(deflated, BYTE_READ_OPTIONS);
    assert.ok(m.items.start.length > 3);
    assert.deepEqual([...new Set(m.chars!.char)], [0]);
  });

  it('npu-trace check and export read them (the built CLI passes node:zlib)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perfetto-deflate-'));
    try {
      const f = join(dir, 'sys.pftrace');
      writeFileSync(f, deflatedTrace(androidSystemTrace(), 4));
      const check = await runCli(['check', f]);
      assert.equal(check.code, 0, check.stdout + check.stderr);
      assert.ok(!/compressed-packets/.test(check.stdout), check.stdout);
      const out = join(dir, 'x.json');
      assert.equal((await runCli(['export', f, '--to', 'chrome-trace', '-o', out])).code, 0);
      assert.ok(readFileSync(out, 'utf8').includes('Choreographer#doFrame 42'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without an inflater (the pure reader) the packets are reported and skipped', () => {
    assert.deepEqual(codes(deflatedTrace(androidSystemTrace(), 1000), {}), ['perfetto.compressed-packets', 'perfetto.empty-trace']);
  });

  it('a bad one: no zlib stream, a bomb past 64 MB, packets cut inside, compressed packets inside compressed packets', () => {
    assert.ok(codes(wrapped(new Uint8Array([1, 2, 3, 4]))).includes('perfetto.bad-compressed-packets'));
    const bomb = readPerfettoBytes(wrapped(deflateSync(new Uint8Array(65 << 20))), undefined, BYTE_READ_OPTIONS).diagnostics;
    assert.ok(bomb.some((d) => d.code === 'perfetto.bad-compressed-packets' && /at most 64 MB/.test(d.message)), JSON.stringify(bomb));
    const cut = androidSystemTrace().subarray(0, 300);
    assert.ok(codes(wrapped(deflateSync(cut))).includes('perfetto.bad-compressed-packets'));
    assert.ok(codes(deflatedTrace(deflatedTrace(androidSystemTrace(), 1000), 1)).includes('perfetto.compressed-packets'));
  });
});
