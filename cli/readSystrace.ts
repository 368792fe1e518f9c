import { Collector } from '../core/nnapi/collect';
import { ChunkRowReader, looksLikeHtml } from '../core/nnapi/row';
import { forEachLineIn } from './lines';

/** Streams a systrace (text, HTML or .gz) through the first pass, reading rows on the decoded chunks. */
export async function readSystrace(file: string): Promise<Collector> {
  let c: Collector | undefined;
  const reader = new ChunkRowReader();
  await forEachLineIn(file, (text, s, e, n, chunk) => {
    c ??= new Collector(n === 0 && looksLikeHtml(text.slice(s, e)));
    c.add(reader.read(text, s, e, chunk), n);
  });
  return c ?? new Collector(false);
}
