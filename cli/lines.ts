import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { gunzipMembers, type GzipEnd } from './gunzip';

export interface ReadOptions {
  /**
   * Longer lines are not handed on, nor held: `onTooLong` hears of them once their end is found.
   * Bytes for `forEachLineBytes`; UTF-16 units of the decoded text for the text readers.
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
   * Only bytes `[start, end)` of a plain file (the parallel check's chunks), read on the same 1 MB
   * grid as the whole file, so every buffer-dependent step splits lines as a whole-file read does.
   * A `start` past 0 must follow a '\n': no BOM is looked for there.
   */
  range?: { start: number; end: number };
}

/** Thrown by a line callback to stop reading: the reader closes the file and returns the lines so far. */
export const STOP_READING: unique symbol = Symbol('stop reading');

async function stoppable(read: () => Promise<number>, count: () => number): Promise<number> {
  try {
    return await read();
  } catch (e) {
    if (e === STOP_READING) return count();
    throw e;
  }
}

const READ_SIZE = 1 << 20;

/** Bytes `[start, end)` of a file in buffers ending on multiples of READ_SIZE, as `createReadStream` cuts the whole file. */
function* rangeChunks(file: string, { start, end }: { start: number; end: number }): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    for (let at = start; at < end;) {
      const upTo = Math.min(end, (Math.floor(at / READ_SIZE) + 1) * READ_SIZE);
      const b = Buffer.allocUnsafe(upTo - at);
      const n = readSync(fd, b, 0, b.length, at);
      if (n === 0) return;
      yield n === b.length ? b : b.subarray(0, n);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The chunks, the first ones joined until they hold 3 bytes (a BOM can be told) or the file ends:
 * a file shorter than that is one chunk that still goes through the line splitting.
 */
async function* headJoined(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncIterable<Buffer> {
  const head: Buffer[] = [];
  let len = 0;
  let passed = false;
  for await (const c of chunks) {
    if (passed) {
      yield c;
      continue;
    }
    head.push(c);
    len += c.length;
    if (len >= 3) {
      passed = true;
      yield head.length === 1 ? c : Buffer.concat(head);
    }
  }
  if (!passed && len) yield Buffer.concat(head);
}

/** The file's bytes, decompressed when it is a `.gz`. */
function chunksOf(file: string, opts: ReadOptions): AsyncIterable<Buffer> | Iterable<Buffer> {
  if (opts.range) return rangeChunks(file, opts.range);
  const raw = createReadStream(file, { highWaterMark: READ_SIZE });
  if (opts.onProgress) {
    const onProgress = opts.onProgress;
    raw.on('data', () => onProgress(raw.bytesRead));
  }
  if (!/\.gz$/i.test(file)) return raw;
  opts.gzip ??= { truncated: false, garbageAt: undefined };
  return gunzipMembers(raw, opts.gzip);
}

// Runs of empty lines are counted, not visited: a gigabyte of newlines must cost no more than
// reading it. The blocks compare natively.
const BLOCK = 4096;
const NL_BYTES = Buffer.alloc(BLOCK, 10);
const NL_TEXT = '\n'.repeat(BLOCK);

/** End of the run of '\n' starting at `i` in `b`. */
function newlineRunEnd(b: Buffer, i: number): number {
  while (i + BLOCK <= b.length && b.compare(NL_BYTES, 0, BLOCK, i, i + BLOCK) === 0) i += BLOCK;
  while (i < b.length && b[i] === 10) i++;
  return i;
}

function newlineRunEndIn(t: string, i: number): number {
  while (i + BLOCK <= t.length && t.startsWith(NL_TEXT, i)) i += BLOCK;
  while (i < t.length && t.charCodeAt(i) === 10) i++;
  return i;
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
  const stream = chunksOf(file, opts);
  const limit = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let n = 0;
  // Length so far of a line too long to keep, while its end is searched; -1 when none.
  let skipping = -1;
  const tooLong = (length: number) => opts.onTooLong?.(n++, length);
  // Each decoded text gets a new number; a text made for one line alone gets -1.
  let textId = 0;
  const own = (p: string) => onLine(p, 0, p.length, n++, -1);
  // Splits on '\n' with the native indexOf (a per-character loop cost more than the JSON parsing);
  // a line holding '\r' is a CRLF line or holds lone CRs, which LSP also counts as line ends.
  // The next CR at or after the line, searched once per CR, not once per line: a search per line
  // would run to the end of a CR-free chunk every time.
  let crText = '';
  let crId = -2;
  let nextCr = -1;
  const piece = (text: string, s: number, e: number, id: number) => {
    if (e - s > limit) return tooLong(e - s);
    if (id !== crId || id < 0) {
      crText = text;
      crId = id;
      nextCr = text.indexOf('\r', s);
    } else if (nextCr >= 0 && nextCr < s) nextCr = crText.indexOf('\r', s);
    const cr = nextCr;
    if (cr < 0 || cr >= e) onLine(text, s, e, n++, id);
    else if (cr === e - 1) onLine(text, s, e - 1, n++, id);
    else for (const q of text.slice(s, text.charCodeAt(e - 1) === 13 ? e - 1 : e).split('\r')) own(q);
  };
  // `rest` is the unfinished line and never holds '\n': only the new text is searched, so a line
  // of hundreds of MB is scanned once, not once per chunk.
  const emit = (head: string, text: string) => {
    let start = 0;
    let i = text.indexOf('\n');
    if (i >= 0) {
      const id = ++textId;
      if (skipping >= 0) tooLong(skipping + i);
      else if (head.length + i > limit) tooLong(head.length + i);
      else if (head) {
        const first = head + text.slice(0, i);
        piece(first, 0, first.length, -1);
      } else piece(text, 0, i, id);
      skipping = -1;
      head = '';
      start = i + 1;
      for (i = text.indexOf('\n', start); i >= 0; i = text.indexOf('\n', start)) {
        piece(text, start, i, id);
        start = i + 1;
        if (text.charCodeAt(start) === 10 && text.charCodeAt(start - 2) === 10) {
          const end = newlineRunEndIn(text, start);
          n += end - start;
          start = end;
        }
      }
    } else if (skipping >= 0) {
      skipping += text.length;
      return '';
    }
    // A file with lone CRs only would otherwise grow `rest` to the whole file.
    const cr = head.length + text.length - start > 1 << 22 && text.length > 1 ? text.lastIndexOf('\r', text.length - 2) : -1;
    if (cr >= start) {
      for (const q of (head + text.slice(start, cr)).split('\r')) own(q);
      return text.slice(cr + 1);
    }
    if (head.length + text.length - start > limit) {
      skipping = head.length + text.length - start;
      return '';
    }
    return head + text.slice(start);
  };
  let atStart = true;
  const read = async () => {
    for await (const chunkBuf of stream) {
      let text = decoder.write(chunkBuf);
      if (atStart && text.length > 0) {
        atStart = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      rest = emit(rest, text);
    }
    rest += decoder.end();
    if (skipping >= 0) tooLong(skipping + rest.length);
    else if (opts.gzip?.truncated) n++;
    else if (rest.length > limit) tooLong(rest.length);
    else if (rest.indexOf('\r') < 0) own(rest);
    else for (const q of rest.split('\r')) own(q);
    return n;
  };
  return stoppable(read, () => n);
}

// VS Code drops a UTF-8 BOM from the document, so columns on line 1 must not count it either.
const hasBom = (b: Uint8Array) => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

const decodeUtf8 = (b: Uint8Array, s: number, e: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e);

/**
 * Streams a file's lines as byte ranges of the chunk that holds them, for checkers that can work on
 * bytes. Line ends are counted as LSP does (`\n`, `\r\n`, lone `\r`): a line holding a lone CR is
 * decoded and split, and its pieces go to `onText`.
 */
export async function forEachLineBytes(
  file: string,
  onBytes: (b: Uint8Array, s: number, e: number, lineNo: number, decode: typeof decodeUtf8) => void,
  onText: (line: string, lineNo: number) => void,
  opts: ReadOptions = {},
): Promise<number> {
  const stream = chunksOf(file, opts);
  const limit = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let n = 0;
  // Length so far of a line too long to keep, while its end is searched; -1 when none.
  let skipping = -1;
  const tooLong = (length: number) => opts.onTooLong?.(n++, length);
  const line = (b: Buffer, s: number, e: number, cr: number) => {
    if (e - s > limit) return tooLong(e - s);
    if (e > s && b[e - 1] === 13) e--;
    if (cr >= s && cr < e) {
      for (const q of b.toString('utf8', s, e).split('\r')) onText(q, n++);
    } else onBytes(b, s, e, n++, decodeUtf8);
  };
  // The unfinished line, as the chunks that hold it, joined once when its '\n' arrives: copying it
  // into every next chunk made a 64 MB single line take seconds (quadratic).
  let pending: Buffer[] = [];
  let pendingLen = 0;
  const join = (b: Buffer) => {
    const all = pending.length ? Buffer.concat([...pending, b]) : b;
    pending = [];
    pendingLen = 0;
    return all;
  };
  let atStart = !(opts.range && opts.range.start > 0);
  for await (const chunk of headJoined(stream)) {
    let b = chunk;
    if (atStart) {
      atStart = false;
      if (hasBom(b)) b = b.subarray(3);
    }
    if (skipping >= 0) {
      const i = b.indexOf(10);
      if (i < 0) {
        skipping += b.length;
        continue;
      }
      tooLong(skipping + i);
      skipping = -1;
      b = b.subarray(i + 1);
    }
    if (b.indexOf(10) < 0) {
      pending.push(b);
      pendingLen += b.length;
      // A file of lone CRs only must not grow the pending line to the whole file.
      const last = pendingLen > 1 << 22 && b.length > 1 ? b.lastIndexOf(13, b.length - 2) : -1;
      if (last >= 0) {
        const all = join(Buffer.alloc(0));
        const cut = all.length - b.length + last;
        for (const q of all.toString('utf8', 0, cut).split('\r')) onText(q, n++);
        pending = [Buffer.from(all.subarray(cut + 1))];
        pendingLen = pending[0].length;
      }
      if (pendingLen > limit) {
        skipping = pendingLen;
        pending = [];
        pendingLen = 0;
      }
      continue;
    }
    const from = pendingLen;
    b = join(b);
    let s = 0;
    let cr = b.indexOf(13);
    for (let i = b.indexOf(10, from); i >= 0; i = b.indexOf(10, s)) {
      while (cr >= 0 && cr < s) cr = b.indexOf(13, s);
      line(b, s, i, cr);
      s = i + 1;
      if (b[s] === 10 && s >= 2 && b[s - 2] === 10) {
        const end = newlineRunEnd(b, s);
        n += end - s;
        s = end;
      }
    }
    // A copy, so the chunk is not kept alive by its last few bytes.
    if (s < b.length) {
      pending = [Buffer.from(b.subarray(s))];
      pendingLen = b.length - s;
    }
  }
  const tail = join(Buffer.alloc(0));
  if (skipping >= 0) tooLong(skipping + tail.length);
  else if (opts.gzip?.truncated) n++;
  else if (tail.length > limit) tooLong(tail.length);
  else if (tail.indexOf(13) >= 0) for (const q of tail.toString('utf8').split('\r')) onText(q, n++);
  else onBytes(tail, 0, tail.length, n++, decodeUtf8);
  return n;
}
