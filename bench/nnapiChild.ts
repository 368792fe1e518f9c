// Run by bench/nnapi.ts in a separate process: the CLI's whole path on one file, then its time and peak memory.
import { analyze } from '../core/nnapi/analysis';
import { Collector } from '../core/nnapi/collect';
import { looksLikeHtml, parseRowLine } from '../core/nnapi/row';
import { summarize } from '../core/nnapi/summary';
import { forEachLine } from '../cli/lines';

async function main(file: string): Promise<void> {
  const t = performance.now();
  let c: Collector | undefined;
  await forEachLine(file, (line, n) => {
    c ??= new Collector(n === 0 && looksLikeHtml(line));
    c.add(parseRowLine(line), n);
  });
  const a = analyze(c!);
  const runs = summarize(a, {});
  console.log(JSON.stringify({ ms: performance.now() - t, maxRssMb: process.resourceUsage().maxRSS / 1024, diagnostics: a.diagnostics.length, runs: runs.length }));
}

void main(process.argv[2]);
