/**
 * A streaming splitter of Chrome Trace Event JSON into its events, fed line by line, that never
 * holds more than the event being read: the JSON object form (`{"traceEvents": [...], ...}`) and
 * the array form (`[{...}, {...}`), including a truncated array with no closing `]` and a trailing
 * `},`, as Chrome accepts them. Each event comes with its text and where it starts, so a file of one
 * line of hundreds of MB maps events to their character offsets, not to line 0. The JSON toolkit's
 * `ElementSplitter` walks the document and cuts the values; this file says which are the events and
 * the other top-level keys, and how Chrome's tolerant reading words what is out of place.
 */
import { CAPTURED, CLOSED, ElementSplitter, MORE, UNEXPECTED, VALUE, type Captured, type Place } from '../json/elementSplitter';
import { LineCursor } from '../json/lineCursor';

export interface RawEvent {
  /** The event's JSON text (several lines joined with '\n'). */
  text: string;
  line: number;
  character: number;
  /** Offsets in `text` where the event's 2nd, 3rd... lines start (absent: one line). */
  lineStarts?: number[];
  /** Cut at MAX_EVENT_CHARS: `text` is its start only. */
  oversized?: boolean;
}

export interface StreamSink {
  event(e: RawEvent): void;
  /**
   * Text fed in pieces (`feedText`): an event whose `{` is at index `i` of `text`, offered to be
   * read where it stands, not past `limit`; the index just past it when the sink read it, or -1 to
   * have it handed to `event` as a RawEvent. `text[k]` is at offset `k + base` of the document
   * (`position` maps an offset to its line and character).
   */
  inPlace?(text: string, i: number, limit: number, base: number): number;
  /** A top-level key of the object form other than traceEvents, with its value's text (cut at MAX_TOP_VALUE). */
  topKey?(key: string, value: string, line: number, character: number): void;
  /** Text that is not the expected JSON shape, at a position. */
  broken(message: string, line: number, character: number): void;
}

/** An event longer than this is not held: it is reported, not parsed. */
export const MAX_EVENT_CHARS = 16 << 20;
const MAX_TOP_VALUE = 1 << 20;

/** The containers walked: the root object, the events array. */
const ROOT = 0, EVENTS = 1;

/** Reads what the splitter (json/elementSplitter.ts) finds, in a loop of its own (`drain`). */
export class ChromeEventStream {
  form: 'object' | 'array' | undefined;
  /** Whether an events array was opened and closed. */
  private arrayOpen = false;
  arrayClosed = false;
  sawTraceEvents = false;
  /** Chrome's reading ends a bare value at a delimiter. */
  private readonly split = new ElementSplitter('delimiter');
  /** What the value being captured is: an event, or a top-level key's value (its key). */
  private capturing: 'event' | { key: string } | undefined;
  /** Offset of the first character of each line fed, and the line number of the last one. */
  private lineStart = 0;
  private lastLine = 0;
  private lastChar = 0;
  /** Where the value being captured begins. */
  private valueLine = 0;
  private valueChar = 0;
  /**
   * Text fed in pieces (`feedText`), not lines: what tells offsets' lines, and the piece held back
   * until the next one comes (a cut .gz drops what follows its last line break, as a line reader
   * drops the cut line).
   */
  private cursor: LineCursor | undefined;
  private held: string | undefined;
  private paddedOf = '';
  private padded = '';
  /** Whether the reading saw text that is not valid where it stands (reported once). */
  private complained = false;

  constructor(private readonly sink: StreamSink) {}

  private fed = false;

  feed(line: string, lineNo: number): void {
    // The break that ends the line before is a character of the document (inside an event, of its text).
    if (this.fed && this.split.lineBreak()) this.drain();
    this.fed = true;
    this.lineStart = this.split.offset;
    this.lastLine = lineNo;
    this.lastChar = line.length;
    this.split.feed(line);
    this.drain();
  }

