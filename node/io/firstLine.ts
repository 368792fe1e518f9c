import { closeSync, openSync, readSync } from 'node:fs';
import { detectFormat, formatByName } from '../../core/detectFormat';
import { FileHead, HEAD_BYTES } from '../../core/fileHead';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import { headerLength } from './gunzip';
import { zlib } from './zlib';

/** Compressed bytes read for the head of a `.gz`: traces compress 5–20×, so this gives about the MB detection looks at. */
const GZ_HEAD_BYTES = 256 << 10;

/** Most bytes a head's gunzip may make: a gzip bomb's first 256 KB could inflate to 256 MB. */
const MAX_GUNZIPPED = 8 << 20;

/**
 * The start of a gzip stream, inflated within MAX_GUNZIPPED (from less of it when it inflates past
 * that); empty when broken. Bytes after the first member that are not gzip (which `check` reports as
 * file.trailing-garbage) make Node's gunzip throw: the first member alone is then what is read.
 */
function gunzipHead(bytes: Buffer): Buffer {
  for (let n = bytes.length; n > 0; n = n > 1024 ? n >> 2 : 0) {
    try {
      return zlib().gunzipSync(bytes.subarray(0, n), { finishFlush: 2, maxOutputLength: MAX_GUNZIPPED });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') return firstMember(bytes.subarray(0, n));
    }
  }
  return Buffer.alloc(0);
}

function firstMember(bytes: Buffer): Buffer {
  const h = headerLength(bytes);
  if (h < 0) return Buffer.alloc(0);
  try {
    return zlib().inflateRawSync(bytes.subarray(h), { finishFlush: 2, maxOutputLength: MAX_GUNZIPPED });
  } catch {
    return Buffer.alloc(0);
  }
}

/**
 * The head of a file as `detectFormat` reads it: its first MB (`HEAD_BYTES`), gunzipped for a `.gz`
 * (as much as its first 256 KB give). A broken gzip gives an empty head.
 */
export function headOf(file: string): FileHead {
  const gz = /\.gz$/i.test(file);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(gz ? GZ_HEAD_BYTES : HEAD_BYTES);
    let bytes: Buffer = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    if (gz) bytes = gunzipHead(bytes);
    const head = bytes.subarray(0, HEAD_BYTES);
    return new FileHead(head.toString('utf8'), head);
  } finally {
    closeSync(fd);
  }
}

/** A file's format (`detectFormat`), its head read only when its name does not decide. */
export function formatOfFile(file: string): FormatDescriptor | undefined {
  return formatByName(file) ?? detectFormat(file, headOf(file));
}
