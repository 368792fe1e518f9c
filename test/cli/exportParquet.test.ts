// `npu-trace export --to parquet` as users run it (the bundled dist/cli.js), read back by an
// independent reader: DuckDB's Node API.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { TraceStats } from '../../core/trace/metrics/types';
import { nearestRank } from '../../core/trace/metrics/summarize';
import { buildTimeline } from '../../core/detectFormat';
import { ROOT, runCli } from './run';

let dir = '';
let db: DuckDBConnection;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquet-cli-'));
  db = await (await DuckDBInstance.create()).connect();
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await db.runAndReadAll(sql)).getRowObjects();
}

async function statsOf(file: string): Promise<TraceStats> {
  const r = await runCli(['stats', '--json', file]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as TraceStats;
}

const LLM = 'examples/llm-layer.trace.jsonl';

describe('npu-trace export --to parquet', () => {
  let out = '';
  before(async () => {
    out = join(dir, 'exports');
    const r = await runCli(['export', LLM, 'examples/faulty.trace.jsonl', '--to', 'parquet', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^npu-trace export: \[1\/2\] examples\/llm-layer\.trace\.jsonl -> .*llm-layer: 3370 events, 1380 spans, 20 commands, \d+ bytes at [\d.]+ s\nnpu-trace export: \[2\/2\] examples\/faulty\.trace\.jsonl -> .*faulty: /);
  });

  it('writes one row per non-blank line, with the documented column types', async () => {
    const lines = readFileSync(join(ROOT, LLM), 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '').length;
    const [n] = await rows(`SELECT count(*) AS n, count(DISTINCT line) AS d, min(line) AS lo FROM '${out}/llm-layer/events.parquet'`);
    assert.deepEqual(n, { n: BigInt(lines), d: BigInt(lines), lo: 1n });
    const types = Object.fromEntries((await rows(`DESCRIBE SELECT * FROM '${out}/llm-layer/spans.parquet'`)).map((r) => [r.column_name, r.column_type]));
    assert.deepEqual(types, {
      run: 'VARCHAR', kind: 'VARCHAR', id: 'BIGINT', npu_id: 'INTEGER', core_id: 'INTEGER', resource: 'VARCHAR', start: 'BIGINT', end: 'BIGINT', dur: 'BIGINT',
      cmd_id: 'BIGINT', phase: 'VARCHAR', layer_id: 'VARCHAR', size_bytes: 'BIGINT', direction: 'VARCHAR', status: 'VARCHAR', start_line: 'BIGINT', end_line: 'BIGINT',
    });
    const ev = Object.fromEntries((await rows(`DESCRIBE SELECT * FROM '${out}/llm-layer/events.parquet'`)).map((r) => [r.column_name, r.column_type]));
    assert.equal(ev.t_cycle, 'BIGINT');
    assert.equal(ev.t_ns, 'DOUBLE');
    assert.equal(ev.cmd_id, 'BIGINT');
    assert.equal(ev.fields, 'VARCHAR');
    const [enq] = await rows(`SELECT * FROM '${out}/llm-layer/events.parquet' WHERE line = 2`);
    assert.equal(enq.event_type, 'CMD_ENQUEUE');
    assert.equal(enq.t_cycle, 100n);
    assert.equal(enq.cmd_id, 1n);
    assert.equal(JSON.parse(enq.fields as string).desc_addr, 140733193388288);
  });

  it('matches npu-trace stats: per-phase and per-layer command latencies, bytes per channel, TE/VE busy per core', async () => {
    const s = await statsOf(LLM);
    const spans = `'${out}/llm-layer/spans.parquet'`;
    const phases = await rows(`SELECT phase, count(*) AS n, sum(dur) AS total, list(dur ORDER BY dur) AS lat FROM ${spans} WHERE kind = 'CMD' GROUP BY phase ORDER BY phase`);
    assert.deepEqual(phases.map((p) => {
      const lat = (p.lat as { items: bigint[] }).items.map(Number);
      return { phase: p.phase, commands: Number(p.n), latency_sum_cycles: Number(p.total), p50_cycles: nearestRank(lat, 50), p95_cycles: nearestRank(lat, 95), max_cycles: lat[lat.length - 1] };
    }), [...s.phases].sort((a, b) => (a.phase < b.phase ? -1 : 1)).map(({ phase, commands, latency_sum_cycles, p50_cycles, p95_cycles, max_cycles }) => ({ phase, commands, latency_sum_cycles, p50_cycles, p95_cycles, max_cycles })));
    const layers = await rows(`SELECT layer_id, sum(dur) AS total FROM '${out}/llm-layer/commands.parquet' GROUP BY layer_id ORDER BY layer_id`);
    assert.deepEqual(layers.map((l) => [l.layer_id, Number(l.total)]), s.layers.map((l) => [l.layer_id, l.latency_sum_cycles]).sort());
    for (const [kind, table] of [['DMA', s.dma.channels], ['DRAM', s.dram.channels], ['NOC', s.noc.links]] as const) {
      const got = await rows(`SELECT resource, sum(size_bytes) AS b FROM ${spans} WHERE kind = '${kind}' GROUP BY resource ORDER BY resource`);
      assert.deepEqual(got.map((g) => Number(g.b)), table.map((c) => c.bytes), kind);
    }
    // The example's TE (and VE) spans on a core do not overlap, so their sum is the busy time stats reports.
    const busy = await rows(`SELECT npu_id, core_id, sum(dur) FILTER (kind = 'TE') AS te, sum(dur) FILTER (kind = 'VE') AS ve FROM ${spans} GROUP BY ALL ORDER BY ALL`);
    assert.deepEqual(busy.map((b) => [b.npu_id, b.core_id, Number(b.te), Number(b.ve)]), s.cores.map((c) => [c.npu_id, c.core_id, c.te_busy_cycles, c.ve_busy_cycles]));
    const [cmd] = await rows(`SELECT count(*) AS n, sum(jobs) AS jobs, sum(dma_bytes) AS dma FROM '${out}/llm-layer/commands.parquet'`);
    const [jobs] = await rows(`SELECT count(*) AS n FROM ${spans} WHERE kind = 'JOB'`);
    assert.deepEqual([Number(cmd.n), Number(cmd.jobs), Number(cmd.dma)], [20, Number(jobs.n), s.dma.bytes]);
  });

  it('pairs a faulty trace as stats does: its command latencies sum as in stats', async () => {
    const s = await statsOf('examples/faulty.trace.jsonl');
    const [p] = await rows(`SELECT sum(dur) FILTER (kind = 'CMD') AS cmd FROM '${out}/faulty/spans.parquet'`);
    assert.equal(Number(p.cmd ?? 0), s.phases.reduce((a, x) => a + x.latency_sum_cycles, 0));
  });
});

describe('export --to parquet: ids and values a double cannot hold', () => {
  it('keeps int64 ids and cycles exact beyond 2^53, and the digits of ids beyond int64 in fields', async () => {
    const file = join(dir, 'big.trace.jsonl');
    writeFileSync(file, [
      '{"event_type":"CMD_ENQUEUE","t_cycle":9007199254740993,"cmd_id":9007199254740993,"phase":"P","layer_id":3,"npu_id":0,"core_id":1}',
      '{"event_type":"CMD_START","t_cycle":9007199254740993,"cmd_id":9007199254740993}',
      '{"event_type":"JOB_ISSUE","t_cycle":10,"job_id":9223372036854775807,"cmd_id":9007199254740993}',
      '{"event_type":"JOB_DONE","t_cycle":20,"job_id":9223372036854775807}',
      '{"event_type":"DMA_START","t_cycle":30,"tx_id":9223372036854775808,"channel":1,"size_bytes":64}',
      '',
      'not json',
      '{"event_type":"X","npu_id":-1,"core_id":"a","__proto__":1}',
    ].join('\n'));
    const out = join(dir, 'big');
    const r = await runCli(['export', file, '--to', 'parquet', '-o', out, '--run-id', 'night-1']);
    assert.equal(r.code, 0, r.stderr);
    const ev = await rows(`SELECT run, line, event_type, t_cycle, cmd_id, job_id, tx_id, npu_id, core_id, fields FROM '${out}/night-1/events.parquet' ORDER BY line`);
    assert.deepEqual(ev.map((e) => e.line), [1n, 2n, 3n, 4n, 5n, 7n, 8n]);
    assert.ok(ev.every((e) => e.run === 'night-1'));
    assert.equal(ev[0].t_cycle, 9007199254740993n);
    assert.equal(ev[0].cmd_id, 9007199254740993n);
    assert.equal(ev[2].job_id, 9223372036854775807n);
    assert.equal(ev[4].tx_id, null);
    assert.equal(JSON.parse(ev[4].fields as string).tx_id, '9223372036854775808');
    assert.deepEqual([ev[5].event_type, ev[5].fields], [null, null]);
    assert.deepEqual([ev[6].npu_id, ev[6].core_id, JSON.parse(ev[6].fields as string)], [-1, null, { core_id: 'a', ['__proto__']: 1 }]);
    const sp = await rows(`SELECT kind, id, cmd_id, dur, phase, layer_id FROM '${out}/night-1/spans.parquet'`);
    assert.deepEqual(sp, [{ kind: 'JOB', id: 9223372036854775807n, cmd_id: 9007199254740993n, dur: 10n, phase: 'P', layer_id: '3' }]);
  });
});

describe('export --to parquet: a directory of runs is one dataset', () => {
  it("runs the README's DuckDB \"busiest layer per run\" query over the exports", async () => {
    const out = join(dir, 'dataset');
    for (const [file, run] of [[LLM, 'run-a'], ['examples/faulty.trace.jsonl', 'run-b']]) {
      const r = await runCli(['export', file, '--to', 'parquet', '-o', out, '--run-id', run]);
      assert.equal(r.code, 0, r.stderr);
    }
    const readme = readFileSync(join(ROOT, 'docs/export.md'), 'utf8');
    const sql = /```sql\n(-- busiest layer per run[^`]*)```/.exec(readme)?.[1];
    assert.ok(sql, 'docs/export.md has the DuckDB snippet');
    const got = await rows(sql.replaceAll("'exports/", `'${out}/`));
    const expected = [];
    for (const [file, run] of [[LLM, 'run-a'], ['examples/faulty.trace.jsonl', 'run-b']]) {
      const top = [...(await statsOf(file)).layers].sort((a, b) => b.latency_sum_cycles - a.latency_sum_cycles)[0];
      expected.push({ run, layer_id: top.layer_id, cycles: BigInt(top.latency_sum_cycles) });
    }
    assert.deepEqual(got, expected);
  });
});

