import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { LineSplitter } from '../../core/common/lineSplitter';

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
 * Takes the wanted lines from the splitter (`core/common/lineSplitter.ts`, the CLI's too) and
 * notes where lines start; stops the splitter after the last wanted line, so a kept `.gz` stream
 * resumes right after it.
 */
class LineGrabber {
  readonly splitter: LineSplitter;
  /** What is left of the last chunk after the line where reading stopped. */
  rest: Uint8Array | undefined;
  private want: ReadonlySet<number> = new Set();
  private last = -1;
  private out = new Map<number, string>();
  private done = false;
  /** The last line handed on or skipped as too long. */
  private seen: number;

  constructor(line: number, offset: number, private readonly onLineStart: (line: number, offset: number) => void) {
    this.splitter = new LineSplitter(this, { firstLine: line, firstOffset: offset, atFileStart: offset === 0 });
    this.seen = line - 1;
  }

  line(b: Uint8Array, s: number, e: number, n: number, offset: number): void {
    this.onLineStart(n, offset);
    this.passed(n);
    if (this.want.has(n)) this.out.set(n, Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', s, e));
    if (n >= this.last) {
      this.done = true;
      this.splitter.stop();
    }
  }

  tooLong(n: number): void {
    this.passed(n);
  }

  /** The splitter counts runs of empty lines without handing them on: a wanted one is ''. */
  private passed(n: number): void {
    if (n > this.seen + 1) for (const k of this.want) if (k > this.seen && k < n) this.out.set(k, '');
    this.seen = n;
  }

  /** Feeds chunks until every wanted line is read; returns true when the stream ended. */
  async read(chunks: Chunks, want: ReadonlySet<number>, out: Map<number, string>): Promise<boolean> {
    this.want = want;
    this.last = Math.max(...want);
    this.out = out;
    this.done = false;
    while (!this.done) {
      let chunk = this.rest;
      this.rest = undefined;
      if (!chunk) {
        const r = await chunks.next();
        if (r.done) {
          this.splitter.end();
          return true;
        }
        chunk = r.value;
      }
      this.rest = this.splitter.feed(chunk);
    }
    return false;
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
  private cursor: { chunks: Chunks; grabber: LineGrabber; close: () => void } | undefined;
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
    const run = this.queue.then(() => this.readNow(wanted));
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
    const first = Math.min(...want);
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
      const grabber = new LineGrabber(from.line, from.offset, note);
      try {
        await grabber.read(raw[Symbol.asyncIterator](), want, out);
      } finally {
        raw.destroy();
      }
      this.lastReadBytes = grabber.splitter.offset - from.offset;
      return out;
    }
    if (!this.cursor || this.cursor.grabber.splitter.lineNo > first) {
      this.dropCursor();
      const raw = createReadStream(this.file, { highWaterMark: this.chunkBytes });
      const gunzip = raw.pipe(createGunzip({ chunkSize: Math.max(64, this.chunkBytes) }));
      this.cursor = { chunks: gunzip[Symbol.asyncIterator](), grabber: new LineGrabber(0, 0, note), close: () => { raw.destroy(); gunzip.destroy(); } };
    }
    const c = this.cursor;
    const at = c.grabber.splitter.offset;
    try {
      const ended = await c.grabber.read(c.chunks, want, out);
      this.lastReadBytes = c.grabber.splitter.offset - at;
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

/** Lines `wanted` of a file, read once from the top (no index kept). */
export async function readLines(file: string, wanted: readonly number[]): Promise<Map<number, string>> {
  const r = new FileLines(file);
  try {
    return await r.read(wanted);
  } finally {
    r.dispose();
  }
}
