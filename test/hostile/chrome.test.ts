// Chrome Trace JSON built to hurt, through the built CLI: one line of many MB, an event nested a
// million deep, a million broken events, escape sequences in names. Before this format existed the
// CLI refused these files (exit 2, unknown file type); the bounds are far from today's costs.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliLimited, scratch } from './limits';

describe('chrome-trace hostile input: the CLI', () => {
  const s = scratch();
  after(() => s.done());

  it('checks and exports a one-line 27 MB trace (200 000 events) in bounded time and memory', async () => {
    const f = join(s.dir, 'one-line.trace.json');
    const ev = (i: number) => `{"ph":"X","cat":"kernel","name":"k${i % 97}","pid":0,"tid":${i % 4},"ts":${i * 10},"dur":5,"args":{"correlation":${i},"pad":"${'x'.repeat(60)}"}}`;
    const parts: string[] = [];
    for (let i = 0; i < 200_000; i++) parts.push(ev(i));
    writeFileSync(f, `{"traceEvents":[${parts.join(',')}],"displayTimeUnit":"ns"}`);
    const c = await runCliLimited(['check', f], 30_000);
    assert.equal(c.code, 0, c.stderr + c.stdout.slice(0, 500));
    assert.ok(c.cpuMs < 15_000 && c.peakMb < 1536, `check: ${Math.round(c.cpuMs)} ms CPU, ${Math.round(c.peakMb)} MB`);
    const out = join(s.dir, 'out.json');
    const x = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', out], 30_000);
    assert.equal(x.code, 0, x.stderr);
    assert.ok(x.cpuMs < 20_000 && x.peakMb < 1536, `export: ${Math.round(x.cpuMs)} ms CPU, ${Math.round(x.peakMb)} MB`);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { traceEvents: { ph: string }[] };
    assert.equal(doc.traceEvents.filter((e) => e.ph === 'X').length, 200_000);
  });

  it('checks a trace over 64 MB as it streams (it was refused with file.too-large), to its last event', async () => {
    const f = join(s.dir, 'big.pt.trace.json');
    const pad = 'x'.repeat(2000);
    const ev = (i: number) => `{"ph":"X","cat":"cpu_op","name":"op${i % 13}","pid":1,"tid":${i % 2},"ts":${i * 10},"dur":5,"args":{"pad":"${pad}"}}`;
    const n = 34_000;
    const lines = ['{"traceEvents":['];
    for (let i = 0; i < n; i++) lines.push(`${ev(i)},`);
    lines.push('{"ph":"X","name":"nodur","pid":1,"tid":0,"ts":1}', ']}');
    writeFileSync(f, lines.join('\n'));
    const r = await runCliLimited(['check', f], 40_000);
    assert.ok(!r.timedOut && r.cpuMs < 20_000 && r.peakMb < 1024, `${Math.round(r.cpuMs)} ms CPU, ${Math.round(r.peakMb)} MB`);
    assert.equal(r.stdout.trim(), `${f}:${n + 2}:7 error chrome.missing-dur X event "nodur" has no "dur": a complete event needs its duration`);
    assert.equal(r.code, 1);
  });

  it('checks an event nested a million levels deep without overflowing the stack', async () => {
    const f = join(s.dir, 'deep.trace.json');
    writeFileSync(f, `[{"ph":"Q","ts":1,"args":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}},\n{"ph":"X","name":"after","pid":1,"tid":1,"ts":2,"dur":1}]`);
    const r = await runCliLimited(['check', f], 20_000);
    assert.ok(!r.timedOut && r.cpuMs < 10_000 && r.peakMb < 1024, `${Math.round(r.cpuMs)} ms CPU, ${Math.round(r.peakMb)} MB`);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /:1:\d+ error chrome\.unknown-ph Unknown "ph" "Q"/);
  });

  it('keeps only --max-problems of a million broken events, in bounded memory', async () => {
    const f = join(s.dir, 'broken.trace.json');
    writeFileSync(f, `[\n${'{"ph":"Z","ts":1},\n'.repeat(1_000_000)}`);
    const r = await runCliLimited(['check', '--max-problems', '10', f], 30_000);
    assert.equal(r.code, 1);
    assert.ok(!r.timedOut && r.cpuMs < 15_000 && r.peakMb < 1024, `${Math.round(r.cpuMs)} ms CPU, ${Math.round(r.peakMb)} MB`);
    assert.equal(r.stdout.trim().split('\n').length, 11);
    assert.match(r.stdout, /:1:1 information too-many-problems 999991 further problems not shown/);
  });

  it('prints names holding escape sequences and line breaks as visible escapes', async () => {
    const f = join(s.dir, 'esc.trace.json');
    writeFileSync(f, '[{"ph":"\\u001b]8;;http://x\\u0007\\u001b[2J\\nforged","ts":1}]');
    const r = await runCliLimited(['check', f], 10_000);
    assert.equal(r.code, 1);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    assert.ok(!/[\u0000-\u0008\u000b-\u001f]/.test(r.stdout), JSON.stringify(r.stdout));
    assert.match(r.stdout, /\\x1b\]8;;http:\/\/x\\x07\\x1b\[2J\\x0aforged/);
    assert.equal(r.stdout.trim().split('\n').length, 1);
  });
});
