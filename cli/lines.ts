import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/**
 * Streams a file's lines (`\n`, `\r\n` or `\r`) to `onLine` without holding the whole file as one
 * string. A callback, not an async iterator: one promise per line would cost more than the parsing.
 * `.gz` files are decompressed on the fly. `onProgress` gets the bytes read from disk so far.
 */
export async function forEachLine(file: string, onLine: (line: string, lineNo: number) => void, onProgress?: (bytesRead: number) => void): Promise<number> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  if (onProgress) raw.on('data', () => onProgress(raw.bytesRead));
  const stream = /\.gz$/i.test(file) ? raw.pipe(createGunzip()) : raw;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let skipLF = false;
  let n = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    if (skipLF && text.charCodeAt(0) === 10) start = 1;
    skipLF = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      onLine(text.slice(start, i), n++);
      if (c === 13) {
        if (i + 1 === text.length) skipLF = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  onLine(rest, n++);
  return n;
}