  /**
   * The next piece of the document, of any size, line breaks included: the way for large files,
   * where events the sink reads in place (`inPlace`) are never copied. Not mixed with `feed`.
   */
  feedText(piece: string): void {
    this.cursor ??= new LineCursor();
    if (this.held !== undefined) this.feedPiece(this.held);
    this.held = piece;
  }

  /**
   * After the last piece (before `end`). `cutOff`: the text was cut (a truncated .gz), so the
   * line it was cut in is not read, as the line readers leave it out; a cut line longer than a
   * piece is read as far as it goes.
   */
  endText(cutOff = false): void {
    const t = this.held;
    this.held = undefined;
    if (t === undefined) return;
    let k = cutOff ? Math.max(t.lastIndexOf('\n'), t.lastIndexOf('\r')) : -1;
    if (k > 0 && t.charCodeAt(k) === 10 && t.charCodeAt(k - 1) === 13) k--;
    // Cut in its first line: nothing is read.
    if (cutOff && k < 0 && this.split.offset === 0) return;
    this.feedPiece(k >= 0 ? t.slice(0, k) : t);
  }

  private feedPiece(piece: string): void {
    this.cursor!.piece(piece);
    this.split.feed(piece);
    this.drain();
  }

  /**
   * What the splitter finds in the piece fed, to its end. The InferScope reader has a loop like it:
   * each format's must be code of its own (json/elementSplitter.ts says why).
   */
  private drain(): void {
    const sp = this.split;
    for (let what = sp.next(); what !== MORE; what = sp.next()) {
      switch (what) {
        case CAPTURED:
          this.captured(sp.out);
          break;
        case VALUE:
          this.value(sp);
          break;
        case CLOSED:
          if (sp.role === EVENTS) this.arrayClosed = true;
          break;
        case UNEXPECTED:
          if (this.unexpected(sp.role, sp.place, sp.at)) sp.pass();
      }
    }
  }

  /** Line and character of an offset of the text fed in pieces (offsets asked in increasing order). */
  position(at: number): { line: number; character: number } {
    return this.cursor ? this.cursor.position(at) : { line: this.lastLine, character: at - this.lineStart };
  }

  /**
   * After `endText`: the form of the document when the text read ends between two events of its
   * events array (a reader of the text after it that starts with `PART_PREFIX[form]` is where this
   * one is), else undefined.
   */
  atEventBoundary(): 'object' | 'array' | undefined {
    if (this.held !== undefined || !this.split.betweenIn(EVENTS)) return undefined;
    const d = this.split.depth;
    return this.form === 'object' && d === 2 ? 'object' : this.form === 'array' && d === 1 ? 'array' : undefined;
  }

  /** Whether a problem with the structure was said (it is said once). */
  get hasComplained(): boolean {
    return this.complained;
  }

  /** After the last piece of a part read on its own (`end` is called on the whole document's reader). */
  splitterEnd(): { started: boolean; finished: boolean; stopped: boolean } {
    return { started: this.split.started, finished: this.split.finished, stopped: this.split.stopped };
  }

  /**
   * After the last line: whether the document ended inside the events array (truncated).
   * `closedElsewhere`: a part of the document read by another reader closed an events array.
   */
  end(closedElsewhere = false): { truncated: boolean; unfinished: boolean } {
    const truncated = this.arrayOpen && !this.arrayClosed && !closedElsewhere;
    const unfinished = this.split.started && !this.split.finished && !this.split.stopped && !truncated;
    // An element cut by the end of the file: hand what there is to the sink, which reports it.
    if (this.split.end()) this.captured(this.split.out);
    return { truncated, unfinished };
  }

