import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CHECK_DEFAULTS, checkFile } from '../cli/check';
import { TraceDocument } from '../core/trace/document';
import { hoverAt } from '../core/trace/hover';
import { definitionAt } from '../core/trace/navigation';
import { LspClient } from '../test/lsp/lspClient';
import { naiveCheck } from './naive';
import { writeTrace } from '../test/gen/genTrace';
import { dataFile, exists, fmt, median, percentile, row, timed } from './util';

async function ensure(name: string, events: number): Promise<string> {
  const f = dataFile(name);
  if (!exists(f)) await writeTrace(f, { events });
  return f;
}

/** The check in a child process, for its peak memory alone. */
function childPeak(file: string): { ms: number; maxRssMb: number } {
  const r = spawnSync(process.execPath, [__filename, '--child-check', file], { encoding: 'utf8' });
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; maxRssMb: number };
}

export async function childCheck(file: string): Promise<void> {
  const t = performance.now();
  await checkFile(file, CHECK_DEFAULTS);
  console.log(JSON.stringify({ ms: performance.now() - t, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

export async function run(): Promise<void> {
  console.log('\n## npu-trace (.trace.jsonl)');
  const f100k = await ensure('trace-100k.trace.jsonl', 100_000);
  const f1m = await ensure('trace-1m.trace.jsonl', 1_000_000);

  // Full check of 1M events from disk vs the naive baseline, alternating rounds in this process.
  const ours: { wall: number; cpu: number }[] = [];
  const naive: { wall: number; cpu: number }[] = [];
  let problems = -1;
  for (let r = 0; r < 3; r++) {
    const a = await timed(() => checkFile(f1m, CHECK_DEFAULTS));
    problems = a.value.diagnostics.length;
    ours.push(a);
    naive.push(await timed(() => naiveCheck(f1m)));
  }
  const ow = median(ours.map((x) => x.wall)), oc = median(ours.map((x) => x.cpu));
  const nw = median(naive.map((x) => x.wall)), nc = median(naive.map((x) => x.cpu));
  row('check 1M events from disk (median of 3, wall / CPU)', `${fmt(ow)} / ${fmt(oc)} ms`, 'target ≤ 2000 ms');
  row('naive readline+JSON.parse+ajv (same run, wall / CPU)', `${fmt(nw)} / ${fmt(nc)} ms`);
  row('speed-up over naive (wall / CPU)', `${fmt(nw / ow, 2)}× / ${fmt(nc / oc, 2)}×`, 'target ≥ 2×');
  row('diagnostics found in the generated (valid) trace', String(problems), 'expect 0');
  const peak = childPeak(f1m);
  row('peak RSS of a check of 1M events (separate process)', `${fmt(peak.maxRssMb)} MB`, `(${fmt(peak.ms)} ms)`);

  // One-line edit to new diagnostics on a 100k-line document, through the real server over stdio.
  const text = readFileSync(f100k, 'utf8');
  const lines = text.split('\n');
  const c = await LspClient.start();
  const uri = 'file:///bench.trace.jsonl';
  const opened = await timed(() => c.open(uri, 'npu-trace', text));
  row('LSP open 100k lines → first diagnostics', `${fmt(opened.wall)} ms`);
  const lat: number[] = [];
  // 15 pairs: break t_cycle with a '-', then repair it; every edit changes the diagnostics.
  for (let k = 0; k < 30; k += 2) {
    const line = 1 + ((k * 7919) % (lines.length - 2));
    const at = lines[line].indexOf('"t_cycle":') + 10;
    for (const [end, edit] of [[at, '-'], [at + 1, '']] as const) {
      const t = performance.now();
      await c.change(uri, [{ range: { start: { line, character: at }, end: { line, character: end } }, text: edit }]);
      lat.push(performance.now() - t);
    }
  }
  await c.stop();
  row('LSP one-line edit → new diagnostics, 100k lines (median / p95)', `${fmt(median(lat), 1)} / ${fmt(percentile(lat, 95), 1)} ms`, 'target ≤ 20 ms');

  // Hover and definition on the index of a 1M-line document.
  const big = readFileSync(f1m, 'utf8');
  const parsed = await timed(() => TraceDocument.parse(big));
  const doc = parsed.value;
  row('parse 1M-line document in memory (editor model)', `${fmt(parsed.wall)} ms`);
  const idx = await timed(() => doc.index);
  row('build the id index of 1M lines', `${fmt(idx.wall)} ms`);
  const hov: number[] = [];
  const def: number[] = [];
  for (let k = 0; k < 500; k++) {
    const line = 1 + ((k * 104729) % (doc.lines.length - 2));
    const l = doc.lines[line];
    const key = l.cmd !== undefined ? '"cmd_id":' : '"event_type":';
    const ch = l.text.indexOf(key) + key.length + 1;
    let t = performance.now();
    hoverAt(doc, line, ch);
    hov.push(performance.now() - t);
    t = performance.now();
    definitionAt(doc, line, ch);
    def.push(performance.now() - t);
  }
  row('hover on the 1M-line index (median / p95)', `${fmt(median(hov), 3)} / ${fmt(percentile(hov, 95), 3)} ms`, 'target ≤ 5 ms');
  row('definition on the 1M-line index (median / p95)', `${fmt(median(def), 3)} / ${fmt(percentile(def, 95), 3)} ms`, 'target ≤ 5 ms');
}
