import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

/**
 * Where some lines of a file start, in bytes: every `stride`-th line, so a read can start near a
 * line instead of at the top. Bounded: past `maxEntries` the stride doubles and every other
 * checkpoint goes (at the default 64k entries, 1 MB of numbers for any file).
 */
export class LineIndex {
  private lines: number[] = [0];
  private offsets: number[] = [0];

  constructor(private stride = 1024, private readonly maxEntries = 1 << 16) {}

  /** Line `line` starts at byte `offset`; recorded when it falls on the stride, in increasing line order. */
  add(line: number, offset: number): void {
    if (line % this.stride !== 0 || line <= this.lines[this.lines.length - 1]) return;
    this.lines.push(line);
    this.offsets.push(offset);
    if (this.lines.length > this.maxEntries) {
      this.stride *= 2;
      const keep = (_: number, i: number) => this.lines[i] % this.stride === 0;
      this.offsets = this.offsets.filter(keep);
      this.lines = this.lines.filter(keep);
    }
  }

  /** The last checkpoint at or before `line`. */
  seek(line: number): { line: number; offset: number } {
    let lo = 0, hi = this.lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lines[mid] <= line) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.lines[lo], offset: this.offsets[lo] };
  }

  get size(): number {
    return this.lines.length;
  }
}

/**
 * Scans bytes for lines (`\n`, `\r\n` or lone `\r`, as LSP counts them): keeps the text of the
 * wanted lines, reports where each line starts, and can be fed chunk after chunk and resumed.
 */
class LineScanner {
  /** Number of the line being read, and the byte where it starts. */
  line: number;
  lineStart: number;
  /** Bytes fed so far (the absolute offset of the next chunk). */
  pos: number;
  /** What is left of the last chunk after the line end where reading stopped. */
  rest: Buffer | undefined;
  private carry: Buffer[] = [];
  private afterCR = false;

  constructor(line: number, offset: number, private readonly onLineStart: (line: number, offset: number) => void) {
    this.line = line;
    this.lineStart = offset;
    this.pos = offset;
  }

  /** Feeds a chunk; returns true once every line up to `last` is read (the rest of the chunk is kept in `rest`). */
  feed(chunk: Buffer, want: ReadonlySet<number>, last: number, out: Map<number, string>): boolean {
    let s = 0;
    if (this.afterCR) {
      this.afterCR = false;
      if (chunk.length && chunk[0] === 10) {
        s = 1;
        this.lineStart++;
      }
      this.onLineStart(this.line, this.lineStart);
    }
    for (let i = s; i < chunk.length; i++) {
      const c = chunk[i];
      if (c !== 10 && c !== 13) continue;
      if (want.has(this.line)) out.set(this.line, this.text(chunk.subarray(s, i)));
      this.carry = [];
      this.line++;
      if (c === 13 && i + 1 === chunk.length) {
        // A CR at the end of a chunk: whether an LF follows is known with the next one.
        this.afterCR = true;
        this.lineStart = this.pos + i + 1;
        this.pos += chunk.length;
        return this.line > last;
      }
      if (c === 13 && chunk[i + 1] === 10) i++;
      this.lineStart = this.pos + i + 1;
      this.onLineStart(this.line, this.lineStart);
      s = i + 1;
      if (this.line > last) {
        this.rest = s < chunk.length ? chunk.subarray(s) : undefined;
        this.pos += s;
        return true;
      }
    }
    if (want.has(this.line) && s < chunk.length) this.carry.push(chunk.subarray(s));
    this.pos += chunk.length;
    return false;
  }

  /** At the end of the file: the last line, when it is wanted. */
  end(want: ReadonlySet<number>, out: Map<number, string>): void {
    if (want.has(this.line)) out.set(this.line, this.text(Buffer.alloc(0)));
  }

  private text(tail: Buffer): string {
    return (this.carry.length ? Buffer.concat([...this.carry, tail]) : tail).toString('utf8');
  }
}

type Chunks = AsyncIterator<Buffer>;

