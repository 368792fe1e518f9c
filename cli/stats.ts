import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { statsText } from '../core/trace/metrics/report';
import type { TraceStats } from '../core/trace/metrics/types';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { tooLongLines } from '../node/io/skippedLines';
import { statsOfFile } from '../node/io/statsOfFile';
import { statsInParallel } from './parallelStats';

export const STATS_USAGE = '  npu-trace stats [--json] [--from CYCLE] [--to CYCLE] <file.trace.jsonl[.gz]>\n';

class StatsUsage extends Error {}

function cycle(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new StatsUsage(`${flag} takes a cycle (a number ≥ 0), got ${JSON.stringify(v)}`);
  return n;
}

/**
 * `npu-trace stats`: utilization, bandwidth, phase and layer breakdowns, idle attribution and
 * findings of an NPU trace (README "Trace metrics"), streamed in one pass (a big plain file on
 * every core: parallelStats.ts, the same result). Exit 0 with the
 * numbers (a trace with errors still gets them: broken pairs are counted), 2 on unusable
 * arguments or an unreadable file.
 */
export async function stats(args: string[]): Promise<number> {
  let opts: { json: boolean; from?: number; to?: number; file: string };
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, from: { type: 'string' }, to: { type: 'string' } } });
    if (positionals.length !== 1) throw new StatsUsage(positionals.length ? 'give exactly one file' : 'no file given');
    opts = { json: !!values.json, from: cycle(values.from, '--from'), to: cycle(values.to, '--to'), file: positionals[0] };
    if (opts.from !== undefined && opts.to !== undefined && opts.to < opts.from) throw new StatsUsage('--to is before --from');
  } catch (e) {
    process.stderr.write(`npu-trace stats: ${escapeControl(e instanceof Error ? e.message : String(e))}\nUsage:\n${STATS_USAGE}`);
    return 2;
  }
  const { file } = opts;
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) {
    process.stderr.write(`npu-trace stats: ${escapeControl(file)}: no such file\n`);
    return 2;
  }
  let s: TraceStats;
  // A line over the limit is left out of the metrics and said, as `export` and `check` say it.
  const skipped = tooLongLines(DEFAULT_MAX_LINE_BYTES);
  try {
    const window = { from: opts.from, to: opts.to };
    s = (await statsInParallel(file, window, (n) => skipped.add(n))) ?? (await statsOfFile(file, window, undefined, (n) => skipped.add(n)));
  } catch (e) {
    process.stderr.write(`npu-trace stats: ${escapeControl(file)}: ${escapeControl(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
  process.stdout.write(opts.json ? `${JSON.stringify(s, null, 2)}\n` : statsText(s, file));
  const note = skipped.note('the metrics');
  if (note) process.stderr.write(`npu-trace stats: ${escapeControl(file)}: warning: ${note}\n`);
  return 0;
}

