import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { ChromeTraceExporter } from '../core/export/chromeTrace';
import { timelineBuilderFor } from '../core/timeline/builder';
import { ChromeTimelineBuilder } from '../core/timeline/chromeTrace';
import { firstLineOf } from './firstLine';
import { forEachLine } from './lines';
import { SyncSink } from './syncSink';

export const EXPORT_USAGE = '  npu-trace export <file> --to chrome-trace [-o OUT.json[.gz]]\n';

class ExportUsage extends Error {}

/** Close to V8's longest string (2^29 − 24 UTF-16 units). */
const MAX_JSON_LINE = 500 << 20;

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
  // Chrome JSON is often one line of many MB: it is read whole up to V8's string limit; other formats keep the line limit.
  let tooLong: number | undefined;
  const read = builder instanceof ChromeTimelineBuilder ? { maxLineBytes: MAX_JSON_LINE, onTooLong: (n: number) => (tooLong ??= n) } : { onTooLong: (n: number) => (tooLong ??= n) };
  try {
    await forEachLine(file, (line, n) => builder.addLine(line, n), undefined, read);
    if (tooLong !== undefined) return fail(`line ${tooLong + 1} is too long to read`);
    const exporter = new ChromeTraceExporter(builder.finish(), { source: file });
    sink = new SyncSink(out);
    const s = sink;
    s.write(exporter.head());
    await forEachLine(file, (line, n) => s.write(exporter.line(line, n)), undefined, read);
    s.write(exporter.tail());
    s.close();
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  return 0;
}
