/**
 * The one streaming splitter of a large JSON document into its elements: fed in pieces of any size
 * (chunks, or lines with their breaks), it walks the objects and arrays a format says to walk into
 * and hands over each value it is told to capture — an event of a Chrome `traceEvents` array, an
 * InferScope event or scope — with its text and its character offsets, never holding more than the
 * value being read (up to a cap). Values are cut by `ValueScanner`, so the cost is linear and no
 * regular expression runs; what is cut out is the format's to parse.
 *
 * It is pulled, not pushed: the format's reader calls `next()` until it says `MORE`, and answers
 * each `VALUE` (walk into it, capture it, skip it, read it in place, stop). The splitter calls no
 * code of a format's. Why: V8 keeps one set of type feedback per function literal, shared by every
 * class a factory makes, so a splitter calling its handlers saw the Chrome stream's and the
 * InferScope reader's in one call site, and the Chrome split took 1.1–1.25× the CPU of the
 * hand-written splitter it replaced whenever both formats had run in the process (#28, alternated
 * runs; a copy of the file for one format measured 1.01×). Each format's loop over `next()` is its
 * own code, so its calls stay monomorphic.
 */
import { isBlank, ValueScanner, type BareEnd } from './valueScanner';

/** What `next()` stopped at. */
export const MORE = 0, VALUE = 1, CAPTURED = 2, KEY_START = 3, KEY = 4, CLOSED = 5, UNEXPECTED = 6;
export type Stop = typeof MORE | typeof VALUE | typeof CAPTURED | typeof KEY_START | typeof KEY | typeof CLOSED | typeof UNEXPECTED;

/** A captured value: one object, filled again for each value (keep what is needed of it, not it). */
export interface Captured {
  text: string;
  /** Offsets of the value's first character and just past its last. */
  start: number;
  end: number;
  /** Longer than the cap: `text` is its start only. */
  oversized: boolean;
  /** The document ended inside the value. */
  cut: boolean;
  /** Offsets in `text` where the value's 2nd, 3rd... lines start, when fed by lines (absent: one line). */
  lineStarts: number[] | undefined;
}

/** Where the walker was when it met a character with no place there. */
export type Place = 'key' | 'colon' | 'element' | 'after';

const MAX_KEY = 1024;
const enum S { Root, Key, KeyText, Colon, Value, Between, Capture, Pending, Done, Stopped }

export class ElementSplitter {
  private s = S.Root;
  /** The roles of the containers walked into, and whether each is an array. */
  private readonly roles: number[] = [];
  private readonly arrays: boolean[] = [];
  /** The piece being fed, where `next()` goes on in it, and the offset of its first character. */
  private piece = '';
  private i = 0;
  private pieceStart = 0;
  /** Whether the end of the piece was met (what it holds of a value kept, its length counted). */
  private pieceDone = true;
  private key = '';
  private readonly keyEnds = new ValueScanner('token');
  private keyParts: string[] = [];
  private keySize = 0;
  private keyFrom = 0;
  private readonly value: ValueScanner;
  private skipping = false;
  private cap = 0;
  /** What the pieces before held of the value being captured, and its length so far. */
  private readonly parts: string[] = [];
  private size = 0;
  private oversized = false;
  private capStart = 0;
  private capFrom = 0;
  /** Made only for a value over several lines (most are one: an event a line). */
  private lineStarts: number[] | undefined;
  private inLineBreak = false;
  /** The state an `UNEXPECTED` stopped, restored by `pass()`. */
  private resume = S.Root;

  // What `next()` stopped at, read by the format before it calls `next()` again.
  /** VALUE, KEY_START, KEY, CLOSED, UNEXPECTED: the role of the container (-1: the value is the root). */
  role = -1;
  /** VALUE in an object, KEY: the key ('' in an array, or when it is not a valid string or longer than 1024 characters). */
  name = '';
  /** VALUE, UNEXPECTED: the character. */
  c = 0;
  /** VALUE, KEY_START, CLOSED, UNEXPECTED: its offset; KEY: where the key begins (its quote). */
  at = 0;
  /** KEY: the offset just past the key's closing quote. */
  keyEnd = 0;
  /** VALUE: its index in `piece` (for a format that reads it in place). */
  index = 0;
  /** UNEXPECTED: where the walker was. */
  place: Place = 'after';
  /** CAPTURED (and after `end()`): the value; one object, filled again for each. */
  readonly out: Captured = { text: '', start: 0, end: 0, oversized: false, cut: false, lineStarts: undefined };

  constructor(bareEnd: BareEnd) {
    this.value = new ValueScanner(bareEnd);
  }

  /** Offset just past what was fed. */
  get offset(): number {
    return this.pieceStart + (this.pieceDone ? 0 : this.piece.length);
  }