/**
 * Reads lines of one file on disk for the details of clicked events, in a file too large (or
 * compressed) for an editor document. A plain file gets a sparse index of line starts, filled by
 * every read, so a later click reads from the checkpoint before its line. A `.gz` cannot be entered
 * in the middle: the last stream is kept with its position, so clicks further down read on from
 * there, and a click above it decompresses again from the start. The index and the stream are
 * dropped when the file changes on disk (size or time).
 */
export class FileLines {
  private readonly gz: boolean;
  private index: LineIndex;
  private stamp = '';
  private cursor: { chunks: Chunks; scanner: LineScanner; close: () => void } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Bytes scanned by the last read (decompressed bytes for a `.gz`): what a click cost. */
  lastReadBytes = 0;

  /** `chunkBytes` (read size) and `stride` (lines between checkpoints): tests make them small. */
  constructor(readonly file: string, private readonly chunkBytes = 1 << 20, private readonly stride = 1024) {
    this.gz = /\.gz$/i.test(file);
    this.index = new LineIndex(stride);
  }

  /** Lines `wanted` (0-based); a line past the end is left out. Reads run one at a time. */
  read(wanted: readonly number[]): Promise<Map<number, string>> {
    const run = this.queue.then(() => this.readNow(wanted)).then(dropBom);
    this.queue = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.dropCursor();
  }

  private async readNow(wanted: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const want = new Set(wanted.filter((l) => Number.isInteger(l) && l >= 0));
    if (!want.size) return out;
    const first = Math.min(...want), last = Math.max(...want);
    const s = await stat(this.file);
    const stamp = `${s.size}:${s.mtimeMs}`;
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.index = new LineIndex(this.stride);
      this.dropCursor();
    }
    const note = (line: number, offset: number) => this.index.add(line, offset);
    if (!this.gz) {
      const from = this.index.seek(first);
      const raw = createReadStream(this.file, { start: from.offset, highWaterMark: this.chunkBytes });
      const scanner = new LineScanner(from.line, from.offset, note);
      try {
        await pump(raw[Symbol.asyncIterator](), scanner, want, last, out);
      } finally {
        raw.destroy();
      }
      this.lastReadBytes = scanner.pos - from.offset;
      return out;
    }
    if (!this.cursor || this.cursor.scanner.line > first) {
      this.dropCursor();
      const raw = createReadStream(this.file, { highWaterMark: this.chunkBytes });
      const gunzip = raw.pipe(createGunzip({ chunkSize: Math.max(64, this.chunkBytes) }));
      this.cursor = { chunks: gunzip[Symbol.asyncIterator](), scanner: new LineScanner(0, 0, note), close: () => { raw.destroy(); gunzip.destroy(); } };
    }
    const c = this.cursor;
    const at = c.scanner.pos;
    try {
      const ended = await pump(c.chunks, c.scanner, want, last, out);
      this.lastReadBytes = c.scanner.pos - at;
      if (ended) this.dropCursor();
    } catch (e) {
      this.dropCursor();
      throw e;
    }
    return out;
  }

  private dropCursor(): void {
    this.cursor?.close();
    this.cursor = undefined;
  }
}

/**
 * Feeds chunks until every wanted line is read; returns true when the stream ended. The scanner
 * stops at a line end and keeps the rest of its chunk, where a kept stream resumes.
 */
async function pump(chunks: Chunks, scanner: LineScanner, want: ReadonlySet<number>, last: number, out: Map<number, string>): Promise<boolean> {
  for (;;) {
    let chunk: Buffer;
    if (scanner.rest) {
      chunk = scanner.rest;
      scanner.rest = undefined;
    } else {
      const r = await chunks.next();
      if (r.done) {
        scanner.end(want, out);
        return true;
      }
      chunk = r.value;
    }
    if (scanner.feed(chunk, want, last, out)) return false;
  }
}

/** Line 0 without a UTF-8 BOM, as the editor and the CLI readers show it. */
function dropBom(out: Map<number, string>): Map<number, string> {
  const first = out.get(0);
  if (first?.charCodeAt(0) === 0xfeff) out.set(0, first.slice(1));
  return out;
}

/** Lines `wanted` of a file, read once from the top (no index kept). */
export async function readLines(file: string, wanted: readonly number[]): Promise<Map<number, string>> {
  const r = new FileLines(file);
  try {
    return await r.read(wanted);
  } finally {
    r.dispose();
  }
}
