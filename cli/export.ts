import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { ChromeTraceExporter } from '../core/export/chromeTrace';
import { timelineBuilderFor } from '../core/timeline/builder';
import { firstLineOf } from './firstLine';
import { forEachLine } from './lines';
import { SyncSink } from './syncSink';

export const EXPORT_USAGE = '  npu-trace export <file> --to chrome-trace [-o OUT.json[.gz]]\n';

class ExportUsage extends Error {}

/**
 * `npu-trace export`: any file with a timeline (NPU trace, NNAPI systrace, Chrome JSON) as Chrome
 * Trace Event JSON for Perfetto and chrome://tracing (README "Export to Chrome Trace"). Two passes
 * over the file: the first builds the timeline model, the second writes each item when its source
 * lines come by, with their fields as args; the output goes to disk in 1 MB pieces. Exit 0, or 2
 * with one line on stderr.
 */
export async function exportCommand(args: string[]): Promise<number> {
  let file: string, out: string;
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { to: { type: 'string' }, output: { type: 'string', short: 'o' } } });
    if (positionals.length !== 1) throw new ExportUsage(positionals.length ? 'give exactly one file' : 'no file given');
    if (values.to !== 'chrome-trace') throw new ExportUsage(values.to === undefined ? '--to is required (chrome-trace)' : `--to takes chrome-trace, got ${JSON.stringify(values.to)}`);
    file = positionals[0];
    out = values.output ?? '-';
  } catch (e) {
    process.stderr.write(`npu-trace export: ${escapeControl(e instanceof Error ? e.message : String(e))}\nUsage:\n${EXPORT_USAGE}`);
    return 2;
  }
  const fail = (msg: string) => {
    process.stderr.write(`npu-trace export: ${escapeControl(file)}: ${escapeControl(msg)}\n`);
    return 2;
  };
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return fail('no such file');
  const builder = timelineBuilderFor(file, firstLineOf(file), { metrics: false });
  if (!builder) return fail('no timeline for this file type (expected .trace.jsonl, a systrace, Chrome trace JSON)');
  let sink: SyncSink | undefined;
  try {
    await forEachLine(file, (line, n) => builder.addLine(line, n));
    const exporter = new ChromeTraceExporter(builder.finish(), { source: file });
    sink = new SyncSink(out);
    const s = sink;
    s.write(exporter.head());
    await forEachLine(file, (line, n) => s.write(exporter.line(line, n)));
    s.write(exporter.tail());
    s.close();
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  return 0;
}