  /** What each value is to a Chrome trace: the splitter is told what to do with it. */
  private value(sp: ElementSplitter): void {
    const c = sp.c;
    const at = sp.at;
    if (sp.role < 0) {
      if (c === 0x7b) {
        this.form = 'object';
        return sp.walk(ROOT);
      }
      if (c === 0x5b) {
        this.form = 'array';
        this.arrayOpen = true;
        return sp.walk(EVENTS);
      }
      this.complain('expected a JSON object with "traceEvents" or an array of events', at);
      return sp.stop();
    }
    if (sp.role === EVENTS) {
      this.capturing = 'event';
      // Read where it stands when the sink can; where it begins is found only when it is not.
      if (c === 0x7b && this.cursor && this.sink.inPlace) {
        const end = this.inPlace(sp.text, sp.index, at);
        if (end >= 0) return sp.readTo(end);
      } else this.mark(at);
      return sp.capture(MAX_EVENT_CHARS);
    }
    this.mark(at);
    if (sp.name === 'traceEvents' && c === 0x5b) {
      this.sawTraceEvents = true;
      this.arrayOpen = true;
      return sp.walk(EVENTS);
    }
    this.capturing = { key: sp.name };
    sp.capture(MAX_TOP_VALUE);
  }

  private mark(at: number): void {
    // Fed lines: the value is on the last line (no position object per event).
    if (!this.cursor) {
      this.valueLine = this.lastLine;
      this.valueChar = at - this.lineStart;
      return;
    }
    const p = this.cursor.position(at);
    this.valueLine = p.line;
    this.valueChar = p.character;
  }

  /** An event offered to the sink, read where it stands (the index past it) or declined (-1). */
  private inPlace(piece: string, i: number, at: number): number {
    // The piece with a character after it that ends every run the tokenizer reads (blanks, digits,
    // a literal) and is JSON nowhere: a read past the end of a string makes V8 drop the optimized
    // tokenizer, and an event cut by the piece's end did so once a piece, a cold check twice as slow.
    if (piece !== this.paddedOf) {
      this.paddedOf = piece;
      // Joined, not concatenated: `${piece}#` is a cons string, and each character read goes
      // through it to the flat copy; a joined string is flat (the timeline's reading of the
      // Kineto trace took a fifth more CPU on the cons string, alternated runs).
      this.padded = [piece, '#'].join('');
    }
    const end = this.sink.inPlace!(this.padded, i, Math.min(piece.length, i + MAX_EVENT_CHARS), at - i);
    if (end < 0) this.mark(at);
    return end;
  }

  /** An event, or a top-level key's value. */
  private captured(v: Captured): void {
    const what = this.capturing;
    this.capturing = undefined;
    let text = v.text;
    let lineStarts = v.lineStarts;
    // Read in pieces, the text holds the document's line breaks: each becomes '\n', as lines joined.
    if (this.cursor) [text, lineStarts] = joinedLines(text);
    if (what === 'event') {
      this.sink.event({ text: text.trimEnd(), line: this.valueLine, character: this.valueChar, lineStarts, oversized: v.oversized || undefined });
    } else if (what && !v.cut) this.sink.topKey?.(what.key, text, this.valueLine, this.valueChar);
  }

  /** A character out of place, in Chrome's tolerant reading, said once: whether to pass over it. */
  private unexpected(role: number, place: Place, at: number): boolean {
    if (place === 'after') this.complain('text after the end of the JSON document', at);
    // A stray '}' between events closes nothing: skipped, said once.
    else if (role === EVENTS) {
      this.complain('a "}" between events closes nothing', at);
      return true;
    } else this.complain(place === 'colon' ? 'expected ":" after a key of the top-level object' : 'expected a key of the top-level object', at);
    return false;
  }

  private complain(message: string, at: number): void {
    if (this.complained) return;
    this.complained = true;
    const p = this.position(at);
    this.sink.broken(message, p.line, p.character);
  }

  /** Where the last line fed ends (for a problem at the end of the document). */
  endPosition(): { line: number; character: number } {
    return this.cursor ? this.cursor.position(this.split.offset) : { line: this.lastLine, character: this.lastChar };
  }
}

// Linear: one way to match each character.
const BREAK = /\r\n?/g;

/** A value's text with its line breaks as '\n', and where its 2nd, 3rd... lines start (as `Captured.lineStarts`). */
function joinedLines(text: string): [string, number[] | undefined] {
  if (text.indexOf('\r') >= 0) text = text.replace(BREAK, '\n');
  let starts: number[] | undefined;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) (starts ??= []).push(k + 1);
  return [text, starts];
}
