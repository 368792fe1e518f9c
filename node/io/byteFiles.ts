import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { ChromeTraceExporter } from '../../core/export/chromeTrace';
import type { ByteReadOptions, ByteTimelineBuilder, FormatDescriptor } from '../../core/formatDescriptor';
import type { TimelineModel } from '../../core/timeline/model';
import { gunzipMembers, type GzipEnd } from './gunzip';
import { SyncSink } from './syncSink';
import { zlib } from './zlib';

// Binary formats read from their bytes (a Perfetto protobuf trace): drawn and exported through
// their descriptor's `byteTimeline`; `npu-trace check` feeds the same pieces to `createByteChecker`.

const READ = 1 << 20;

/**
 * The file's bytes in pieces as they are read, gunzipped as they come when it is a gzip stream (by
 * its magic bytes). `onPiece` returning false stops the reading (the rest is not read).
 */
export async function eachPiece(file: string, onPiece: (b: Uint8Array) => void | boolean, gzip: GzipEnd): Promise<void> {
  const fd = openSync(file, 'r');
  const magic = Buffer.alloc(2);
  let n: number;
  try {
    n = readSync(fd, magic, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  const raw = createReadStream(file, { highWaterMark: READ });
  const source: AsyncIterable<Buffer> = n === 2 && magic[0] === 0x1f && magic[1] === 0x8b ? gunzipMembers(raw, gzip) : raw;
  for await (const piece of source) if (onPiece(piece) === false) break;
}

/**
 * What a binary format's reader is given on the Node side (`ByteReadOptions`): node:zlib's inflater,
 * bounded by `maxOutputLength` (a zlib bomb throws instead of growing).
 */
export const BYTE_READ_OPTIONS: ByteReadOptions = {
  inflate: (deflated, maxBytes) => zlib().inflateSync(deflated, { maxOutputLength: maxBytes }),
};

export type ByteFormat = FormatDescriptor & { byteTimeline(opts?: ByteReadOptions): ByteTimelineBuilder };

/** The timeline model of a binary format's file (export, Parquet). */
export async function byteTimelineOf(file: string, fmt: ByteFormat): Promise<TimelineModel> {
  const b = fmt.byteTimeline(BYTE_READ_OPTIONS);
  await eachPiece(file, (x) => b.feed(x), { truncated: false, garbageAt: undefined });
  return b.finish();
}

/** `export --to chrome-trace` of a binary format: its model as Chrome JSON to `out` ('-': stdout); no source lines to copy. */
export async function exportByteChrome(file: string, fmt: ByteFormat, out: string): Promise<number> {
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