  /** Containers open. */
  get depth(): number {
    return this.roles.length;
  }

  /** Whether the root value began, ended, or the reading was stopped. */
  get started(): boolean {
    return this.s !== S.Root;
  }
  get finished(): boolean {
    return this.s === S.Done;
  }
  get stopped(): boolean {
    return this.s === S.Stopped;
  }

  /**
   * Whether the reading stands between two elements of an array whose role is `role`, nothing of a
   * value pending: text from here on may be read by another splitter that walked into such an array.
   */
  betweenIn(role: number): boolean {
    return this.s === S.Between && this.top() === role;
  }

  /** Whether a value is being captured (or skipped). */
  get inValue(): boolean {
    return this.s === S.Capture;
  }

  /** The piece being fed (for a format that reads a VALUE in place). */
  get text(): string {
    return this.piece;
  }

  /**
   * The next piece of the document; `next()` then reads it. Offsets count its characters on from
   * the pieces before.
   */
  feed(piece: string): void {
    this.finishPiece();
    this.piece = piece;
    this.i = this.pieceStart === 0 && piece.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.pieceDone = false;
    this.capFrom = 0;
    this.keyFrom = 0;
  }

  /**
   * The pieces are lines and one ended here: the line break is a character of the document. True
   * when it is a piece of its own for `next()` to read (it stands in a value or a key).
   */
  lineBreak(): boolean {
    // Between values it is a blank (one event a line: most breaks); in a value or key, a character of it.
    if (this.s !== S.Capture && this.s !== S.KeyText) {
      this.finishPiece();
      this.pieceStart++;
      return false;
    }
    this.feed('\n');
    this.inLineBreak = true;
    return true;
  }

  /** Reads on to the next thing the format is told of, or to the end of the piece (MORE). */
  next(): Stop {
    if (this.s === S.Pending) this.skip();
    const piece = this.piece;
    const n = piece.length;
    let i = this.i;
    while (i < n) {
      const s = this.s;
      if (s === S.Capture) {
        const end = this.value.scan(piece, i);
        if (end < 0) break;
        this.after();
        this.i = end;
        if (this.skipping) {
          i = end;
          continue;
        }
        this.captured(piece, end);
        return CAPTURED;
      }
      if (s === S.KeyText) {
        const end = this.keyEnds.scan(piece, i);
        if (end < 0) break;
        this.keyDone(piece, end);
        this.i = end;
        return KEY;
      }
      const c = piece.charCodeAt(i);
      if (isBlank(c)) {
        i++;
        continue;
      }
      switch (s) {
        case S.Root:
          return this.pend(-1, '', c, i);
        case S.Key:
          if (c === 0x2c) {
            i++;
            continue;
          }
          if (c === 0x7d) return this.close(i);
          if (c === 0x22) {
            this.s = S.KeyText;
            this.keyEnds.begin(c);
            this.keyParts = [];
            this.keySize = 0;
            this.keyFrom = i;
            this.role = this.top();
            this.at = this.pieceStart + i;
            this.i = i;
            return KEY_START;
          }
          return this.unexpected('key', c, i);
        case S.Colon:
          if (c === 0x3a) {
            this.s = S.Value;
            i++;
            continue;
          }
          return this.unexpected('colon', c, i);
        case S.Value:
          return this.pend(this.top(), this.key, c, i);
        case S.Between:
          if (c === 0x2c) {
            i++;
            continue;
          }
          if (c === 0x5d) return this.close(i);
          // A closing brace would end an empty value where it stands, again and again.
          if (c === 0x7d) return this.unexpected('element', c, i);
          return this.pend(this.top(), '', c, i);
        case S.Done:
          return this.unexpected('after', c, i);
        default:
          // Stopped: nothing more is read.
          i = n;
      }
    }
    this.i = n;
    this.finishPiece();
    return MORE;
  }

  /** VALUE: walk into it (an object or an array) as `role`; any other value is skipped. */
  walk(role: number): void {
    const c = this.c;
    if (c !== 0x7b && c !== 0x5b) return this.skip();
    this.roles.push(role);
    this.arrays.push(c === 0x5b);
    this.s = c === 0x5b ? S.Between : S.Key;
    this.i = this.index + 1;
  }

  /** VALUE: capture its text, up to `maxChars` characters (CAPTURED when it ends). */
  capture(maxChars: number): void {
    this.begin(false, maxChars);
  }

  /** VALUE: pass over it. */
  skip(): void {
    this.begin(true, 0);
  }

  /** VALUE: the format read it where it stands in `text`, up to index `end` (in this piece). */
  readTo(end: number): void {
    this.after();
    this.i = end;
  }

  /** VALUE, UNEXPECTED: nothing more is read. */
  stop(): void {
    this.s = S.Stopped;
  }

