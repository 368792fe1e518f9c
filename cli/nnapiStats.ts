import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { defaultDiagnosticSettings, finalizeDiagnostics } from '../core/common/settings';
import { quoted } from '../core/nnapi/naming';
import { analyze } from '../core/nnapi/analysis';
import { summarize, summaryJson, summaryText } from '../core/nnapi/summary';
import { readSystrace } from '../node/io/readSystrace';

export const NNAPI_STATS_USAGE = '  npu-trace nnapi-stats [--json] [--total-times] [--per-execution] <file>\n';

const MAX_SHOWN = 20;

/**
 * `npu-trace nnapi-stats`: the NNAPI timing summary of a systrace (text or HTML), per run, as the
 * reference parser prints it (`--json`: its version-1 JSON). Problems go to stderr; exit 1 when
 * there are errors (the reference would have refused the trace), 2 on unusable arguments.
 */
export async function nnapiStats(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, 'total-times': { type: 'boolean' }, 'per-execution': { type: 'boolean' } } });
  } catch (e) {
    // parseArgs's own words are long; say it as the rest of the CLI does.
    const msg = e instanceof Error ? e.message : String(e);
    const unknown = /^Unknown option '([^']*)'/.exec(msg);
    return usage(unknown ? `unknown option ${unknown[1]}` : msg.split('\n')[0]);
  }
  const v = parsed.values;
  const opts = { json: !!v.json, totalTimes: !!v['total-times'], perExecution: !!v['per-execution'] };
  const files = parsed.positionals;
  if (files.length !== 1) return usage(files.length ? 'give exactly one file' : 'no file given');
  const file = files[0];
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return usage(`${file}: no such file`);

  const analysis = analyze(await readSystrace(file));
  const runs = summarize(analysis, opts);
  process.stdout.write(opts.json ? summaryJson(analysis, opts) : summaryText(runs));

  const diags = finalizeDiagnostics(analysis.diagnostics, defaultDiagnosticSettings);
  const errors = diags.filter((d) => d.severity === 'error');
  for (const d of diags.slice(0, MAX_SHOWN)) {
    // Messages quote the file: no control character may reach the terminal.
    process.stderr.write(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${escapeControl(d.message)}\n`);
  }
  if (diags.length > MAX_SHOWN) process.stderr.write(`... ${diags.length - MAX_SHOWN} more problems (npu-trace check ${file} lists them all)\n`);
  for (const r of runs) if (!r.complete) process.stderr.write(`run ${r.index + 1} (${quoted(r.startingMark || 'trace')}): Incomplete trace, not able to print all statistics\n`);
  return errors.length ? 1 : 0;
}

function usage(msg: string): number {
  process.stderr.write(`npu-trace nnapi-stats: ${escapeControl(msg)}\nUsage:\n${NNAPI_STATS_USAGE}`);
  return 2;
}
