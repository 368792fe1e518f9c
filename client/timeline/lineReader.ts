import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/**
 * Reads lines `wanted` (0-based) of a file on disk, stopping after the last one: the details of a
 * clicked event in a file too large (or compressed) for an editor document.
 */
export async function readLines(file: string, wanted: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const want = new Set(wanted);
  const last = Math.max(-1, ...wanted);
  if (last < 0) return out;
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const stream = /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
  const decoder = new StringDecoder('utf8');
  let rest = '', n = 0, skipLF = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = rest + decoder.write(chunk);
      let start = skipLF && text.charCodeAt(0) === 10 ? 1 : 0;
      skipLF = false;
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        if (want.has(n)) out.set(n, text.slice(start, i));
        if (++n > last) return out;
        if (c === 13) {
          if (i + 1 === text.length) skipLF = true;
          else if (text.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      rest = text.slice(start);
    }
    if (want.has(n)) out.set(n, rest + decoder.end());
    return out;
  } finally {
    raw.destroy();
  }
}
