// Perfetto protobuf traces built to hurt the reader, through the built CLI: a packet claiming
// 2^60 bytes, messages nested 100 deep (groups and debug annotations), a zero-length trace, and
// 200 000 slices opened and never closed. Bounds are generous: cost stays bounded, not fast.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { ftracePrints, msg, str, TraceWriter, u64, type PrintSpec } from '../gen/perfettoGen';
import { runCliLimited, scratch } from './limits';

const { dir, done } = scratch();
after(done);

function file(name: string, bytes: Uint8Array): string {
  const f = join(dir, name);
  writeFileSync(f, bytes);
  return f;
}

describe('perfetto under hostile traces', () => {
  it('a packet claiming 2^60 bytes is skipped, never allocated', async () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).uint64(2n ** 60n);
    const f = file('claim.pftrace', Uint8Array.from([...w.finish(), ...new Uint8Array(1 << 20)]));
    const r = await runCliLimited(['check', f], 20_000);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /perfetto\.packet-too-large The packet at byte 0 claims 1152921504606846976 bytes/);
    assert.ok(r.peakMb < 250, `peak ${r.peakMb} MB`);
  });

  it('messages nested 100 deep: groups and debug annotations end in a bounded time, reported or cut', async () => {
    const t = new TraceWriter();
    // 100 nested groups (wire type 3/4) of field 900 in a packet: tags 0xa3 0x38 / 0xa4 0x38.
    const open = Uint8Array.from([0xa3, 0x38]);
    const close = Uint8Array.from([0xa4, 0x38]);
    t.packet((p) => {
      for (let i = 0; i < 100; i++) p.raw(open);
      for (let i = 0; i < 100; i++) p.raw(close);
    });
    // A debug annotation nesting dictionaries 100 deep.
    t.packet((p) => {
      u64(p, 8, 5);
      msg(p, 11, (e) => {
        str(e, 23, 'deep');
        u64(e, 9, 3);
        const nest = (w: BinaryWriter, d: number): void => {
          str(w, 10, `k${d}`);
          if (d < 100) msg(w, 11, (c) => nest(c, d + 1));
          else str(w, 6, 'bottom');
        };
        msg(e, 4, (a) => nest(a, 0));
      });
      u64(p, 10, 1);
      u64(p, 13, 1);
    });
    const f = file('deep.pftrace', t.finish());
    const r = await runCliLimited(['check', f], 20_000);
    // 100 groups are within the library's recursion limit (100): skipped; the annotation is cut at 16 levels, and that is said.
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\S+deep\.pftrace:1:\d+ information perfetto\.args-capped The debug annotations of the track event at byte \d+ hold more than one event keeps \(10000 entries, 16 levels of nesting/);
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.ok(!r.timedOut);
    // 1000 nested groups pass the limit: that packet is reported as malformed, not a crash.
    const t2 = new TraceWriter();
    t2.packet((p) => {
      for (let i = 0; i < 1000; i++) p.raw(open);
      for (let i = 0; i < 1000; i++) p.raw(close);
    });
    const r2 = await runCliLimited(['check', file('deeper.pftrace', t2.finish())], 20_000);
    assert.equal(r2.code, 1, r2.stderr);
    assert.match(r2.stdout, /perfetto\.malformed-packet .*maximum recursion depth/);
    assert.doesNotMatch(r.stderr, /RangeError|Maximum call stack/);
    const e = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', join(dir, 'deep.json')], 20_000);
    assert.equal(e.code, 0, e.stderr);
  });

  it('a zero-length trace: an information, exit 0, and an empty export', async () => {
    const f = file('empty.perfetto-trace', new Uint8Array(0));
    const r = await runCliLimited(['check', f], 10_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /perfetto\.empty-trace The trace holds no packets/);
    const e = await runCliLimited(['export', f, '--to', 'chrome-trace'], 10_000);
    assert.equal(e.code, 0, e.stderr);
    assert.deepEqual((JSON.parse(e.stdout) as { traceEvents: unknown[] }).traceEvents, []);
  });

  it('200 000 slices opened and never closed on one thread: depth and problems capped while read', async () => {
    const prints: PrintSpec[] = [];
    for (let i = 0; i < 200_000; i++) prints.push({ ts: BigInt(1000 + i), tid: 7, buf: `B|7|s${i % 10}` });
    const t = new TraceWriter();
    ftracePrints(t, prints, { perBundle: 5000 });
    const f = file('open.pftrace', t.finish());
    const r = await runCliLimited(['check', f], 60_000);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.length <= 210, `${lines.length} lines`);
    assert.match(r.stdout, /perfetto\.too-deep/);
    assert.ok(r.peakMb < 400, `peak ${r.peakMb} MB`);
  });
});
