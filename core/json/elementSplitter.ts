/**
 * The one streaming splitter of a large JSON document into its elements: fed in pieces of any size
 * (chunks, or lines with their breaks), it walks the objects and arrays a format says to walk into
 * and hands over each value it is told to capture — an event of a Chrome `traceEvents` array, an
 * InferScope event or scope — with its text and its character offsets, never holding more than the
 * value being read (up to a cap). Values are cut by `ValueScanner`, so the cost is linear and no
 * regular expression runs; what is cut out is the format's to parse. The format (a
 * `SplitHandler`) says what each value is to it and what a character out of place means.
 */
import { isBlank, ValueScanner, type BareEnd } from './valueScanner';

/**
 * What the walker does with a value: walk into it (an object or array) under a role of the
 * format's, capture its text (up to `n` characters), or skip it; or stop reading. One shape for all,
 * made once by the format (`walk`, `capture`, SKIP, STOP), so the walker's checks stay monomorphic.
 */
export interface Step {
  readonly act: 0 | 1 | 2 | 3 | 4;
  readonly n: number;
}
const A_WALK = 0, A_CAPTURE = 1, A_SKIP = 2, A_STOP = 3, A_OFFER = 4;
export const walk = (role: number): Step => ({ act: A_WALK, n: role });
export const capture = (maxChars: number): Step => ({ act: A_CAPTURE, n: maxChars });
/**
 * Offer the value to the handler's `inPlace` first, which reads it where it stands in the piece
 * (a tokenizer that builds nothing); when it declines, the value is captured (up to `maxChars`).
 */
export const offer = (maxChars: number): Step => ({ act: A_OFFER, n: maxChars });
export const SKIP: Step = { act: A_SKIP, n: 0 };
export const STOP: Step = { act: A_STOP, n: 0 };

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

export interface SplitHandler {
  /**
   * A value begins at `at` (first character `c`) in the container walked as `role` (-1: it is the
   * root value), under `key` in an object ('' in an array).
   */
  value(role: number, key: string, c: number, at: number): Step;
  /** A value the walker was told to capture ended. */
  captured(v: Captured): void;
  /**
   * A value offered (`offer`) begins at index `i` of `piece` (offset `at`): the index just past its
   * end when the handler read it there (it must end in this piece), or -1 to have it captured.
   */
  inPlace?(piece: string, i: number, at: number): number;
  /** A key of an object walked as `role` begins at `start` (its quote)... */
  keyStart?(role: number, start: number): void;
  /** ...and ends just before `end`; `key` is its text ('' when it is not a valid string or is longer than 1024 characters). */
  key?(role: number, key: string, start: number, end: number): void;
  /** The container walked as `role` closed at `at`. */
  closed?(role: number, at: number): void;
  /** A character with no place where it stands: true to pass over it, false to stop reading. */
  unexpected(role: number, place: Place, c: number, at: number): boolean;
}

const MAX_KEY = 1024;
const enum S { Root, Key, KeyText, Colon, Value, Between, Capture, Done, Stopped }

/** The splitter as its formats use it. */
export interface ElementSplitter {
  /** Offset just past what was fed. */
  readonly offset: number;
  /** Containers open. */
  readonly depth: number;
  /** Whether the root value began, ended, or the handler stopped the reading. */
  readonly started: boolean;
  readonly finished: boolean;
  readonly stopped: boolean;
  /** Whether a value is being captured (or skipped). */
  readonly inValue: boolean;
  /** The next piece of the document. Offsets count its characters on from the pieces before. */
  feed(piece: string): void;
  /** The pieces are lines and one ended here: the line break is a character of the document. */
  lineBreak(): void;
  /** After the last piece: a value still being captured is handed over as cut. */
  end(): void;
}

export type ElementSplitterClass = new (handler: SplitHandler, bareEnd: BareEnd) => ElementSplitter;

/**
 * A splitter class of its own, for a format to make once: the code is this file's, but V8 keeps
 * what it learns of the calls to the handler per class, so each format's handler calls stay
 * monomorphic. One class shared by the Chrome stream and the InferScope reader cost the Chrome
 * split 1.2x the CPU of the splitter it had of its own before (#28).
 */
