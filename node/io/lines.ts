import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LineSplitter } from '../../core/common/lineSplitter';
import { gunzipMembers, type GzipEnd } from './gunzip';

export interface ReadOptions {
  /**
   * Longer lines (in bytes, without the line end) are not handed on, nor held: `onTooLong` hears
   * of them once their end is found.
   */
  maxLineBytes?: number;
  onTooLong?: (lineNo: number, length: number) => void;
  /** Bytes read from disk so far. */
  onProgress?: (bytesRead: number) => void;
  /**
   * How a `.gz` file ended, filled in when it is read. When it is cut off, the last line (the
   * one the cut falls in, numbered `count - 1` where `count` is what the reader returns) is not
   * handed on: its end is missing.
   */
  gzip?: GzipEnd;
  /**
   * Only bytes `[start, end)` of a plain file (the parallel check's chunks), read on the same grid
   * as the whole file (1 MB; 64 KB as text), so every buffer-dependent step splits lines as a
   * whole-file read does.
   * A `start` past 0 must follow a '\n' (`forEachText`: begin a character): no BOM is looked for there.
   */
  range?: { start: number; end: number };
  /**
   * `forEachLineBytes`: check each chunk read for well-formed UTF-8 (natively, once: ~0.1 ms per
   * MB), and tell `onBytes` of each line inside a chunk that is (its `utf8` argument), so a writer
   * that copies a line's bytes need not check them byte by byte in JavaScript (the export: 0.7 s
   * per 210 MB). The lines of a chunk that is not are not vouched for (false says nothing).
   */
  utf8Chunks?: boolean;
}

/** Thrown by a line callback to stop reading: the reader closes the file and returns the lines so far. */
export const STOP_READING: unique symbol = Symbol('stop reading');

const READ_SIZE = 1 << 20;
/**
 * Read size of a file read as text (`forEachText`). Each piece becomes a string, and its reader's
 * padded copy of it another: past 128 KB V8 allocates them in its large-object spaces (seen with
 * `v8.getHeapSpaceStatistics()`; a 1 MB piece is an external string, its copy a large object),
 * where 64 KB ones are ordinary young-generation strings. The parallel check of
 * a 108 MB PyTorch trace took ~7 % less CPU than with 1 MB pieces, and its wall q10 went from 930
 * to 830 ms and from 840 to 800 ms (14 alternated cold runs each, twice); 128 and 256 KB were no
 * better than 1 MB, 16 and 32 KB no better than 64 KB.
 */
const TEXT_READ_SIZE = 1 << 16;

/**
 * One read buffer per thread for `rangeChunks`: the splitter copies what it keeps of a chunk, so
 * each read can reuse it. A fresh megabyte per read cost the parallel check about 15k page faults
 * on the 1M-event trace.
 */
let rangeBuffer: Buffer | undefined;

/**
 * Bytes `[start, end)` of a file in buffers ending on multiples of `size` (at most READ_SIZE), as
 * `createReadStream` cuts the whole file. Each buffer is valid until the next is asked for.
 */
