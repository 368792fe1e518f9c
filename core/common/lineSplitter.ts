import { DEFAULT_MAX_LINE_BYTES } from './lines';

/** Where a splitter's lines go. Bytes are only valid during the call. */
export interface LineSink {
  /** Line `lineNo` is bytes `[s, e)` of `b` (no terminator) and starts at byte `offset` of the stream. */
  line(b: Uint8Array, s: number, e: number, lineNo: number, offset: number): void;
  /** Line `lineNo` is `length` bytes long, over the limit: it was not held. */
  tooLong?(lineNo: number, length: number): void;
}

export interface SplitOptions {
  /** Longer lines (in bytes, without the terminator) go to `sink.tooLong` instead of `sink.line`. */
  maxLineBytes?: number;
  /** The stream starts a file: a UTF-8 BOM there is not part of line 0 (VS Code drops it too). */
  atFileStart?: boolean;
  /** Number and byte offset of the first line, when the stream starts in the middle of a file. */
  firstLine?: number;
  firstOffset?: number;
  /**
   * Makes the array a line cut by chunks is joined into. Node passes `Buffer.allocUnsafe`: lines of
   * one kind of array keep the byte scanners that read them monomorphic (a plain Uint8Array for the
   * first line of each chunk cost the trace check 6 % more CPU).
   */
  alloc?: (length: number) => Uint8Array;
}

const LF = 10;
const CR = 13;

/**
 * The one line splitter of streamed bytes (the CLI's readers, the timeline's line reader): line
 * ends are `\n`, `\r\n` and a lone `\r`, as LSP counts them, also when a chunk boundary falls
 * between the CR and the LF or inside a line. A line longer than the limit is counted, not held.
 * Runs of empty `\n` lines after an empty line are counted, not handed on: a gigabyte of newlines
 * costs a byte loop, not a call per line (a reader that must see every line number fills the gaps).
 */
export class LineSplitter {
  /** Number of the line being read. */
  lineNo: number;
  /** Bytes of the stream read so far (the offset of the next chunk's first byte). */
  offset: number;
  private readonly limit: number;
  /** The unfinished line: the pieces that hold it (copies), or only its length once over the limit. */
  private pending: Uint8Array[] = [];
  private pendingLen = 0;
  private skipping = false;
  /** Where the unfinished line starts in the stream. */
  private lineStart: number;
  /** The previous chunk ended with a CR: an LF at the start of the next one belongs to it. */
  private afterCr = false;
  /** Bytes held until a BOM can be told (3 bytes, or the end of the stream). */
  private head: Uint8Array | undefined;
  private stopped = false;
  private readonly alloc: (length: number) => Uint8Array;

  constructor(private readonly sink: LineSink, opts: SplitOptions = {}) {
    this.limit = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.alloc = opts.alloc ?? ((n) => new Uint8Array(n));
    this.lineNo = opts.firstLine ?? 0;
    this.offset = this.lineStart = opts.firstOffset ?? 0;
    if (opts.atFileStart) this.head = new Uint8Array(0);
  }

  /** Called by the sink during `feed`: stop after this line; `feed` returns the bytes not read. */
  stop(): void {
    this.stopped = true;
  }

  /** Splits the next chunk; returns what is left of it when the sink stopped the splitter. */
  feed(chunk: Uint8Array): Uint8Array | undefined {
    if (this.head) {
      const all = concat([this.head, chunk], this.alloc);
      if (all.length < 3) {
        this.head = all;
        return undefined;
      }
      this.head = undefined;
      chunk = all;
      if (all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf) {
        chunk = all.subarray(3);
        this.offset += 3;
        this.lineStart += 3;
      }
    }
    this.stopped = false;
    const base = this.offset;
    let s = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk[0] === LF) {
        s = 1;
        this.lineStart++;
      }
    }
    const n = chunk.length;
    let lf = chunk.indexOf(LF, s);
    // The next CR, searched again only once passed: a chunk without CRs is searched for one once.
    let cr = chunk.indexOf(CR, s);
    while (lf >= 0 || cr >= 0) {
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        end = cr;
        if (cr + 1 === n) {
          // Whether an LF follows is known with the next chunk.
          this.afterCr = true;
          next = n;
        } else next = chunk[cr + 1] === LF ? cr + 2 : cr + 1;
        cr = chunk.indexOf(CR, next);
        if (lf >= 0 && lf < next) lf = chunk.indexOf(LF, next);
      } else {
        end = lf;
        next = lf + 1;
        lf = chunk.indexOf(LF, next);
      }
      const emptyLf = end === s && next === end + 1 && this.pendingLen === 0;
      this.emit(chunk, s, end);
      s = next;
      if (emptyLf && chunk[s] === LF) {
        const e = lfRunEnd(chunk, s);
        this.lineNo += e - s;
        s = e;
        lf = chunk.indexOf(LF, s);
      }
      this.lineStart = base + s;
      if (this.stopped) {
        this.offset = base + s;
        return s < n ? chunk.subarray(s) : undefined;
      }
    }
    this.offset = base + n;
    if (s < n) this.hold(chunk.subarray(s));
    return undefined;
  }

  /** At the end of the stream: hands on the last line (not when the stream was cut off in it); returns the number of lines. */
  end(cutOff = false): number {
    const head = this.head;
    this.head = undefined;
    if (head?.length) this.feed(head);
    if (cutOff && !this.skipping) {
      this.pending = [];
      this.pendingLen = 0;
      this.lineNo++;
    } else this.emit(this.alloc(0), 0, 0);
    return this.lineNo;
  }

  private hold(rest: Uint8Array): void {
    this.pendingLen += rest.length;
    if (this.skipping) return;
    if (this.pendingLen > this.limit) {
      this.skipping = true;
      this.pending = [];
      return;
    }
    // A copy, so the chunk is not kept alive by its last few bytes.
    const copy = this.alloc(rest.length);
    copy.set(rest);
    this.pending.push(copy);
  }

  private emit(chunk: Uint8Array, s: number, e: number): void {
    const n = this.lineNo++;
    const length = this.pendingLen + e - s;
    if (this.pendingLen === 0) {
      if (length > this.limit) this.sink.tooLong?.(n, length);
      else this.sink.line(chunk, s, e, n, this.lineStart);
      return;
    }
    const skipped = this.skipping || length > this.limit;
    const pieces = this.pending;
    this.pending = [];
    this.pendingLen = 0;
    this.skipping = false;
    if (skipped) this.sink.tooLong?.(n, length);
    else {
      const all = concat(e > s ? [...pieces, chunk.subarray(s, e)] : pieces, this.alloc);
      this.sink.line(all, 0, all.length, n, this.lineStart);
    }
  }
}

// Eight LF bytes read as one float64: a finite non-zero number, so `===` compares the bits.
const LF8 = new Float64Array(new Uint8Array(8).fill(LF).buffer)[0];

/** End of the run of LF bytes from `i`, 8 at a time where aligned: a byte loop took 3.5 s per 256 MB. */
function lfRunEnd(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n && (b.byteOffset + i) % 8 !== 0 && b[i] === LF) i++;
  if (i + 8 <= n && b[i] === LF) {
    const words = new Float64Array(b.buffer, b.byteOffset + i, (n - i) >> 3);
    let w = 0;
    while (w < words.length && words[w] === LF8) w++;
    i += w * 8;
  }
  while (i < n && b[i] === LF) i++;
  return i;
}

function concat(parts: Uint8Array[], alloc: (length: number) => Uint8Array): Uint8Array {
  if (parts.length === 1) return parts[0];
  let len = 0;
  for (const p of parts) len += p.length;
  const out = alloc(len);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
