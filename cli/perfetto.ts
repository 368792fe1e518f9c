import { closeSync, openSync, readSync } from 'node:fs';
import { looksLikePerfettoProto } from '../core/perfetto/detect';
import { PerfettoFile, type PerfettoResult } from '../core/perfetto/file';
import { BYTE_READ_OPTIONS, eachPiece } from '../node/io/byteFiles';
import { gzipEndProblems } from '../core/common/fileProblems';
import type { GzipEnd } from '../node/io/gunzip';
import { zlib } from '../node/io/zlib';

const HEAD = 64 << 10;

/**
 * Whether `nnapi-stats` reads a file as a Perfetto protobuf trace: by the format's own detector on
 * the file's name and first 64 KB (gunzipped for a gzip stream), the rule `detectFormat` applies,
 * without loading the registry (nnapi-stats is bundled alone, small: issue #13).
 */
export function isPerfettoFile(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD);
    let head: Uint8Array = buf.subarray(0, readSync(fd, buf, 0, HEAD, 0));
    if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
      try {
        head = zlib().gunzipSync(head, { finishFlush: 2, maxOutputLength: 8 << 20 }).subarray(0, HEAD);
      } catch {
        return false;
      }
    }
    return !/\.(systrace|atrace|ftrace|html?)$/i.test(file) && looksLikePerfettoProto(file, head);
  } finally {
    closeSync(fd);
  }
}

/** Reads a trace file once (for `nnapi-stats`): its problems and the NNAPI analysis of its marks (run even without NNAPI marks). */
export async function readPerfettoFile(file: string): Promise<PerfettoResult> {
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const f = new PerfettoFile(undefined, BYTE_READ_OPTIONS);
  await eachPiece(file, (b) => f.feed(b), gzip);
  const r = f.end({ nnapi: true });
  return { ...r, diagnostics: [...gzipEndProblems(gzip, 0), ...r.diagnostics] };
}
