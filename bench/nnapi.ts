import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { forEachLine } from '../node/io/lines';
import { readSystrace } from '../node/io/readSystrace';
import { LspClient } from '../test/lsp/lspClient';
import { defaultDiagnosticSettings } from '../core/common/settings';
import { analyze } from '../core/nnapi/analysis';
import { NnapiDocument } from '../core/nnapi/document';
import { summarize } from '../core/nnapi/summary';
import { writeSystrace } from '../test/gen/nnapiGen';
import { dataFile, exists, fmt, median, percentile, REPO, row, timed } from './util';


async function ensure(name: string, lines: number, opts: { noise?: number; html?: boolean } = {}): Promise<string> {
  const f = dataFile(name);
  if (!exists(f)) await writeSystrace(f, lines, opts);
  return f;
}

function child(file: string): { ms: number; maxRssMb: number; diagnostics: number; runs: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(REPO, 'bench/nnapiChild.ts'), file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; maxRssMb: number; diagnostics: number; runs: number };
}

/** `npm run bench`: NNAPI systraces — 1M mark rows parsed, validated and summarised; a 200 MB HTML export. */
export async function run(): Promise<void> {
  console.log('\n## nnapi-systrace (.systrace, systrace HTML)');
  const f1m = await ensure('nnapi-1m.systrace', 1_000_000);

  // Phase by phase, in this process: first pass from disk, trees + rewriting + validation + numbers, summary views.
  const rounds: { read: number; analyze: number; summary: number; cpu: number }[] = [];
  let diags = -1;
  let runs = 0;
  for (let r = 0; r < 3; r++) {
    const read = await timed(() => readSystrace(f1m));
    const an = await timed(() => analyze(read.value));
    const sm = await timed(() => [false, true].flatMap((totalTimes) => [false, true].map((perExecution) => summarize(an.value, { totalTimes, perExecution }))));
    diags = an.value.diagnostics.length;
    runs = an.value.runs.length;
    rounds.push({ read: read.wall, analyze: an.wall, summary: sm.wall, cpu: read.cpu + an.cpu + sm.cpu });
  }
  const total = rounds.map((x) => x.read + x.analyze + x.summary);
  row('1M-line systrace: read, parse rows, build trees (median of 3)', `${fmt(median(rounds.map((x) => x.read)))} ms`);
  row('  §4 rewriting, §5 validation, §6 times', `${fmt(median(rounds.map((x) => x.analyze)))} ms`);
  row('  summary, 4 views', `${fmt(median(rounds.map((x) => x.summary)))} ms`);
  row('1M-line systrace: parse + validate + summary (wall / CPU)', `${fmt(median(total))} / ${fmt(median(rounds.map((x) => x.cpu)))} ms`, 'target ≤ 2000 ms');
  row('  diagnostics / runs in the generated (valid) trace', `${diags} / ${runs}`, 'expect 0 / 50');
  // The editor: a one-line edit in a 100k-line systrace re-reads that row and rebuilds the run
  // holding it (this trace has a run every 20k lines; a trace of one run rebuilds it whole).
  const lines100k: string[] = [];
  await forEachLine(f1m, (l, n) => {
    if (n < 100_000) lines100k.push(l);
  });
  const doc = NnapiDocument.fromLines(lines100k.length, (i) => lines100k[i]);
  doc.diagnostics(defaultDiagnosticSettings);
  const edits: number[] = [];
  for (let k = 0; k < 21; k++) {
    // A plain loop, as an editor runs it: no forced collection between two edits.
    const t = performance.now();
    doc.update([{ start: 500 + k, end: 501 + k, newCount: 1 }], (i) => lines100k[i]).diagnostics(defaultDiagnosticSettings);
    edits.push(performance.now() - t);
  }
  row('core: one-line edit → diagnostics, 100k-line systrace (median / p95 of 21)', `${fmt(median(edits), 1)} / ${fmt(percentile(edits, 95), 1)} ms`);
  // The same through the language server over stdio, as the user sees it: an `E` row loses its
  // `E` (its scope is left open: a new diagnostic), then gets it back.
  const c = await LspClient.start();
  const uri = 'file:///bench.systrace';
  const opened = await timed(() => c.open(uri, 'nnapi-systrace', lines100k.join('\n')));
  row('LSP open 100k-line systrace → first diagnostics', `${fmt(opened.wall)} ms`);
  const lat: number[] = [];
  for (let k = 0; k < 15; k++) {
    let line = 1000 + k * 6007;
    while (!lines100k[line].endsWith('tracing_mark_write: E')) line++;
    const at = lines100k[line].length - 1;
    for (const [end, text] of [[at + 1, ''], [at, 'E']] as const) {
      const t = performance.now();
      await c.change(uri, [{ range: { start: { line, character: at }, end: { line, character: end } }, text }]);
      lat.push(performance.now() - t);
    }
  }
  await c.stop();
  row('LSP one-line edit → new diagnostics, 100k-line systrace (median / p95)', `${fmt(median(lat), 1)} / ${fmt(percentile(lat, 95), 1)} ms`);
  const one = child(f1m);
  row('peak RSS, 1M-line systrace (separate process)', `${fmt(one.maxRssMb)} MB`, `(${fmt(one.ms)} ms)`);

  if (process.env.NNAPI_BENCH_SKIP_HTML) return;
  // A 200 MB systrace HTML export: scheduler noise between the marks, big script lines around the trace.
  const html = await ensure('nnapi-200mb.systrace.html', 420_000, { noise: 2, html: true });
  const size = statSync(html).size / 1e6;
  const big = child(html);
  row(`${fmt(size)} MB systrace HTML: diagnostics + summary (separate process)`, `${fmt(big.ms)} ms`, `${big.diagnostics} diagnostics, ${big.runs} runs`);
  row('  peak RSS', `${fmt(big.maxRssMb)} MB`);
}
