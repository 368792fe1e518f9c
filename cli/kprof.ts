import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { decode, DEFAULT_MAX_PROBLEMS } from '../core/kprof/decode';
import { fileTooLarge, KprofFormatError, MAX_FILE_BYTES } from '../core/kprof/errors';
import { detectLayout, LAYOUTS, layoutById } from '../core/kprof/layouts';
import { namesFromList } from '../core/kprof/names';
import { kprofChromeTrace } from '../core/kprof/chrome';
import { openBuffer } from '../core/kprof/open';
import { groupOverlap } from '../core/kprof/overlap';
import { kprofJson, kprofText } from '../core/kprof/report';
import { SyncSink } from '../node/io/syncSink';
import { FORCE_OPTION, outputRefusal } from './outputPath';
import { inflateRaw, readNamesFile, sidecarNames } from '../node/io/kprofFiles';

export const KPROF_USAGE = `  npu-trace kprof [--names FILE|a,b,c] [--layout auto|${LAYOUTS.map((l) => l.id).join('|')}] [--stride N] [--launch N] [--overlap A,B] [--max-problems N] [--json] [--chrome-trace OUT.json[.gz]|- [--force]] <buffer.npy|.npz|.bin>\n`;

/**
 * `npu-trace kprof`: decodes an intra-kernel profiler buffer, prints per-region statistics, lanes
 * and problems (text, or `--json`: schemas/kprof.schema.json). Exit 1 when a problem is an error,
 * 2 for an unreadable file or unusable arguments. `--chrome-trace OUT` also writes the buffer as
 * Chrome Trace JSON (one pid per block, one tid per group); with `-` it goes to stdout instead of the report.
 */
export async function kprof(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { names: { type: 'string' }, layout: { type: 'string' }, stride: { type: 'string' }, launch: { type: 'string' }, overlap: { type: 'string' }, 'max-problems': { type: 'string' }, json: { type: 'boolean' }, 'chrome-trace': { type: 'string' }, ...FORCE_OPTION },
    });
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) return usage(positionals.length ? 'give exactly one buffer file' : 'no buffer file given');
  const refused = v['chrome-trace'] === undefined ? undefined : outputRefusal('--chrome-trace', v['chrome-trace'], v.force);
  if (refused) return usage(refused);
  const file = positionals[0];
  const auto = v.layout === undefined || v.layout === 'auto';
  const chosen = auto ? undefined : layoutById(v.layout!);
  if (!auto && !chosen) return usage(`unknown --layout ${escapeControl(v.layout ?? '')} (one of auto, ${LAYOUTS.map((l) => l.id).join(', ')})`);
  const int = (s: string | undefined, name: string, min: number): number | undefined | string => {
    if (s === undefined) return undefined;
    return /^\d{1,9}$/.test(s) && Number(s) >= min ? Number(s) : `--${name} must be an integer ≥ ${min}, got ${escapeControl(s.slice(0, 40))}`;
  };
  const stride = int(v.stride, 'stride', 1);
  const launch = int(v.launch, 'launch', 0);
  const maxProblems = int(v['max-problems'], 'max-problems', 0);
  for (const x of [stride, launch, maxProblems]) if (typeof x === 'string') return usage(x);
  let overlapGroups: [number, number] | undefined;
  if (v.overlap !== undefined) {
    const m = /^(\d{1,6}),(\d{1,6})$/.exec(v.overlap);
    if (!m) return usage(`--overlap takes two groups, e.g. --overlap 0,3; got ${escapeControl(v.overlap.slice(0, 40))}`);
    overlapGroups = [Number(m[1]), Number(m[2])];
  }

  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return usage(`${escapeControl(file)}: no such file`);
  if (st.size > MAX_FILE_BYTES) return fail(file, fileTooLarge(st.size));
  let opened;
  let names: string[] | undefined;
  try {
    opened = openBuffer(file, readFileSync(file), inflateRaw);
    names = v.names !== undefined ? readNamesOption(v.names) : opened.names ?? sidecarNames(file);
  } catch (e) {
    if (e instanceof KprofFormatError) return fail(file, e.message);
    throw e;
  }
  const which = (launch as number | undefined) ?? 0;
  if (which >= opened.launches.length) return usage(`--launch ${which}: the file holds ${opened.launches.length} launch(es)`);
  const buf = opened.launches[which];
  const layout = chosen ?? detectLayout(buf.words, buf.slots);
  const d = decode(buf, { layout, stride: stride as number | undefined, names, maxProblems: (maxProblems as number | undefined) ?? DEFAULT_MAX_PROBLEMS });
  let overlap;
  if (overlapGroups) {
    const bad = overlapGroups.find((g) => g >= d.numGroups);
    if (bad !== undefined) return usage(`--overlap: group ${bad} is not one of the buffer's ${d.numGroups} group(s)`);
    overlap = groupOverlap(d, overlapGroups[0], overlapGroups[1]);
  }
  const info = { file, container: opened.container, launch: which, launches: opened.launches.length };
  const chromeOut = v['chrome-trace'];
  if (chromeOut !== undefined) {
    let sink;
    try {
      sink = new SyncSink(chromeOut);
    } catch (e) {
      return usage(`--chrome-trace: cannot write ${escapeControl(chromeOut)}: ${escapeControl(e instanceof Error ? e.message : String(e))}`);
    }
    try {
      kprofChromeTrace(buf, d, basename(file), (s) => sink.text(s));
    } finally {
      sink.close();
    }
  }
  if (chromeOut !== '-') process.stdout.write(v.json ? `${JSON.stringify(kprofJson(d, info, overlap), null, 1)}\n` : kprofText(d, info, overlap));
  return d.problems.some((p) => p.severity === 'error') || d.problemsDroppedError ? 1 : 0;
}

/** `--names FILE` (a `.json` array or one name per line) or `--names a,b,c`. */
function readNamesOption(arg: string): string[] {
  if (existsSync(arg) && statSync(arg).isFile()) return readNamesFile(arg);
  return namesFromList(arg);
}

function fail(file: string, msg: string): number {
  process.stderr.write(`npu-trace kprof: ${escapeControl(basename(file))}: ${escapeControl(msg)}\n`);
  return 2;
}

function usage(msg: string): number {
  process.stderr.write(`npu-trace kprof: ${msg}\nUsage:\n${KPROF_USAGE}`);
  return 2;
}
