import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { checkResult, defaultDiagnosticSettings } from '../core/common/settings';
import type { Diagnostic } from '../core/common/diagnostic';
import { PERFETTO_NAME, looksLikePerfettoProto } from '../core/perfetto/detect';
import { PerfettoFile, type PerfettoResult } from '../core/perfetto/file';
import { PerfettoTimelineBuilder } from '../core/perfetto/timeline';
import type { TimelineModel } from '../core/timeline/model';
import { ChromeTraceExporter } from '../core/export/chromeTrace';
import { SyncSink } from './syncSink';
import { gzipGarbage, gzipTruncated } from './fileProblems';
import { gunzipMembers, type GzipEnd } from './gunzip';
import { zlib } from './zlib';

const HEAD = 64 << 10;
const READ = 1 << 20;

/** The first 64 KB of a file as the readers see it (gunzipped for a gzip stream). */
function headOf(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD);
    const raw = buf.subarray(0, readSync(fd, buf, 0, HEAD, 0));
    if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b && PERFETTO_NAME.test(file)) {
      try {
        return zlib().gunzipSync(raw, { finishFlush: 2 }).subarray(0, HEAD);
      } catch {
        return raw;
      }
    }
    return raw;
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is a Perfetto protobuf trace: by its name, or by its first bytes whatever its name. */
export function isPerfettoFile(file: string): boolean {
  try {
    return looksLikePerfettoProto(file, headOf(file));
  } catch {
    return false;
  }
}

/** The file's bytes in pieces, gunzipped as they come when it is a gzip stream (by its magic bytes). */
async function eachPiece(file: string, onPiece: (b: Uint8Array) => void, gzip: GzipEnd): Promise<void> {
  const fd = openSync(file, 'r');
  const magic = Buffer.alloc(2);
  const n = readSync(fd, magic, 0, 2, 0);
  closeSync(fd);
  const raw = createReadStream(file, { highWaterMark: READ });
  const source: AsyncIterable<Buffer> = n === 2 && magic[0] === 0x1f && magic[1] === 0x8b ? gunzipMembers(raw, gzip) : raw;
  for await (const piece of source) onPiece(piece);
}

/** A gzip stream cut short or followed by garbage: at the start of the file (a binary file has no lines). */
function gzipProblems(gzip: GzipEnd): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (gzip.truncated) out.push(gzipTruncated(0));
  if (gzip.garbageAt !== undefined) out.push(gzipGarbage(0, gzip.garbageAt));
  return out;
}

/** Reads a trace file once through a PerfettoFile; `nnapi`: run the NNAPI rules even without NNAPI marks. */
export async function readPerfettoFile(file: string, opts: { nnapi?: boolean; maxProblems?: number } = {}): Promise<PerfettoResult> {
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const f = new PerfettoFile(undefined, { maxProblems: opts.maxProblems });
  await eachPiece(file, (b) => f.feed(b), gzip);
  const r = f.end(opts);
  return { ...r, diagnostics: [...gzipProblems(gzip), ...r.diagnostics] };
}

/** `npu-trace check` of a protobuf trace: its problems, capped, and whether one is an error. */
export async function checkPerfettoFile(file: string, maxProblems: number): Promise<{ diagnostics: Diagnostic[]; hasError: boolean }> {
  const r = await readPerfettoFile(file, { maxProblems });
  return checkResult(r.diagnostics, { ...defaultDiagnosticSettings, maxProblems }, { count: r.dropped, hasError: r.droppedError });
}

/** The timeline model of a protobuf trace file (export, Parquet). */
export async function perfettoTimelineOf(file: string): Promise<TimelineModel> {
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const b = new PerfettoTimelineBuilder();
  await eachPiece(file, (x) => b.feed(x), gzip);
  return b.finish();
}

/** `npu-trace export --to chrome-trace` of a protobuf trace: its timeline model as Chrome JSON to `out` ('-': stdout). */
export async function exportPerfettoChrome(file: string, out: string): Promise<number> {
  const exporter = new ChromeTraceExporter(await perfettoTimelineOf(file), { source: file });
  const sink = new SyncSink(out);
  try {
    sink.write(exporter.head());
    sink.write(exporter.tail());
  } finally {
    sink.close();
  }
  return sink.bytesWritten;
}
