// Run by bench/nnapi.ts in a separate process: the CLI's whole path on one file, then its time and peak memory.
import { analyze } from '../core/nnapi/analysis';
import { summarize } from '../core/nnapi/summary';
import { readSystrace } from '../node/io/readSystrace';

async function main(file: string): Promise<void> {
  const t = performance.now();
  const a = analyze(await readSystrace(file));
  const runs = summarize(a, {});
  console.log(JSON.stringify({ ms: performance.now() - t, maxRssMb: process.resourceUsage().maxRSS / 1024, diagnostics: a.diagnostics.length, runs: runs.length }));
}

void main(process.argv[2]);
