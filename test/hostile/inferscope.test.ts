// InferScope files built to hurt: a million scopes with a cycle and a self-parent at the end, a
// truncated trace, a string where every timestamp's number belongs, a 300k-deep scope chain. Before
// the format existed the CLI refused them all (exit 2, unknown file type); the bounds are generous:
// the million scopes cost ~3 s CPU and ~560 MB today.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, createReadStream, createWriteStream, openSync, writeFileSync, writeSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { join } from 'node:path';
import { InferscopeDocument } from '../../core/inferscope/document';
import { hoverAt } from '../../core/inferscope/hover';
import { MAX_OUTLINE_DEPTH, MAX_OUTLINE_NODES, outline, type OutlineNode } from '../../core/inferscope/symbols';
import { buildTimeline } from '../../core/detectFormat';
import { inferscopeTrace, pretty } from '../gen/inferscopeGen';
import { runCliLimited, scratch } from './limits';

/** `n` scopes (flat under scope 0, or each the parent of the next), then a 2-cycle and a self-parent. */
function manyScopes(n: number, chain: boolean): string {
  const parts = ['{"format_version":"1.0","events":[{"id":"e","type":"cpu_call","name":"x","timestamp_start_us":0,"timestamp_end_us":5}],"relationships":{"scopes":[\n{"id":"0","name":"","parent_id":null,"event_range":[0,0]}'];
  for (let i = 1; i < n; i++) parts.push(`,\n{"id":"${i}","name":"","parent_id":"${chain ? i - 1 : 0}","event_range":[0,0]}`);
  parts.push(',\n{"id":"c1","name":"","parent_id":"c2","event_range":[0,0]},\n{"id":"c2","name":"","parent_id":"c1","event_range":[0,0]}');
  parts.push(',\n{"id":"me","name":"","parent_id":"me","event_range":[0,0]}]}}\n');
  return parts.join('');
}

let tmp: ReturnType<typeof scratch>;
before(() => {
  tmp = scratch();
});
after(() => tmp.done());

describe('hostile InferScope: the CLI', () => {
  it('a million scopes ending in a cycle and a self-parent: both found, bounded time and memory', async () => {
    const file = join(tmp.dir, 'scopes.inferscope.json');
    writeFileSync(file, manyScopes(1_000_000, false));
    const r = await runCliLimited(['check', '--format', 'json', file], 60_000);
    assert.ok(!r.timedOut, `killed after ${r.ms} ms`);
    assert.equal(r.code, 1, r.stderr);
    const d = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string; range: { start: { line: number } } }[] }[])[0].diagnostics;
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line]), [['inferscope.scope-cycle', 1_000_001], ['inferscope.scope-cycle', 1_000_003]]);
    assert.match(d[0].message, /cycle of 2 scopes/);
    assert.ok(r.peakMb < 1500, `peak ${r.peakMb} MB`);
    process.stdout.write(`# 1M scopes in the CLI: ${r.ms.toFixed(0)} ms, peak ${r.peakMb.toFixed(0)} MB\n`);
  });

  it('a truncated trace: one invalid-json where the file ends, the events before it still checked', async () => {
    const t = inferscopeTrace({ requests: 2000 });
    (t.events as Record<string, unknown>[])[5].duration_us = 1;
    const text = pretty(t);
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    const file = join(tmp.dir, 'cut.inferscope.json');
    writeFileSync(file, cut);
    const r = await runCliLimited(['check', '--format', 'json', file], 30_000);
    assert.ok(!r.timedOut);
    assert.equal(r.code, 1);
    const d = (JSON.parse(r.stdout) as { diagnostics: { code: string; range: { start: { line: number } } }[] }[])[0].diagnostics;
    assert.deepEqual(d.map((x) => x.code), ['inferscope.duration-mismatch', 'inferscope.invalid-json']);
    assert.equal(d[1].range.start.line, cut.split('\n').length - 1);
  });

  it('a string where every timestamp belongs: capped while produced, exit 1', async () => {
    const t = inferscopeTrace({ requests: 5000 });
    for (const e of t.events as Record<string, unknown>[]) if ('timestamp_start_us' in e) e.timestamp_start_us = String(e.timestamp_start_us);
    const file = join(tmp.dir, 'strings.inferscope.json');
    writeFileSync(file, pretty(t));
    const r = await runCliLimited(['check', '--max-problems', '5', file], 30_000);
    assert.ok(!r.timedOut);
    assert.equal(r.code, 1);
    const out = r.stdout.trim().split('\n');
    assert.equal(out.length, 6);
    assert.match(out[0], /too-many-problems \d{5} further problems not shown/);
    assert.match(out[1], /inferscope\.schema "timestamp_start_us" must be a number, got the string "1234567890"/);
  });
});