export function splitterClass(): ElementSplitterClass {
  return makeClass();
}

/** The class for formats that need none of their own (and the tests). */
export const ElementSplitter: ElementSplitterClass = makeClass();

function makeClass() {
  return class ElementSplitterImpl implements ElementSplitter {
    private s = S.Root;
    /** The roles of the containers walked into, and whether each is an array. */
    private readonly roles: number[] = [];
    private readonly arrays: boolean[] = [];
    /** Offset of the current piece's first character. */
    private pieceStart = 0;
    private key = '';
    private readonly keyEnds = new ValueScanner('token');
    private keyParts: string[] = [];
    private keySize = 0;
    private keyAt = 0;
    private keyFrom = 0;
    private readonly value: ValueScanner;
    private skipping = false;
    private cap = 0;
    private parts: string[] = [];
    private size = 0;
    private oversized = false;
    private capStart = 0;
    private capFrom = 0;
    /** Made only for a value over several lines (most are one: an event a line). */
    private lineStarts: number[] | undefined;
    private inLineBreak = false;
    /** The piece being fed (for `inPlace`). */
    private piece = '';

    constructor(private readonly handler: SplitHandler, bareEnd: BareEnd) {
      this.value = new ValueScanner(bareEnd);
    }

    /** Offset just past what was fed. */
    get offset(): number {
      return this.pieceStart;
    }

    /** Containers open. */
    get depth(): number {
      return this.roles.length;
    }

    /** Whether the root value began, ended, or the handler stopped the reading. */
    get started(): boolean {
      return this.s !== S.Root;
    }
    get finished(): boolean {
      return this.s === S.Done;
    }
    get stopped(): boolean {
      return this.s === S.Stopped;
    }

    /** Whether a value is being captured (or skipped). */
    get inValue(): boolean {
      return this.s === S.Capture;
    }

    /** The next piece of the document. Offsets count its characters on from the pieces before. */
    feed(piece: string): void {
      let i = this.pieceStart === 0 && piece.charCodeAt(0) === 0xfeff ? 1 : 0;
      const n = piece.length;
      this.capFrom = 0;
      this.keyFrom = 0;
      this.piece = piece;
      while (i < n) {
        if (this.s === S.Capture) {
          const end = this.value.scan(piece, i);
          i = end < 0 ? n : this.finish(piece, end);
        } else if (this.s === S.KeyText) {
          const end = this.keyEnds.scan(piece, i);
          i = end < 0 ? n : this.keyDone(piece, end);
        } else {
          const c = piece.charCodeAt(i);
          i = isBlank(c) ? i + 1 : this.structural(c, i);
        }
      }
      // A value or key going on into the next piece: what this one holds of it.
      if (this.s === S.Capture) this.keep(piece, this.capFrom, n);
      else if (this.s === S.KeyText) this.keyPart(piece, this.keyFrom, n);
      this.pieceStart += n;
    }

    /** The pieces are lines and one ended here: the line break is a character of the document. */
    lineBreak(): void {
      // Between values it is a blank (one event a line: most breaks); in a value or key, a character of it.
      if (this.s !== S.Capture && this.s !== S.KeyText) {
        this.pieceStart++;
        return;
      }
      this.inLineBreak = true;
      this.feed('\n');
      this.inLineBreak = false;
    }

    /** After the last piece: a value still being captured is handed over as cut. */
    end(): void {
      if (this.s !== S.Capture) return;
      this.s = S.Stopped;
      if (!this.skipping) this.handler.captured(this.capture(this.pieceStart, true));
    }

    private get role(): number {
      return this.roles.length ? this.roles[this.roles.length - 1] : -1;
    }

    private structural(c: number, i: number): number {
      const at = this.pieceStart + i;
      switch (this.s) {
        case S.Root:
          return this.begin(-1, '', c, i);
        case S.Key:
          if (c === 0x2c) return i + 1;
          if (c === 0x7d) return this.close(at, i);
          if (c === 0x22) {
            this.s = S.KeyText;
            this.keyEnds.begin(c);
            this.keyParts = [];
            this.keySize = 0;
            this.keyAt = at;
            this.keyFrom = i;
            this.handler.keyStart?.(this.role, at);
            return i;
          }
          return this.unexpected('key', c, i);
        case S.Colon:
          if (c === 0x3a) {
            this.s = S.Value;
            return i + 1;
          }
          return this.unexpected('colon', c, i);
        case S.Value:
          return this.begin(this.role, this.key, c, i);
        case S.Between:
          if (c === 0x2c) return i + 1;
          if (c === 0x5d) return this.close(at, i);
          // A closing brace would end an empty value where it stands, again and again.
          if (c === 0x7d) return this.unexpected('element', c, i);
          return this.begin(this.role, '', c, i);
        case S.Done:
          return this.unexpected('after', c, i);
        default:
          return i + 1;
      }
    }

    private unexpected(place: Place, c: number, i: number): number {
      if (this.handler.unexpected(this.role, place, c, this.pieceStart + i)) return i + 1;
      this.s = S.Stopped;
      return i + 1;
    }

    /** A value begins at `i`: walked into, captured or skipped as the handler says. */
    private begin(role: number, key: string, c: number, i: number): number {
      const step = this.handler.value(role, key, c, this.pieceStart + i);
      if (step.act === A_STOP) {
        this.s = S.Stopped;
        return i + 1;
      }
      if (step.act === A_WALK && (c === 0x7b || c === 0x5b)) {
        this.roles.push(step.n);
        this.arrays.push(c === 0x5b);
        this.s = c === 0x5b ? S.Between : S.Key;
        return i + 1;
      }
      if (step.act === A_OFFER && !this.inLineBreak) {
        const end = this.handler.inPlace!(this.piece, i, this.pieceStart + i);
        if (end >= 0) {
          this.after();
          return end;
        }
      }
      this.s = S.Capture;
      this.skipping = step.act !== A_CAPTURE && step.act !== A_OFFER;
      this.cap = step.act === A_CAPTURE || step.act === A_OFFER ? step.n : 0;
      this.value.begin(c);
      this.parts = [];
      this.size = 0;
      this.oversized = false;
      this.lineStarts = undefined;
      this.capStart = this.pieceStart + i;
      this.capFrom = i;
      return i;
    }

    private close(at: number, i: number): number {
      const role = this.roles.pop()!;
      this.arrays.pop();
      this.handler.closed?.(role, at);
      this.after();
      return i + 1;
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

    private readonly out: Captured = { text: '', start: 0, end: 0, oversized: false, cut: false, lineStarts: undefined };

    private capture(end: number, cut: boolean): Captured {
      const o = this.out;
      const parts = this.parts;
      o.text = parts.length === 1 ? parts[0] : parts.join('');
      o.start = this.capStart;
      o.end = end;
      o.oversized = this.oversized;
      o.cut = cut;
      o.lineStarts = this.lineStarts;
      this.lineStarts = undefined;
      return o;
    }

    private finish(piece: string, end: number): number {
      this.keep(piece, this.capFrom, end);
      this.after();
      if (!this.skipping) this.handler.captured(this.capture(this.pieceStart + end, false));
      return end;
    }

    private keyPart(piece: string, from: number, to: number): void {
      if (this.keySize > MAX_KEY + 2) return;
      this.keyParts.push(piece.slice(from, to));
      this.keySize += to - from;
    }

    private keyDone(piece: string, end: number): number {
      this.keyPart(piece, this.keyFrom, end);
      const raw = this.keyParts.join('');
      this.keyParts = [];
      try {
        this.key = raw.length <= MAX_KEY + 2 ? (JSON.parse(raw) as string) : '';
      } catch {
        this.key = '';
      }
      this.s = S.Colon;
      this.handler.key?.(this.role, this.key, this.keyAt, this.pieceStart + end);
      return end;
    }
  };
}
