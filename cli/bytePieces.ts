import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { Diagnostic } from '../core/common/diagnostic';
import { gzipGarbage, gzipTruncated } from './fileProblems';
import { gunzipMembers, type GzipEnd } from './gunzip';

// A binary file's bytes as they are read (byteFormats.ts, and nnapi-stats on a Perfetto trace).

const READ = 1 << 20;

/** The file's bytes in pieces as they are read, gunzipped as they come when it is a gzip stream (by its magic bytes). */
export async function eachPiece(file: string, onPiece: (b: Uint8Array) => void, gzip: GzipEnd): Promise<void> {
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
  for await (const piece of source) onPiece(piece);
}

/** A gzip stream cut short or followed by garbage: at the start of the file (a binary file has no lines). */
export function gzipProblems(gzip: GzipEnd): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (gzip.truncated) out.push(gzipTruncated(0));
  if (gzip.garbageAt !== undefined) out.push(gzipGarbage(0, gzip.garbageAt));
  return out;
}