/**
 * A compact (one-line) trace past the 256 MB read whole: `events` of padded cpu_calls, the last
 * but one a zero-length event and the last a repeat of the first id (with `late`, before those a
 * call from 6 to 8 µs, out of the order of time). Returns where those two start.
 */
function compactBig(file: string, minBytes: number, late = false): { zero: number; dup: number; events: number } {
  const fd = openSync(file, 'w');
  let at = 0;
  const put = (s: string) => {
    writeSync(fd, s);
    at += s.length;
  };
  put('{"format_version":"1.0","trace_metadata":{"timestamp_created":"2025-12-27T10:30:45Z"},"events":[');
  const pad = 'x'.repeat(8000);
  const batch: string[] = [];
  let i = 0;
  for (; at < minBytes; i++) {
    batch.push(`${i ? ',' : ''}{"id":"e${i}","type":"cpu_call","name":"op","timestamp_start_us":${i * 10},"timestamp_end_us":${i * 10 + 5},"metadata":{"thread_id":1,"note":"${pad}"}}`);
    if (batch.length === 1000) put(batch.splice(0).join(''));
  }
  put(batch.join(''));
  if (late) put(',{"id":"late","type":"cpu_call","name":"op","timestamp_start_us":6,"timestamp_end_us":8}');
  const zero = at + 1;
  put(',{"id":"z","type":"cpu_call","name":"op","timestamp_start_us":7,"timestamp_end_us":7}');
  const dup = at + 1;
  put(',{"id":"e0","type":"instant","name":"m","timestamp_us":3}]}');
  closeSync(fd);
  return { zero, dup, events: i };
}

describe('hostile InferScope: a compact one-line trace past 256 MB', () => {
  let file = '';
  let big: ReturnType<typeof compactBig>;
  before(() => {
    file = join(tmp.dir, 'compact.inferscope.json');
    big = compactBig(file, (256 << 20) + (4 << 20));
  });
  const problems = (stdout: string) => (JSON.parse(stdout) as { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[])[0].diagnostics
    .map((x) => [x.code, x.range.start.line, x.range.start.character]).sort();

  it('is checked streamed, not refused as too large: its problems on line 0 at their events', async () => {
    const r = await runCliLimited(['check', '--format', 'json', file], 60_000);
    assert.ok(!r.timedOut, `killed after ${r.ms} ms`);
    assert.deepEqual(problems(r.stdout), [['inferscope.duplicate-id', 0, big.dup], ['inferscope.end-before-start', 0, big.zero]]);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.peakMb < 1000, `peak ${r.peakMb} MB`);
    process.stdout.write(`# 264 MB one-line trace checked: ${r.ms.toFixed(0)} ms, peak ${r.peakMb.toFixed(0)} MB\n`);
  });

  it('gzipped, it is checked and analyzed decompressed as it comes (was: unknown file type)', async () => {
    const gz = `${file}.gz`;
    await pipeline(createReadStream(file), createGzip({ level: 1 }), createWriteStream(gz));
    const r = await runCliLimited(['check', '--format', 'json', gz], 60_000);
    assert.ok(!r.timedOut, `killed after ${r.ms} ms`);
    assert.deepEqual(problems(r.stdout), [['inferscope.duplicate-id', 0, big.dup], ['inferscope.end-before-start', 0, big.zero]]);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.peakMb < 1000, `peak ${r.peakMb} MB`);
    process.stdout.write(`# 264 MB one-line trace, gzipped, checked: ${r.ms.toFixed(0)} ms, peak ${r.peakMb.toFixed(0)} MB\n`);
    const a = await runCliLimited(['analyze', '--json', gz], 60_000);
    assert.equal(a.code, 0, a.stderr);
    const summary = (JSON.parse(a.stdout) as { summary: Record<string, number> }).summary;
    // cpu_calls every 10 µs, 5 µs long, from 0: the last one ends the window.
    assert.equal(summary.end_to_end_latency_us, (big.events - 1) * 10 + 5);
    assert.equal(summary.total_cpu_time_us, big.events * 5);
    assert.ok(a.peakMb < 1000, `peak ${a.peakMb} MB`);
  });

  it('analyzed with an event out of the order of time at its end: read again, its events kept, the same figures', async () => {
    const late = join(tmp.dir, 'late.inferscope.json');
    const n = compactBig(late, (256 << 20) + (4 << 20), true).events;
    const a = await runCliLimited(['analyze', '--json', late], 60_000);
    assert.ok(!a.timedOut, `killed after ${a.ms} ms`);
    assert.equal(a.code, 0, a.stderr);
    const { summary, timeline_breakdown: b } = JSON.parse(a.stdout) as { summary: Record<string, number>; timeline_breakdown: { duration_us: number }[] };
    assert.equal(summary.end_to_end_latency_us, (n - 1) * 10 + 5);
    // The late call, from 6 to 8 µs, between the first two (an analysis that took it in order
    // would have added nothing to the union it had passed).
    assert.equal(summary.total_cpu_time_us, n * 5 + 2);
    assert.equal(b[4].duration_us, (n - 1) * 10 + 5 - n * 5 - 2);
    assert.ok(a.peakMb < 1000, `peak ${a.peakMb} MB`);
  });
});

