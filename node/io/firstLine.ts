import { closeSync, openSync, readSync } from 'node:fs';
import { splitLines } from '../../core/common/lines';
import { zlib } from './zlib';

/** The first line of a file as the readers see it (gunzipped, without a BOM), from its first 4 KB. */
export function firstLineOf(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    let text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    if (/\.gz$/i.test(file)) {
      try {
        text = zlib().gunzipSync(text, { finishFlush: 2 });
      } catch {
        return '';
      }
    }
    return splitLines(text.toString('utf8').replace(/^\uFEFF/, ''))[0];
  } finally {
    closeSync(fd);
  }
}