describe('export --to parquet --jobs', () => {
  it('exports many files in worker threads to the same tables as one at a time', async () => {
    const files = [LLM, 'examples/faulty.trace.jsonl', join(dir, 'copy.trace.jsonl')];
    writeFileSync(files[2], readFileSync(join(ROOT, LLM)));
    const seq = join(dir, 'seq');
    const par = join(dir, 'par');
    const a = await runCli(['export', ...files, '--to', 'parquet', '-o', seq]);
    const b = await runCli(['export', ...files, '--to', 'parquet', '-o', par, '--jobs', '2']);
    assert.deepEqual([a.code, b.code], [0, 0], a.stderr + b.stderr);
    const lines = b.stderr.trim().split('\n').map((l) => /\[(\d)\/3\] .* -> .*: (\d+) events/.exec(l)?.slice(1).join(' ')).sort();
    assert.deepEqual(lines, ['1 3370', '2 ' + /\[2\/3\].*: (\d+) events/.exec(a.stderr)![1], '3 3370']);
    for (const t of ['events', 'spans', 'commands']) {
      const q = (d: string) => rows(`SELECT * FROM '${d}/*/${t}.parquet' ORDER BY ALL`);
      const x = await q(seq);
      assert.equal(new Set(x.map((r) => r.run)).size, 3, t);
      assert.deepEqual(await q(par), x, t);
    }
  });
});