/**
 * `n` events on one line, a data-model trace as `json.dump` writes it without indent: kernels on
 * two streams of GPU 0 and the CPU calls that launch them, every 10 µs, one scope over all; then
 * three planted problems: a repeat of event 0's id, a zero-length call and a kernel starting inside
 * the one before it on its stream. Returns where those three begin.
 */
function oneLineEvents(file: string, n: number): { dup: number; zero: number; overlap: number } {
  const fd = openSync(file, 'w');
  let at = 0;
  const put = (s: string) => {
    writeSync(fd, s);
    at += s.length;
  };
  put('{"format_version":"1.0","trace_metadata":{"timestamp_created":"2025-12-27T10:30:45Z"},"events":[');
  const batch: string[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t = 1_000_000 + i * 10;
    batch.push(`${i ? ',' : ''}${i % 4 === 3
      ? `{"id":"ev${i}","type":"cpu_call","name":"launch","timestamp_start_us":${t},"timestamp_end_us":${t + 5},"duration_us":5,"metadata":{"thread_id":1}}`
      : `{"id":"ev${i}","type":"gpu_kernel","name":"gemm_${i % 3}","timestamp_start_us":${t},"timestamp_end_us":${t + 3},"duration_us":3,"metadata":{"device_id":0,"stream_id":${i % 2}}}`}`);
    if (batch.length === 4096) put(batch.splice(0).join(''));
  }
  put(batch.join(''));
  const dup = at + 1;
  put(`,{"id":"ev0","type":"instant","name":"m","timestamp_us":${t + 10}}`);
  const zero = at + 1;
  put(`,{"id":"z","type":"cpu_call","name":"launch","timestamp_start_us":${t + 20},"timestamp_end_us":${t + 20}}`);
  // The last even event is the last kernel on stream 0: this one starts 1 µs before it ends.
  const last0 = (n - 1) % 2 === 0 ? n - 1 : n - 2;
  const overlap = at + 1;
  put(`,{"id":"k","type":"gpu_kernel","name":"late","timestamp_start_us":${1_000_000 + last0 * 10 + 2},"timestamp_end_us":${t + 30},"metadata":{"device_id":0,"stream_id":0}}`);
  put(`],"relationships":{"scopes":[{"id":"all","name":"run","parent_id":null,"child_ids":[],"event_range":[0,${n + 2}]}]}}`);
  closeSync(fd);
  return { dup, zero, overlap };
}

