import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { escapeControl } from '../core/common/escape';
import { detectFormat } from '../core/detectFormat';
import { exportParquetCommand } from './exportParquet';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { exportChromeTrace, type ExportNotes } from '../node/export/chromeTraceFile';
import { gzipEndForExport, tooLongLines } from '../node/io/skippedLines';
import type { GzipEnd } from '../node/io/gunzip';
import { headOf } from '../node/io/firstLine';
import { forEachLine, forEachLineBytes, type ReadOptions } from '../node/io/lines';
import { exportByteChrome, type ByteFormat } from '../node/io/byteFiles';
import { FORCE_OPTION, outputRefusal } from './outputPath';

export const EXPORT_USAGE = '  npu-trace export <file> --to chrome-trace [-o OUT.json[.gz]] [--force]\n  npu-trace export <file|dir>... --to parquet -o OUT_DIR [--run-id NAME] [--jobs N] [--force]\n';

class ExportUsage extends Error {}

function usage(msg: string): number {
  process.stderr.write(`npu-trace export: ${escapeControl(msg)}\nUsage:\n${EXPORT_USAGE}`);
  return 2;
}

/**
 * `npu-trace export`: any file with a timeline (NPU trace, NNAPI systrace, Chrome JSON) as Chrome
 * Trace Event JSON for Perfetto and chrome://tracing (README "Export to Chrome Trace"), in two
 * passes over the file (exportRun.ts), written to disk in 1 MB pieces. Exit 0, or 2 with one line
 * on stderr.
 */
export async function exportCommand(args: string[]): Promise<number> {
  let file: string, out: string;
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { to: { type: 'string' }, output: { type: 'string', short: 'o' }, 'run-id': { type: 'string' }, jobs: { type: 'string' }, ...FORCE_OPTION } });
    if (values.to === 'parquet') {
      if (!positionals.length) throw new ExportUsage('no file given');
      return await exportParquetCommand(positionals, values.output, values['run-id'], values.jobs, usage, values.force);
    }
    if (values['run-id'] !== undefined || values.jobs !== undefined) throw new ExportUsage('--run-id and --jobs are for --to parquet');
    if (positionals.length !== 1) throw new ExportUsage(positionals.length ? 'give exactly one file' : 'no file given');
    if (values.to !== 'chrome-trace') throw new ExportUsage(values.to === undefined ? '--to is required (chrome-trace)' : `--to takes chrome-trace, got ${JSON.stringify(values.to)}`);
    file = positionals[0];
    out = values.output ?? '-';
    const refused = outputRefusal('-o', out, values.force);
    if (refused) throw new ExportUsage(refused);
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  const fail = (msg: string) => {
    process.stderr.write(`npu-trace export: ${escapeControl(file)}: ${escapeControl(msg)}\n`);
    return 2;
  };
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return fail('no such file');
  const head = headOf(file);
  const fmt = detectFormat(file, head);
  if (fmt?.byteTimeline) {
    // A binary format (a Perfetto trace): no lines to pass twice; its model holds every event.
    try {
      await exportByteChrome(file, fmt as ByteFormat, out);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      return fail(e instanceof Error ? e.message : String(e));
    }
    return 0;
  }
  // A streamed document (Chrome JSON is often one line of many MB) is read up to its format's line
  // limit; other formats keep the default. A longer line is skipped, counted on the first pass, and said.
  const maxLineBytes = fmt?.streamedLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const skipped = tooLongLines(maxLineBytes);
  let pass = 0;
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const read: ReadOptions = { onTooLong: (n) => (pass === 1 ? skipped.add(n) : undefined), maxLineBytes, gzip, utf8Chunks: true };
  // A cut .gz is refused before anything is written.
  const whole = () => {
    const refused = gzipEndForExport(gzip).refuse;
    if (refused) throw new Error(refused);
  };
  const notes: ExportNotes = { invalidUtf8Lines: 0, tooLargeEvents: 0 };
  try {
    await exportChromeTrace(file, async (add) => {
      await forEachLine(file, add, undefined, read);
    }, out, (p) => (pass = p), async (onBytes, onText) => {
      await forEachLineBytes(file, onBytes, onText, read);
    }, { modelFromBytes: true, head, notes, afterModelPass: whole });
  } catch (e) {
    // `npu-trace export x --to chrome-trace | head` closes the pipe early: that is not a failure.
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    return fail(e instanceof Error ? e.message : String(e));
  }
  const said = [
    gzipEndForExport(gzip).note,
    skipped.note(),
    notes.tooLargeEvents ? `${notes.tooLargeEvents} event${notes.tooLargeEvents === 1 ? '' : 's'} over 16 MB skipped: not in the output` : undefined,
    notes.invalidUtf8Lines ? `${notes.invalidUtf8Lines} line${notes.invalidUtf8Lines === 1 ? '' : 's'} with events not valid UTF-8: written with U+FFFD for each bad byte sequence` : undefined,
  ];
  for (const n of said) if (n) process.stderr.write(`npu-trace export: ${escapeControl(file)}: warning: ${n}\n`);
  return 0;
}
