// The Summary's numbers: the timeline builder's stats are those of `npu-trace stats`; the worker's
// range request returns what `npu-trace stats --from/--to` prints as JSON; the page's validator
// accepts the core's output and rejects every malformed shape.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { BuildReport, WorkerRequest } from '../../../protocol/timelineWorker';
import { splitLines } from '../../../core/common/lines';
import { buildTimeline } from '../../../core/detectFormat';
import { PREVIEW_LINES } from '../../../core/timeline/builder';
import { NpuTimelineBuilder } from '../../../core/trace/timeline';
import type { TraceStats } from '../../../core/trace/metrics/types';
import { overallTeUtil, validStats } from '../../../protocol/stats';
import { parseHostMessage, parseWebviewMessage } from '../../../protocol/timeline';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLE = resolve(ROOT, 'examples/llm-layer.trace.jsonl');
const CLI = resolve(ROOT, 'dist/cli.js');
const WORKER = resolve(ROOT, 'dist/timelineWorker.js');

const cliStats = (...args: string[]): TraceStats => JSON.parse(execFileSync(process.execPath, [CLI, 'stats', '--json', ...args, EXAMPLE], { encoding: 'utf8' })) as TraceStats;

function inWorker(req: WorkerRequest): Promise<TraceStats> {
  return new Promise((ok, fail) => {
    const w = new Worker(WORKER, { workerData: req });
    w.on('message', (r: BuildReport) => {
      if (r.kind === 'stats') { ok(r.stats); void w.terminate(); }
      if (r.kind === 'error' || r.kind === 'done') { fail(new Error(`unexpected ${r.kind}`)); void w.terminate(); }
    });
    w.on('error', fail);
  });
}

test('the complete model carries the stats of `npu-trace stats`, from the same parse', () => {
  const model = buildTimeline('llm-layer.trace.jsonl', splitLines(readFileSync(EXAMPLE, 'utf8')))!;
  assert.deepEqual(model.stats, cliStats());
  assert.equal(overallTeUtil(model.stats!)!.toFixed(3), '0.750', 'the status bar reads TE 75.0%');
});

test('a preview carries no stats (its numbers would be wrong for the file)', () => {
  const b = new NpuTimelineBuilder();
  const lines = splitLines(readFileSync(EXAMPLE, 'utf8'));
  for (let i = 0; i < lines.length; i++) b.addLine(lines[i], i);
  assert.equal(b.finish(true).stats, undefined);
  assert.ok(b.finish().stats, 'the complete model after it does');
  assert.ok(PREVIEW_LINES > 0);
});

test('the worker range request returns the same numbers as `npu-trace stats --from/--to`', async () => {
  const fromFile = await inWorker({ kind: 'file', fileName: 'llm-layer.trace.jsonl', path: EXAMPLE, stats: { from: 2000, to: 9000 } });
  assert.deepEqual(fromFile, cliStats('--from', '2000', '--to', '9000'));
  assert.equal(fromFile.window.from, 2000);
  const bytes = new TextEncoder().encode(readFileSync(EXAMPLE, 'utf8'));
  assert.deepEqual(await inWorker({ kind: 'bytes', fileName: 'llm-layer.trace.jsonl', bytes, stats: { from: 2000, to: 9000 } }), fromFile, 'an edited document\'s bytes give the same');
});

test('the stats validator accepts the core\'s output and rejects malformed shapes', () => {
  const good = cliStats();
  assert.ok(validStats(good));
  const bad: [string, (s: any) => void][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
    ['version 2', (s) => (s.version = 2)],
    ['NaN span', (s) => (s.span_cycles = NaN)],
    ['string number', (s) => (s.cores[0].te_util = '0.5')],
    ['phase name a number', (s) => (s.phases[0].phase = 1)],
    ['phases not an array', (s) => (s.phases = {})],
    ['missing layers', (s) => delete s.layers],
    ['bank rate undefined', (s) => (s.sram.banks[0].conflict_rate = undefined)],
    ['longest cmd_id an object', (s) => (s.phases[0].longest[0].cmd_id = {})],
    ['finding range of three', (s) => s.findings.push({ rule: 'x', severity: 'warning', message: 'm', evidence: {}, ranges: [[1, 2, 3]], cmd_ids: [] })],
    ['evidence holding an object', (s) => s.findings.push({ rule: 'x', severity: 'warning', message: 'm', evidence: { a: {} }, ranges: [], cmd_ids: [] })],
    ['too many rows', (s) => (s.layers = Array.from({ length: 20_000 }, () => s.layers[0]))],
    ['null', () => undefined],
  ];
  for (const [what, mutate] of bad) {
    const s = structuredClone(good);
    mutate(s);
    assert.equal(validStats(what === 'null' ? null : s), false, what);
  }
});

test('messages: a model with bad stats, range replies and requests, copy and save are validated', () => {
  const model = buildTimeline('x.trace.jsonl', splitLines(readFileSync(EXAMPLE, 'utf8')))!;
  assert.ok(parseHostMessage({ type: 'model', uri: 'u', fileName: 'f', model, complete: true }));
  assert.equal(parseHostMessage({ type: 'model', uri: 'u', fileName: 'f', model: { ...model, stats: { version: 1 } }, complete: true }), undefined);
  assert.ok(parseHostMessage({ type: 'rangeStats', from: 1, to: 2, stats: model.stats, message: '' }));
  assert.ok(parseHostMessage({ type: 'rangeStats', from: 1, to: 2, stats: null, message: 'Computing' }));
  assert.equal(parseHostMessage({ type: 'rangeStats', from: 1, to: 2, stats: { version: 1 }, message: '' }), undefined);
  assert.deepEqual(parseHostMessage({ type: 'showSummary' }), { type: 'showSummary' });
  assert.deepEqual(parseWebviewMessage({ type: 'rangeStats', from: 5, to: 9, extra: 1 }), { type: 'rangeStats', from: 5, to: 9 });
  assert.equal(parseWebviewMessage({ type: 'rangeStats', from: 9, to: 5 }), undefined);
  assert.equal(parseWebviewMessage({ type: 'rangeStats', from: 0, to: Infinity }), undefined);
  assert.deepEqual(parseWebviewMessage({ type: 'copy', text: 'a,b' }), { type: 'copy', text: 'a,b' });
  assert.deepEqual(parseWebviewMessage({ type: 'save', name: 'llm-layer-phases.csv', text: 'x' }), { type: 'save', name: 'llm-layer-phases.csv', text: 'x' });
  for (const name of ['../evil.csv', '/etc/passwd.csv', 'a.exe', 'a b.csv', 'x.json/..', '']) assert.equal(parseWebviewMessage({ type: 'save', name, text: 'x' }), undefined, name);
});
