import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { systraceToPerfetto } from '../gen/perfettoGen';
import { SDK_ARGS_SLICE, sdkArgsTrace } from '../gen/perfettoArgsGen';
import { runCli } from './run';

const dir = mkdtempSync(join(tmpdir(), 'npu-perfetto-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const F = 'test/fixtures/real/perfetto';

/** A file under a name that says nothing: recognised by its bytes. */
function pb(name: string, bytes: Uint8Array): string {
  const f = join(dir, name);
  writeFileSync(f, bytes);
  return f;
}

describe('npu-trace on Perfetto protobuf traces', () => {
  it('check: the fixtures pass (exit 0), an information for the trace with no events', async () => {
    const r = await runCli(['check', `${F}/sdk-track-events.pftrace`, `${F}/android-atrace.perfetto-trace`, `${F}/no-events.pftrace`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${F}/no-events.pftrace:1:1 information perfetto.empty-trace The trace holds 7 packets but no events: no data source recorded anything (check the config's data sources and atrace categories, or that the app was traced while it ran).\n`);
  });

  it('check: a cut trace is an error at its byte offset (exit 1), found by content under any name, gzipped too', async () => {
    const bytes = readFileSync(`${F}/android-atrace.perfetto-trace`);
    const cut = pb('capture.dat', bytes.subarray(0, bytes.length - 30));
    const r = await runCli(['check', cut]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^.*capture\.dat:1:\d+ error perfetto\.truncated-packet The packet at byte \d+ claims/m);
    const gz = pb('capture.pftrace.gz', gzipSync(bytes));
    assert.equal((await runCli(['check', gz])).code, 0);
  });

  it('check --format sarif: perfetto rules from the codes', async () => {
    const bytes = readFileSync(`${F}/android-atrace.perfetto-trace`);
    const r = await runCli(['check', '--format', 'sarif', pb('cut.pftrace', bytes.subarray(0, bytes.length - 30))]);
    const log = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string }[] }[] };
    const ids = log.runs[0].tool.driver.rules.map((x) => x.id);
    assert.ok(ids.includes('perfetto.truncated-packet') && ids.includes('perfetto.unrelated-clocks'));
    assert.deepEqual(log.runs[0].results.map((x) => x.ruleId), ['perfetto.truncated-packet']);
  });

  it('nnapi-stats: the same stdout, exit status and problems (but positions) as the text systrace of the same marks', async () => {
    for (const text of ['examples/nnapi-mobilenet.systrace', 'examples/nnapi-nesting.systrace', 'test/fixtures/nnapi/benchmark.systrace']) {
      const f = pb(`${text.replace(/\W/g, '_')}.perfetto-trace`, systraceToPerfetto(readFileSync(text, 'utf8')));
      for (const flags of [['--json'], [], ['--per-execution', '--total-times']]) {
        const a = await runCli(['nnapi-stats', ...flags, text]);
        const b = await runCli(['nnapi-stats', ...flags, f]);
        assert.equal(b.stdout, a.stdout, `${text} ${flags.join(' ')}`);
        assert.equal(b.code, a.code);
        const msgs = (s: string) => s.split('\n').map((l) => l.replace(/^\S+:\d+:\d+ /, '').replace(/, (line|byte) \d+\)/g, ', <pos>)'));
        assert.deepEqual(msgs(b.stderr), msgs(a.stderr));
      }
    }
  });

  it('export --to chrome-trace: every slice; --to parquet: a slices table', async () => {
    const out = join(dir, 'a.json');
    const r = await runCli(['export', `${F}/android-atrace.perfetto-trace`, '--to', 'chrome-trace', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const ev = (JSON.parse(readFileSync(out, 'utf8')) as { traceEvents: { ph: string; name: string }[] }).traceEvents;
    assert.equal(ev.filter((e) => e.ph === 'X').length, 10);
    assert.ok(ev.some((e) => e.ph === 'C' && e.name === 'frames pending'));
    const pq = await runCli(['export', `${F}/sdk-track-events.pftrace`, '--to', 'parquet', '-o', join(dir, 'pq')]);
    assert.equal(pq.code, 0, pq.stderr);
    assert.match(pq.stderr, /slices/);
  });

  it('export: the track events\' debug annotations as chrome-trace args and the Parquet args column', async () => {
    const f = pb('annotated', sdkArgsTrace());
    const out = join(dir, 'args.json');
    const r = await runCli(['export', f, '--to', 'chrome-trace', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const ev = (JSON.parse(readFileSync(out, 'utf8')) as { traceEvents: { ph: string; name: string; args: unknown }[] }).traceEvents;
    assert.deepEqual(ev.find((e) => e.name === 'Invoke')?.args, SDK_ARGS_SLICE);
    // The SDK fixture: each slice's interned `batch` annotation.
    const sdk = join(dir, 'sdk.json');
    assert.equal((await runCli(['export', `${F}/sdk-track-events.pftrace`, '--to', 'chrome-trace', '-o', sdk])).code, 0);
    const slices = (JSON.parse(readFileSync(sdk, 'utf8')) as { traceEvents: { ph: string; args: { batch?: number } }[] }).traceEvents.filter((e) => e.ph === 'X');
    assert.deepEqual(slices.map((e) => e.args.batch).sort(), [0, 0, 1, 1, 2, 2]);
    const pq = join(dir, 'args-pq');
    const p = await runCli(['export', f, '--to', 'parquet', '-o', pq]);
    assert.equal(p.code, 0, p.stderr);
    const db = await (await DuckDBInstance.create()).connect();
    const rows = (await db.runAndReadAll(`SELECT name, args FROM '${join(pq, 'annotated', 'slices.parquet')}' ORDER BY name`)).getRowObjects();
    assert.deepEqual(rows.map((x) => [x.name, x.args === null ? null : JSON.parse(String(x.args))]), [['Invoke', SDK_ARGS_SLICE], ['checkpoint', { where: 'after load' }]]);
  });
});
