import { SystraceStream, type Collector } from '../../core/nnapi/collect';
import { forEachLineIn } from './lines';

/** Streams a systrace (text, HTML or .gz) through the first pass, reading rows on the decoded chunks. */
export async function readSystrace(file: string, onProgress?: (bytesRead: number) => void): Promise<Collector> {
  const stream = new SystraceStream();
  await forEachLineIn(file, (text, s, e, n, chunk) => stream.lineIn(text, s, e, n, chunk), { onProgress });
  return stream.collector;
}