describe('export --to parquet: the other formats as slices', () => {
  it('writes one slice per item of the timeline model, with its track, lane, times and lines', async () => {
    const out = join(dir, 'others');
    const files = ['examples/nnapi-mobilenet.systrace', 'examples/llm-requests.inferscope.json', 'test/fixtures/chrome/pytorch.pt.trace.json'];
    const r = await runCli(['export', ...files, '--to', 'parquet', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    for (const file of files) {
      const m = buildTimeline(file, readFileSync(join(ROOT, file), 'utf8').split(/\r?\n/))!;
      const run = file.split('/').pop()!;
      const [got] = await rows(`SELECT count(*) AS n, sum(dur) AS dur, min(line) AS first, any_value(unit) AS unit, any_value(format) AS format FROM '${out}/${run}/slices.parquet'`);
      let dur = 0;
      for (let i = 0; i < m.items.start.length; i++) dur += m.items.end[i] - m.items.start[i];
      assert.equal(Number(got.n), m.items.start.length, file);
      assert.ok(Number(got.n) > 5, file);
      assert.ok(Math.abs((got.dur as number) - dur) < 1e-6 * dur, `${file}: ${String(got.dur)} vs ${dur}`);
      assert.deepEqual([got.unit, got.format], ['µs', m.format]);
      assert.equal(Number(got.first), Math.min(...m.items.line) + 1);
    }
    const [track] = await rows(`SELECT track, lane, kind, name FROM '${out}/nnapi-mobilenet.systrace/slices.parquet' ORDER BY line LIMIT 1`);
    assert.match(track.track as string, / \/ /);
    // Self time: the scope less the scopes nested in it on the next lane (31000 − 9000 − 1000 − 10500 for the model run).
    const self = await rows(`SELECT name, self FROM '${out}/nnapi-mobilenet.systrace/slices.parquet' WHERE name IN ('mobilenet', 'compile', 'cpuCompile', 'HIDL::IPreparedModel::execute::server') ORDER BY name`);
    assert.deepEqual(self.map((x) => [x.name, x.self]), [['HIDL::IPreparedModel::execute::server', 3000], ['compile', 5000], ['cpuCompile', 4000], ['mobilenet', 10500]]);
  });
});

describe('export --to parquet: usage', () => {
  it('needs -o, one file per --run-id, distinct run names and files with tables; a directory gives its traces', async () => {
    for (const [args, msg] of [
      [[LLM, '--to', 'parquet'], /needs -o OUT_DIR/],
      [[LLM, LLM, '--to', 'parquet', '-o', dir, '--run-id', 'x'], /--run-id names one file/],
      [[LLM, LLM, '--to', 'parquet', '-o', dir], /two files are named "llm-layer"/],
      [[LLM, '--to', 'parquet', '-o', dir, '--run-id', '../up'], /cannot name a run directory/],
      [[LLM, '--to', 'parquet', '-o', dir, '--jobs', '0'], /--jobs takes a number of threads from 1 to 64, got "0"/],
      [[LLM, '--to', 'chrome-trace', '--run-id', 'x'], /--run-id and --jobs are for --to parquet/],
    ] as const) {
      const r = await runCli(['export', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, msg);
    }
    const d = await runCli(['export', 'examples', '--to', 'parquet', '-o', join(dir, 'fromdir')]);
    assert.equal(d.code, 0, d.stderr);
    assert.deepEqual(d.stderr.split('\n').filter(Boolean).map((l) => /\] (\S+) ->/.exec(l)?.[1]), [
      'examples/faulty.inferscope.json', 'examples/faulty.trace.jsonl', 'examples/llm-layer.trace.jsonl', 'examples/llm-requests.inferscope.json', 'examples/nnapi-mobilenet.systrace', 'examples/nnapi-nesting.systrace',
      'examples/spec.kprof.npy', 'examples/warpspec.kprof.npy',
    ]);
    const long = join(dir, 'long.trace.jsonl');
    writeFileSync(long, `{"event_type":"X","t_cycle":1}\n{"event_type":"X","t_cycle":2,"pad":"${'a'.repeat(9 << 20)}"}\n`);
    // A line over the limit is skipped and said (as check does), not a reason to refuse the file.
    const l = await runCli(['export', long, '--to', 'parquet', '-o', join(dir, 'long')]);
    assert.equal(l.code, 0, l.stderr);
    assert.match(l.stderr, /long\.trace\.jsonl: warning: 1 line over 8 MB skipped \(the first is line 2\): its events are not in the output\n$/);
    assert.deepEqual(readdirSync(join(dir, 'long', 'long')).sort(), ['commands.parquet', 'events.parquet', 'spans.parquet']);
    const r = await runCli(['export', 'examples/missing.trace.jsonl', 'examples/golden.cmdq.json', LLM, '--to', 'parquet', '-o', join(dir, 'mixed')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\[1\/3\] examples\/missing\.trace\.jsonl: no such file\n.*\[2\/3\] examples\/golden\.cmdq\.json: no Parquet tables for this file type .*\n.*\[3\/3\] examples\/llm-layer\.trace\.jsonl -> /);
  });
});

describe('export --to parquet: progress of a big file', () => {
  const big = () => {
    const f = join(dir, 'big-progress.trace.jsonl');
    writeFileSync(f, readFileSync(join(ROOT, LLM), 'utf8').repeat(12));
    return f;
  };

  // `script` runs the CLI on a pseudo-terminal: stderr is a TTY there, as in a user's shell.
  it('shows the percent of bytes read on a terminal, in place, cleared before the line of the file done', { skip: !existsSync('/usr/bin/script') }, () => {
    const file = big();
    const out = join(dir, 'progress-tty');
    const r = spawnSync('/usr/bin/script', ['-qec', `node dist/cli.js export '${file}' --to parquet -o '${out}'`, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout);
    // The terminal's escape shown as text: the patterns below stay free of control characters.
    const tty = r.stdout.replaceAll('\u001b', '<ESC>');
    const shown = [...tty.matchAll(/\r<ESC>\[Knpu-trace export: \[1\/1\] big-progress\.trace\.jsonl: (\d+)% \(([\d.]+) of ([\d.]+) MB\)/g)];
    const pcts = shown.map((m) => Number(m[1]));
    assert.ok(pcts.length >= 5, tty);
    assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b));
    assert.ok(pcts[0] < 50 && pcts[pcts.length - 1] === 100, pcts.join(' '));
    assert.equal(shown[0][3], (statSync(file).size / (1 << 20)).toFixed(1));
    assert.match(tty, /100% \([\d.]+ of [\d.]+ MB\)\r<ESC>\[Knpu-trace export: \[1\/1\] .*big-progress\.trace\.jsonl -> .*: 40440 events, /);
  });

  it('writes no status line when stderr is not a terminal', async () => {
    const r = await runCli(['export', big(), '--to', 'parquet', '-o', join(dir, 'progress-pipe')]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stderr.includes('\u001b') && !r.stderr.includes('\r'), r.stderr);
    assert.match(r.stderr, /^npu-trace export: \[1\/1\] .* -> .*: 40440 events, .*\n$/);
  });
});
