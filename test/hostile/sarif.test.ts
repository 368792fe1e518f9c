// Bounded cost of `npu-trace check` globs and directory walks on hostile trees and patterns: a
// matcher that tries every split of `**` or backtracks over `*` (a glob turned into a regex) takes
// exponential time on these; ours is patterns × entries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliLimited } from './limits';

let dir = '';
let bottom = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'sarif-hostile-'));
  // A chain 40 directories deep, a file of another kind on every level.
  bottom = dir;
  for (let i = 0; i < 40; i++) {
    bottom = join(bottom, 'a');
    mkdirSync(bottom);
    writeFileSync(join(bottom, 'x.txt'), 'not ours\n');
  }
  writeFileSync(join(bottom, 't.trace.jsonl'), '{"event_type":"IRQ_EMIT","t_cycle":1}\n');
  writeFileSync(join(bottom, `${'a'.repeat(240)}.trace.jsonl`), '{"event_type":"IRQ_EMIT","t_cycle":1}\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile globs', () => {
  it('12 `**` over a 40-deep chain (C(52,12) ways to split) take ≤ 10 s and ≤ 300 MB', async () => {
    const r = await runCliLimited(['check', '--format', 'json', `${dir}/${'**/'.repeat(12)}t.trace.jsonl`], 20_000);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file), [join(bottom, 't.trace.jsonl')]);
    assert.ok(r.cpuMs <= 10_000, `${r.cpuMs} ms CPU`);
    assert.ok(r.peakMb <= 300, `${r.peakMb} MB`);
  });

  it('a segment of 14 stars against a 240-character near-miss takes ≤ 10 s', async () => {
    const r = await runCliLimited(['check', `${dir}/**/${'*a'.repeat(14)}*b.trace.jsonl`], 20_000);
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /b\.trace\.jsonl: matches no trace, CMDQ, systrace, InferScope or Chrome trace file\n/);
    assert.ok(r.cpuMs <= 10_000, `${r.cpuMs} ms CPU`);
  });

  it('a directory walk stops at 64 levels instead of following a tree of any depth', async () => {
    let deep = join(dir, 'deep');
    for (let i = 0; i < 80; i++) deep = join(deep, 'd');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'too-deep.trace.jsonl'), '{"event_type":"IRQ_EMIT","t_cycle":1}\n');
    writeFileSync(join(dir, 'deep', 'top.trace.jsonl'), '{"event_type":"IRQ_EMIT","t_cycle":1}\n');
    const r = await runCliLimited(['check', '--format', 'json', join(dir, 'deep')], 20_000);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file), [join(dir, 'deep', 'top.trace.jsonl')]);
  });
});