function* rangeChunks(file: string, { start, end }: { start: number; end: number }, size: number): Generator<Buffer> {
  const fd = openSync(file, 'r');
  const buf = (rangeBuffer ??= Buffer.allocUnsafeSlow(READ_SIZE));
  try {
    for (let at = start; at < end;) {
      const upTo = Math.min(end, (Math.floor(at / size) + 1) * size);
      const n = readSync(fd, buf, 0, upTo - at, at);
      if (n === 0) return;
      yield buf.subarray(0, n);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes in reads of `size` bytes, decompressed when it is a `.gz`. */
function chunksOf(file: string, opts: ReadOptions, size = READ_SIZE): AsyncIterable<Buffer> | Iterable<Buffer> {
  if (opts.range) return rangeChunks(file, opts.range, size);
  const raw = createReadStream(file, { highWaterMark: size });
  if (opts.onProgress) {
    const onProgress = opts.onProgress;
    raw.on('data', () => onProgress(raw.bytesRead));
  }
  if (!/\.gz$/i.test(file)) return raw;
  opts.gzip ??= { truncated: false, garbageAt: undefined };
  return gunzipMembers(raw, opts.gzip);
}

/**
 * A file's text (gunzipped when it is a `.gz`) in decoded pieces as they are read, without a
 * leading BOM (VS Code drops it), for a reader of one JSON document: one line of a compact file
 * may be longer than one string can be. UTF-8 characters cut by a piece boundary are kept whole.
 */
export async function forEachText(file: string, onText: (text: string) => void, opts: Pick<ReadOptions, 'gzip' | 'onProgress' | 'range'> = {}): Promise<void> {
  const d = new TextPieces();
  let first = true;
  const put = (t: string) => {
    if (first && t) {
      first = false;
      if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    }
    if (t) onText(t);
  };
  for await (const chunk of chunksOf(file, opts, TEXT_READ_SIZE)) put(d.write(chunk));
  put(d.end());
}

/**
 * UTF-8 bytes to text piece by piece, as a StringDecoder gives it. A piece of ASCII bytes met with
 * nothing held from the piece before is copied as Latin-1, which is the same text (the check is
 * native): 106–157 ms for the 1 MB pieces of a 108 MB PyTorch trace where the decoder took
 * 166–203 ms (one process, three rounds each, node 20).
 * After a piece that ends in an ASCII byte the decoder holds nothing (that byte ended or broke off
 * any character it held), so it can be passed by.
 */
export class TextPieces {
  private readonly d = new StringDecoder('utf8');
  private clean = true;

  write(chunk: Buffer): string {
    if (chunk.length === 0) return '';
    if (this.clean && isAscii(chunk)) return chunk.toString('latin1');
    this.clean = chunk[chunk.length - 1] < 0x80;
    return this.d.write(chunk);
  }

  end(): string {
    return this.d.end();
  }
}

/**
 * The size of a file's text in bytes before reading it: its size on disk, or for a `.gz` the
 * uncompressed size its gzip trailer records (of the last member, modulo 4 GiB: a hint only).
 */
export function textSizeHint(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (!/\.gz$/i.test(file)) return size;
    if (size < 18) return 0;
    const b = Buffer.alloc(4);
    readSync(fd, b, 0, 4, size - 4);
    return b.readUInt32LE(0);
  } finally {
    closeSync(fd);
  }
}

/**
 * Streams a file's lines (`\n`, `\r\n` or `\r`) to `onLine` without holding the whole file as one
 * string. A callback, not an async iterator: one promise per line would cost more than the parsing.
 * `.gz` files are decompressed on the fly. `onProgress` gets the bytes read from disk so far.
 */
export async function forEachLine(file: string, onLine: (line: string, lineNo: number) => void, onProgress?: (bytesRead: number) => void, opts: ReadOptions = {}): Promise<number> {
  return forEachLineIn(file, (text, s, e, n) => onLine(s === 0 && e === text.length ? text : text.slice(s, e), n), { ...opts, onProgress });
}

/**
 * `forEachLine` that hands each line as `[start, end)` of the decoded text holding it, with a
 * number that changes when the text does: a reader that scans characters is faster on the flat
 * chunk than on a slice of it, and can keep its own searches across the lines of one chunk.
 */
export async function forEachLineIn(
  file: string,
  onLine: (text: string, start: number, end: number, lineNo: number, chunk: number) => void,
  opts: ReadOptions = {},
): Promise<number> {
  // A chunk is decoded once, when its first line is handed on. Its text has the chunk's offsets
  // when every byte is one UTF-16 unit (ASCII, the usual case: decoding never makes more units
  // than bytes, so equal lengths mean one for one); otherwise each line is decoded alone.
  let bytes: Uint8Array | undefined;
  let text = '';
  let textId = 0;
  let oneForOne = false;
  const line = (b: Uint8Array, s: number, e: number, n: number) => {
    if (b !== bytes) {
      bytes = b;
      // ASCII (checked natively) is its own Latin-1: copied, not decoded (see TextPieces).
      text = isAscii(b) ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1') : decodeUtf8(b, 0, b.length);
      oneForOne = text.length === b.length;
      textId++;
    }
    if (oneForOne) onLine(text, s, e, n, textId);
    else {
      const own = decodeUtf8(b, s, e);
      onLine(own, 0, own.length, n, -1);
    }
  };
  return split(file, line, opts);
}

/** The file's lines through the one splitter (core/common/lineSplitter.ts); returns their number. */
async function split(file: string, line: (b: Uint8Array, s: number, e: number, lineNo: number) => void, opts: ReadOptions, onChunk?: (chunk: Uint8Array) => void): Promise<number> {
  const splitter = new LineSplitter({ line, tooLong: opts.onTooLong }, {
    maxLineBytes: opts.maxLineBytes,
    atFileStart: !(opts.range && opts.range.start > 0),
    alloc: (n) => Buffer.allocUnsafe(n),
  });
  try {
    for await (const chunk of chunksOf(file, opts)) {
      onChunk?.(chunk);
      splitter.feed(chunk);
    }
    return splitter.end(opts.gzip?.truncated);
  } catch (e) {
    // The reader stops; leaving the loop closed the file.
    if (e === STOP_READING) return splitter.lineNo;
    throw e;
  }
}

const decodeUtf8 = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

/**
 * Streams a file's lines as byte ranges of the chunk that holds them, for checkers that can work on
 * bytes. Line ends are counted as LSP does (`\n`, `\r\n`, lone `\r`). `onText` is no longer
 * called (the splitter cuts lone CRs in bytes too); it stays for the callers' signature. `utf8`:
 * the line's bytes are well-formed UTF-8 (only with `opts.utf8Chunks`; false says nothing).
 */
export async function forEachLineBytes(
  file: string,
  onBytes: (b: Uint8Array, s: number, e: number, lineNo: number, decode: typeof decodeUtf8, utf8: boolean) => void,
  _onText: (line: string, lineNo: number) => void,
  opts: ReadOptions = {},
): Promise<number> {
  if (!opts.utf8Chunks) return split(file, (b, s, e, n) => onBytes(b, s, e, n, decodeUtf8, false), opts);
  // Line ends are ASCII, never inside a character: every line cut from a well-formed chunk is
  // well-formed. A chunk is checked at its first line (the read buffer may be reused: its verdict
  // is dropped with it); a line handed on from another buffer (joined from two chunks, or the
  // first chunk joined with the bytes held for its BOM) is checked alone.
  let chunk: Uint8Array | undefined;
  let chunkOk: boolean | undefined;
  return split(file, (b, s, e, n) => onBytes(b, s, e, n, decodeUtf8, b === chunk ? (chunkOk ??= isUtf8(b)) : isUtf8(b.subarray(s, e))), opts, (c) => {
    chunk = c;
    chunkOk = undefined;
  });
}
