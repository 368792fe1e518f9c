// bench/RESULTS.md: what the last `npm run bench` of each section measured, with the machine, the
// node version and the load before and after it. A section that runs again replaces its own part;
// the others stay as their last run left them (each says when that was).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import type { Row } from './util';
import { REPO } from './util';

export const RESULTS = join(REPO, 'bench/RESULTS.md');

const HEAD = `# Benchmark results

Written by \`npm run bench\` (do not edit by hand): one part per section, each replaced when that
section runs again (\`npm run bench -- <section>\`), so parts may come from different runs; each says
when, on what machine and at what load. Wall times move with the load of the machine: compare
figures within one part, where each sits beside its baseline of the same run. How to run and read
the benchmarks: [CONTRIBUTING.md](../CONTRIBUTING.md#benchmarks).
`;

export interface SectionRun {
  name: string;
  started: Date;
  loadBefore: number[];
  loadAfter: number[];
  rows: Row[];
  /** Lines the section printed that are not rows (headings, per-case notes), in order. */
  notes: string[];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

/**
 * Milliseconds to write 64 MB of memory new to the process, then again: what a page fault costs
 * here. Figures that allocate much (a CMDQ check holds ~170 MB) move with it between machines: on a
 * VM where the first write cost 50× the second, the 29 MB queue's check took twice its time on one
 * where it cost little, while the streamed trace check did not move.
 */
let touch: string | undefined;
function firstTouch(): string {
  if (touch === undefined) {
    const t0 = performance.now();
    const a = new Uint8Array(64 << 20).fill(1);
    const t1 = performance.now();
    a.fill(2);
    touch = `first write of 64 MB ${(t1 - t0).toFixed(0)} ms, again ${(performance.now() - t1).toFixed(0)} ms`;
  }
  return touch;
}

export function sectionMarkdown(r: SectionRun): string {
  const cpu = os.cpus();
  const out = [`## ${r.name}`, '',
    `${r.started.toISOString().slice(0, 16).replace('T', ' ')} UTC · node ${process.version} · ${cpu.length} × ${cell(cpu[0]?.model ?? 'cpu')} · ${Math.round(os.totalmem() / 2 ** 30)} GiB · ${firstTouch()} · load average (1, 5, 15 min) before ${load(r.loadBefore)}, after ${load(r.loadAfter)}`, ''];
  if (r.rows.length) out.push('| what | measured | target |', '|---|---|---|', ...r.rows.map((x) => `| ${cell(x.name)} | ${cell(x.value)} | ${cell(x.target)} |`), '');
  const notes = r.notes.map((l) => l.trimEnd()).filter((l) => l.trim() && !/^#/.test(l.trim()));
  if (notes.length) out.push('```text', ...notes, '```', '');
  return out.join('\n');
}

/** RESULTS.md with the parts of `runs` replaced (or added, in run order), the others kept. */
export function mergeResults(old: string, runs: readonly SectionRun[]): string {
  const parts = new Map<string, string>();
  for (const m of old.matchAll(/^## (.+)\n[^]*?(?=^## |(?![^]))/gm)) parts.set(m[1], m[0].trimEnd() + '\n');
  for (const r of runs) parts.set(r.name, sectionMarkdown(r));
  return [HEAD, ...parts.values()].join('\n');
}

export function writeResults(runs: readonly SectionRun[]): void {
  if (!runs.length) return;
  writeFileSync(RESULTS, mergeResults(existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '', runs));
  console.log(`\nwrote ${RESULTS}`);
}
