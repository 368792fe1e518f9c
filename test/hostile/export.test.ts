// `npu-trace export` on hostile input (issue #29): memory that follows the events, not the lines; a
// line too long or too deep skipped, counted and said instead of refusing the file (or overflowing
// the stack); bytes that are not UTF-8 never copied into the JSON; a failed Parquet export that
// keeps the earlier good one. Inputs come from the trace generator (test/gen/genTrace.ts, spec
// npu-trace-format-v1), written here; bounds are generous, far from the failures they guard.
import assert from 'node:assert/strict';
import { createWriteStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { after, describe, it } from 'node:test';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { traceLines } from '../gen/genTrace';
import { runCliLimited, scratch } from './limits';

const s = scratch();
after(() => s.done());

const EVENTS = [...traceLines({ events: 2000, seed: 7 })];

/** The Chrome JSON of `file` as bytes, checked to be UTF-8 (TextDecoder fatal) and JSON. */
function strictJson(file: string): { traceEvents: { ph: string; args?: { event?: Record<string, unknown>; line?: number; end_line?: number } }[] } {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  return JSON.parse(text) as ReturnType<typeof strictJson>;
}

async function rows(file: string): Promise<number> {
  const db = await (await DuckDBInstance.create()).connect();
  const r = (await db.runAndReadAll(`SELECT count(*) AS n FROM '${file}'`)).getRowObjects();
  return Number(r[0].n);
}

describe('export --to chrome-trace: memory follows the events', () => {
  it('a .gz of 128 MiB of blank lines among 2000 events: bounded RSS (was ~12.5 bytes a line)', async () => {
    const f = join(s.dir, 'blank.trace.jsonl.gz');
    const head = `${EVENTS.slice(0, 1000).join('\n')}\n`;
    const tail = `${EVENTS.slice(1000).join('\n')}\n`;
    const block = Buffer.alloc(1 << 20, 10);
    async function* gen() {
      yield Buffer.from(head);
      for (let i = 0; i < 128; i++) yield block;
      yield Buffer.from(tail);
    }
    await pipeline(gen(), createGzip({ level: constants.Z_BEST_COMPRESSION }), createWriteStream(f));
    const out = join(s.dir, 'blank.json');
    const r = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', out], 120_000);
    assert.equal(r.code, 0, r.stderr);
    // Today ~130 MB; the per-line index alone was 1.7 GB.
    assert.ok(r.peakMb < 600, `peak RSS ${Math.round(r.peakMb)} MB`);
    const doc = strictJson(out);
    const lines = doc.traceEvents.filter((e) => e.ph === 'X').map((e) => e.args!.end_line ?? e.args!.line!);
    assert.ok(lines.some((l) => l > 128 << 20), 'the events after the blank lines are exported, with their line');
  });
});

describe('export: a line too long, too deep or not UTF-8 is skipped or repaired, counted and said', () => {
  it('chrome-trace: a line of 9 MB is skipped and reported, the rest exported (was: the whole file refused)', async () => {
    const f = join(s.dir, 'long.trace.jsonl');
    const lines = [...EVENTS];
    lines.splice(50, 0, `{"event_type":"NOTE","t_cycle":1,"blob":"${'a'.repeat(9 << 20)}"}`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    const out = join(s.dir, 'long.json');
    const r = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', out], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: 1 line over 8 MB skipped \(the first is line 51\): its events are not in the output/);
    assert.ok(strictJson(out).traceEvents.some((e) => (e.args?.end_line ?? 0) > 1700), 'the events after it are there');
  });

  it('stats: a line of 9 MB is left out of the metrics and said (it was left out silently)', async () => {
    const f = join(s.dir, 'longstats.trace.jsonl');
    const lines = [...EVENTS];
    lines.splice(50, 0, `{"event_type":"NOTE","t_cycle":1,"blob":"${'a'.repeat(9 << 20)}"}`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    const r = await runCliLimited(['stats', f], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /npu-trace stats: .*longstats\.trace\.jsonl: warning: 1 line over 8 MB skipped \(the first is line 51\): its events are not in the metrics\n$/);
  });

  it('parquet: a line of 9 MB is skipped and reported, the other lines exported', async () => {
    const f = join(s.dir, 'longpq.trace.jsonl');
    const lines = [...EVENTS];
    lines.splice(50, 0, `{"event_type":"NOTE","t_cycle":1,"blob":"${'a'.repeat(9 << 20)}"}`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    const r = await runCliLimited(['export', f, '--to', 'parquet', '-o', join(s.dir, 'pq-long')], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: 1 line over 8 MB skipped \(the first is line 51\)/);
    assert.equal(await rows(join(s.dir, 'pq-long', 'longpq', 'events.parquet')), 2000);
  });

  it('parquet: a line nested 30 000 deep is skipped as too deep, no stack overflow', async () => {
    const f = join(s.dir, 'deep.trace.jsonl');
    const lines = [...EVENTS];
    lines.splice(50, 0, `{"event_type":"NOTE","t_cycle":1,"x":${'['.repeat(30_000)}${']'.repeat(30_000)}}`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    const r = await runCliLimited(['export', f, '--to', 'parquet', '-o', join(s.dir, 'pq-deep')], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /call stack/);
    assert.match(r.stderr, /warning: 1 line nested more than 10000 levels deep skipped \(the first is line 51\)/);
    assert.equal(await rows(join(s.dir, 'pq-deep', 'deep', 'events.parquet')), 2000);
  });

  it('chrome-trace: bytes that are not UTF-8 in an event are written as U+FFFD, the output is JSON text, and it is said', async () => {
    const f = join(s.dir, 'latin1.trace.jsonl');
    const i = EVENTS.findIndex((l) => l.includes('"JOB_ISSUE"'));
    const bad = Buffer.from(EVENTS[i].replace(/\}$/, ',"note":"caf\u0000"}'), 'latin1');
    bad[bad.lastIndexOf(0)] = 0xe9; // é as Latin-1 writes it: one byte, not UTF-8
    writeFileSync(f, Buffer.concat([Buffer.from(`${EVENTS.slice(0, i).join('\n')}\n`), bad, Buffer.from(`\n${EVENTS.slice(i + 1).join('\n')}\n`)]));
    const out = join(s.dir, 'latin1.json');
    const r = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', out], 60_000);
    assert.equal(r.code, 0, r.stderr);
    const ev = strictJson(out).traceEvents.find((e) => e.args?.event?.note !== undefined);
    assert.equal(ev?.args?.event?.note, 'caf\ufffd');
    assert.match(r.stderr, /warning: 1 line with events not valid UTF-8: written with U\+FFFD/);
  });

  it('chrome-trace: an event over 16 MB of a Chrome trace is counted and said, the others exported', async () => {
    const f = join(s.dir, 'big-event.trace.json');
    const ev = (n: number, pad = '') => `{"ph":"X","name":"k${n}","pid":1,"tid":1,"ts":${n * 10},"dur":5,"args":{"pad":"${pad}"}}`;
    writeFileSync(f, `{"traceEvents":[\n${ev(1)},\n${ev(2, 'x'.repeat(17 << 20))},\n${ev(3)}\n]}\n`);
    const out = join(s.dir, 'big-event.json');
    const r = await runCliLimited(['export', f, '--to', 'chrome-trace', '-o', out], 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: 1 event over 16 MB skipped: not in the output/);
    assert.deepEqual(strictJson(out).traceEvents.filter((e) => e.ph === 'X').length, 2);
  });
});

describe('export --to parquet: a failed export keeps the earlier one', () => {
  it('a cut .gz of the same run is refused; the tables of the good export stay, no partial directory is left', async () => {
    const f = join(s.dir, 'run.trace.jsonl.gz');
    const out = join(s.dir, 'pq-keep');
    const gz = gzipSync(Buffer.from(`${EVENTS.join('\n')}\n`));
    writeFileSync(f, gz);
    const good = await runCliLimited(['export', f, '--to', 'parquet', '-o', out], 60_000);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(await rows(join(out, 'run', 'events.parquet')), 2000);
    writeFileSync(f, gz.subarray(0, gz.length >> 1));
    const cut = await runCliLimited(['export', f, '--to', 'parquet', '-o', out], 60_000);
    assert.equal(cut.code, 2, cut.stderr);
    assert.match(cut.stderr, /the gzip data ends in the middle of the file/);
    assert.equal(await rows(join(out, 'run', 'events.parquet')), 2000);
    assert.deepEqual(readdirSync(out), ['run']);
  });
});