describe('hostile InferScope: two million events on one line', () => {
  const n = 2_000_000;
  let file = '';
  let at: ReturnType<typeof oneLineEvents>;
  before(() => {
    file = join(tmp.dir, 'events.inferscope.json');
    at = oneLineEvents(file, n);
  });

  it('checked as they are read: memory follows what the checks keep, not the events (was 440–490 MB)', async () => {
    const r = await runCliLimited(['check', '--format', 'json', file], 90_000);
    assert.ok(!r.timedOut, `killed after ${r.cpuMs} ms of CPU`);
    assert.equal(r.code, 1, r.stderr);
    const d = (JSON.parse(r.stdout) as { diagnostics: { code: string; message: string; range: { start: { line: number; character: number } } }[] }[])[0].diagnostics;
    assert.deepEqual(d.map((x) => [x.code, x.range.start.line, x.range.start.character]), [
      ['inferscope.duplicate-id', 0, at.dup], ['inferscope.end-before-start', 0, at.zero], ['inferscope.kernel-overlap', 0, at.overlap]]);
    assert.equal(d[0].message, 'Duplicate event id "ev0": event 0 has it already');
    assert.match(d[2].message, new RegExp(`^Kernel event ${n + 2} "late" starts at .* before event \\d+ "gemm_\\d" on the same device 0, stream 0 ends .*: 1 µs overlap$`));
    // Keeping every event as columns to the end (the reader before) peaked at 440–490 MB here; this
    // one at ~245 MB (what the checks keep is ~30 bytes an event, node itself ~100 MB).
    assert.ok(r.peakMb < 350, `peak ${r.peakMb} MB`);
    process.stdout.write(`# ${n} events on one line checked: ${r.cpuMs.toFixed(0)} ms CPU, peak ${r.peakMb.toFixed(0)} MB\n`);
  });

  it('analyzed as they are read: memory follows what the analysis keeps, not the events (was 610–630 MB)', async () => {
    const r = await runCliLimited(['analyze', '--json', file], 90_000);
    assert.ok(!r.timedOut, `killed after ${r.cpuMs} ms of CPU`);
    assert.equal(r.code, 0, r.stderr);
    const a = JSON.parse(r.stdout) as { trace_layout: string; summary: Record<string, number> };
    assert.equal(a.trace_layout, 'data-model');
    // Every 10 µs from 1 000 000 an event; the late kernel ends 30 µs after the last one starts.
    assert.equal(a.summary.end_to_end_latency_us, (n - 1) * 10 + 30);
    // Calls of 5 µs (the zero-length one counts nothing); kernels of 3 µs, the late one over the last of stream 0 and 37 µs past it.
    assert.equal(a.summary.total_cpu_time_us, (n / 4) * 5);
    assert.equal(a.summary.total_gpu_time_us, (n * 3 / 4) * 3 + 37);
    // Keeping every event as columns to the end (the analysis before) peaked at 610–630 MB here;
    // this one at 185–200 MB.
    assert.ok(r.peakMb < 350, `peak ${r.peakMb} MB`);
    process.stdout.write(`# ${n} events on one line analyzed: ${r.cpuMs.toFixed(0)} ms CPU, peak ${r.peakMb.toFixed(0)} MB\n`);
  });
});

describe('hostile InferScope: the editor features on a 300k-deep scope chain', () => {
  it('outline bounded in nodes and depth, hover path bounded, the timeline drawn, the self-parent reported', () => {
    const text = manyScopes(300_000, true);
    const doc = InferscopeDocument.parse(text);
    // CPU time of this process: on a loaded machine wall time measures the neighbours.
    const cpu0 = process.cpuUsage();
    const tree = outline(doc);
    let nodes = 0;
    let depth = 0;
    const walk = (n: OutlineNode, d: number) => {
      nodes++;
      depth = Math.max(depth, d);
      n.children.forEach((c) => walk(c, d + 1));
    };
    tree.forEach((n) => walk(n, 1));
    assert.ok(nodes <= MAX_OUTLINE_NODES, `${nodes} nodes`);
    // Scope levels 0..MAX_OUTLINE_DEPTH, then a type group and its events.
    assert.ok(depth <= MAX_OUTLINE_DEPTH + 3, `depth ${depth}`);
    const deep = text.indexOf('{"id":"299999"');
    const h = hoverAt(doc, deep + 2)!;
    assert.ok(h.markdown.length < 4000, `${h.markdown.length} characters`);
    assert.match(h.markdown, /path: … › /);
    const codes = doc.allDiagnostics().map((d) => d.code);
    assert.deepEqual(codes, ['inferscope.scope-cycle', 'inferscope.scope-cycle']);
    const m = buildTimeline('deep.inferscope.json', text.split('\n'))!;
    assert.equal(m.items.start.length, 1 + 300_003);
    const cpu = process.cpuUsage(cpu0);
    assert.ok((cpu.user + cpu.system) / 1000 < 60_000, `${Math.round((cpu.user + cpu.system) / 1000)} ms CPU`);
  });
});