  /** UNEXPECTED: go on past the character (the default is to stop). */
  pass(): void {
    this.s = this.resume;
  }

  /** After the last piece: whether a value was being captured, now in `out` as cut. */
  end(): boolean {
    this.finishPiece();
    if (this.s !== S.Capture) return false;
    this.s = S.Stopped;
    if (this.skipping) return false;
    this.fill(this.pieceStart, true);
    return true;
  }

  private top(): number {
    return this.roles.length ? this.roles[this.roles.length - 1] : -1;
  }

  /** What the piece holds of a value or key going on into the next piece; its length counted. */
  private finishPiece(): void {
    if (this.pieceDone) return;
    this.pieceDone = true;
    const n = this.piece.length;
    if (this.s === S.Capture) this.keep(this.piece, this.capFrom, n);
    else if (this.s === S.KeyText) this.keyPart(this.piece, this.keyFrom, n);
    this.pieceStart += n;
    this.inLineBreak = false;
  }

  private pend(role: number, key: string, c: number, i: number): Stop {
    this.s = S.Pending;
    this.role = role;
    this.name = key;
    this.c = c;
    this.at = this.pieceStart + i;
    this.index = i;
    this.i = i;
    return VALUE;
  }

  private unexpected(place: Place, c: number, i: number): Stop {
    this.resume = this.s;
    this.s = S.Stopped;
    this.role = this.top();
    this.place = place;
    this.c = c;
    this.at = this.pieceStart + i;
    this.i = i + 1;
    return UNEXPECTED;
  }

  /** The value pending at `index` is read (captured, or skipped when `skipping`). */
  private begin(skipping: boolean, cap: number): void {
    const i = this.index;
    this.s = S.Capture;
    this.skipping = skipping;
    this.cap = cap;
    this.value.begin(this.c);
    if (this.parts.length) this.parts.length = 0;
    this.size = 0;
    this.oversized = false;
    this.lineStarts = undefined;
    this.capStart = this.pieceStart + i;
    this.capFrom = i;
    this.i = i;
  }

  private close(i: number): Stop {
    this.role = this.roles.pop()!;
    this.arrays.pop();
    this.at = this.pieceStart + i;
    this.after();
    this.i = i + 1;
    return CLOSED;
  }

  /** After a value: the container it stands in goes on, or the document has ended. */
  private after(): void {
    this.s = !this.arrays.length ? S.Done : this.arrays[this.arrays.length - 1] ? S.Between : S.Key;
  }

  private keep(piece: string, from: number, to: number): void {
    if (this.skipping) return;
    if (!this.oversized && to > from) {
      let text = from === 0 && to === piece.length ? piece : piece.slice(from, to);
      if (this.size + text.length > this.cap) {
        this.oversized = true;
        text = text.slice(0, Math.max(0, this.cap - this.size));
      }
      if (text) this.parts.push(text);
      this.size += text.length;
    }
    if (this.inLineBreak && to > from && !this.oversized) (this.lineStarts ??= []).push(this.size);
  }

  /** The value being captured ended at index `end` of `piece`: `out` is filled. */
  private captured(piece: string, end: number): void {
    const from = this.capFrom;
    const o = this.out;
    // Most values begin and end in one piece: their text is one slice.
    if (this.size === 0 && !this.oversized) {
      const over = end - from > this.cap;
      o.text = piece.slice(from, over ? from + this.cap : end);
      o.start = this.capStart;
      o.end = this.pieceStart + end;
      o.oversized = over;
      o.cut = false;
      o.lineStarts = undefined;
      return;
    }
    this.keep(piece, from, end);
    this.fill(this.pieceStart + end, false);
  }

  private fill(end: number, cut: boolean): void {
    const o = this.out;
    const parts = this.parts;
    o.text = parts.length === 1 ? parts[0] : parts.join('');
    parts.length = 0;
    o.start = this.capStart;
    o.end = end;
    o.oversized = this.oversized;
    o.cut = cut;
    o.lineStarts = this.lineStarts;
    this.lineStarts = undefined;
  }

  private keyPart(piece: string, from: number, to: number): void {
    if (this.keySize > MAX_KEY + 2) return;
    this.keyParts.push(piece.slice(from, to));
    this.keySize += to - from;
  }

  private keyDone(piece: string, end: number): void {
    this.keyPart(piece, this.keyFrom, end);
    const raw = this.keyParts.join('');
    this.keyParts = [];
    try {
      this.key = raw.length <= MAX_KEY + 2 ? (JSON.parse(raw) as string) : '';
    } catch {
      this.key = '';
    }
    this.s = S.Colon;
    this.role = this.top();
    this.name = this.key;
    this.keyEnd = this.pieceStart + end;
  }
}
