import { DEFAULT_MAX_LINE_BYTES } from '../../core/common/lines';
import type { DiffRun } from '../../core/diff/types';
import type { FormatDescriptor } from '../../core/formatDescriptor';
import { eachPiece } from './byteFiles';
import { inflateRaw, sidecarNames } from './kprofFiles';
import type { GzipEnd } from './gunzip';
import { forEachLineBytes, forEachText } from './lines';

/** A document read whole for a comparison is at most this big (decoded text), when its format names no limit. */
const DEFAULT_DOCUMENT_CHARS = 512 << 20;

/**
 * What `npu-trace diff` compares of one file, read as its format's `diff` asks: line by line as
 * bytes (streamed, never held whole), as one text, or as bytes (a binary format). Gzipped files are
 * read through. A format without `diff`, or one that says it cannot be compared, throws.
 * `onProgress` hears the bytes read so far (of the file on disk; of the decoded bytes for a binary one).
 */
export async function diffRunOfFile(file: string, fmt: FormatDescriptor, onProgress?: (bytesRead: number) => void): Promise<DiffRun> {
  const d = fmt.diff;
  if (!d || d.unsupported) throw new Error(d?.unsupported ?? `${fmt.displayName} files cannot be compared`);
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  const cut = (r: DiffRun): DiffRun => (gzip.truncated ? { ...r, notes: [...(r.notes ?? []), 'the gzip stream is cut off: compared what was read'] } : r);
  if (d.lines) {
    const c = d.lines();
    // The splitter numbers lines from 0 (as LSP); a run's lines are 1-based.
    const onBytes = c.addBytes
      ? (b: Uint8Array, s: number, e: number, n: number, decode: (b: Uint8Array, s: number, e: number) => string) => c.addBytes!(b, s, e, n + 1, decode)
      : (b: Uint8Array, s: number, e: number, n: number, decode: (b: Uint8Array, s: number, e: number) => string) => c.add(decode(b, s, e), n + 1);
    await forEachLineBytes(file, onBytes, () => {}, { maxLineBytes: fmt.streamedLineBytes ?? DEFAULT_MAX_LINE_BYTES, gzip, onProgress });
    return cut(c.finish());
  }
  if (d.text) {
    const limit = fmt.maxDocumentBytes ?? DEFAULT_DOCUMENT_CHARS;
    const parts: string[] = [];
    let size = 0;
    await forEachText(file, (t) => {
      size += t.length;
      if (size > limit) throw new Error(`over the ${limit} characters a ${fmt.displayName} file is compared at`);
      parts.push(t);
    }, { gzip, onProgress });
    const text = parts.join('');
    return cut(d.text(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  }
  if (d.bytes) {
    const pieces: Uint8Array[] = [];
    let size = 0;
    await eachPiece(file, (p) => {
      size += p.length;
      if (size > DEFAULT_DOCUMENT_CHARS) throw new Error(`over the ${DEFAULT_DOCUMENT_CHARS} bytes a ${fmt.displayName} file is compared at`);
      pieces.push(p);
      onProgress?.(size);
    }, gzip);
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of pieces) {
      all.set(p, at);
      at += p.length;
    }
    return cut(d.bytes(all, { name: file, inflateRaw, names: sidecarNames(file) }));
  }
  throw new Error(`${fmt.displayName} files cannot be compared`);
}
