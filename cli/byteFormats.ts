import { checkResult, defaultDiagnosticSettings } from '../core/common/settings';
import { ChromeTraceExporter } from '../core/export/chromeTrace';
import type { ByteTimelineBuilder, CheckResult, FormatDescriptor } from '../core/formatDescriptor';
import type { TimelineModel } from '../core/timeline/model';
import { eachPiece, gzipProblems } from './bytePieces';
import type { GzipEnd } from './gunzip';
import { SyncSink } from './syncSink';

// Binary formats read from their bytes (a Perfetto protobuf trace): checked, drawn and exported
// through their descriptor's `createByteChecker` / `byteTimeline`.

/** `npu-trace check` of a binary format: its problems, capped, and whether one is an error. */
export async function checkBytes(file: string, fmt: FormatDescriptor, maxProblems: number): Promise<CheckResult> {
  const settings = { ...defaultDiagnosticSettings, maxProblems };
  const checker = fmt.createByteChecker?.({ maxProblems });
  if (!checker) return checkResult([], settings);
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  await eachPiece(file, (b) => checker.feed(b), gzip);
  return checker.finish(settings, gzipProblems(gzip));
}

/** The timeline model of a binary format's file (export, Parquet). */
export async function byteTimelineOf(file: string, fmt: FormatDescriptor & { byteTimeline(): ByteTimelineBuilder }): Promise<TimelineModel> {
  const b = fmt.byteTimeline();
  await eachPiece(file, (x) => b.feed(x), { truncated: false, garbageAt: undefined });
  return b.finish();
}

/** `npu-trace export --to chrome-trace` of a binary format: its model as Chrome JSON to `out` ('-': stdout); no source lines to copy. */
export async function exportByteChrome(file: string, fmt: FormatDescriptor & { byteTimeline(): ByteTimelineBuilder }, out: string): Promise<number> {
  const exporter = new ChromeTraceExporter(await byteTimelineOf(file, fmt), { source: file });
  const sink = new SyncSink(out);
  try {
    sink.write(exporter.head());
    sink.write(exporter.tail());
  } finally {
    sink.close();
  }
  return sink.bytesWritten;
}
