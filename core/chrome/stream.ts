/**
 * A streaming splitter of Chrome Trace Event JSON into its events, fed line by line, that never
 * holds more than the event being read: the JSON object form (`{"traceEvents": [...], ...}`) and
 * the array form (`[{...}, {...}`), including a truncated array with no closing `]` and a trailing
 * `},`, as Chrome accepts them. Each event comes with its text and where it starts, so a file of one
 * line of hundreds of MB maps events to their character offsets, not to line 0. A character scan
 * with no regular expressions: values are cut by the JSON toolkit's `ValueScanner`, keys found with
 * its `stringEnd`, so the cost is linear.
 */
import { stringEnd, ValueScanner } from '../json/valueScanner';

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
  /** A top-level key of the object form other than traceEvents, with its value's text (cut at MAX_TOP_VALUE). */
  topKey?(key: string, value: string, line: number, character: number): void;
  /** Text that is not the expected JSON shape, at a position. */
  broken(message: string, line: number, character: number): void;
}

/** An event longer than this is not held: it is reported, not parsed. */
export const MAX_EVENT_CHARS = 16 << 20;
const MAX_TOP_VALUE = 1 << 20;
const MAX_KEY = 1024;

const enum S {
  /** Before the root value. */
  Root,
  /** In the root object, before a key (or ',' / '}'). */
  Key,
  /** After a key, before ':' and its value. */
  Colon,
  /** Skipping (capturing) a top-level value other than traceEvents. */
  TopValue,
  /** In the events array, between elements. */
  Between,
  /** In an element (its text is being captured). */
  Element,
  /** After the root value. */
  Done,
}

export class ChromeEventStream {
  private s = S.Root;
  form: 'object' | 'array' | undefined;
  /** Whether an events array was opened and closed. */
  private arrayOpen = false;
  arrayClosed = false;
  sawTraceEvents = false;
  /** Where the current element or top-level value ends; Chrome's reading ends a bare value at a delimiter. */
  private readonly value = new ValueScanner('delimiter');
  private parts: string[] = [];
  private size = 0;
  private lineStarts: number[] = [];
  private startLine = 0;
  private startChar = 0;
  private oversized = false;
  private key = '';
  private keyOpen = false;
  private lastLine = 0;
  private lastChar = 0;
  /** Whether the root-level/between state saw a character that is not valid there (reported once). */
  private complained = false;

  constructor(private readonly sink: StreamSink) {}

  feed(line: string, lineNo: number): void {
    this.lastLine = lineNo;
    this.lastChar = line.length;
    let i = lineNo === 0 && line.charCodeAt(0) === 0xfeff ? 1 : 0;
    // A value that goes on over a line end: the rest of it starts this line.
    if (this.s === S.Element || this.s === S.TopValue) this.startPart(line, lineNo, 0);
    while (i < line.length) {
      switch (this.s) {
        case S.Element:
        case S.TopValue:
          i = this.scanValue(line, i);
          break;
        case S.Key:
          i = this.scanKey(line, lineNo, i);
          break;
        default:
          i = this.structural(line, lineNo, i);
      }
    }
    if (this.s === S.Element || this.s === S.TopValue) this.newlineInValue();
  }

  /** After the last line: whether the document ended inside the events array (truncated). */
  end(): { truncated: boolean; unfinished: boolean } {
    // An element cut by the end of the file: hand what there is to the sink, which reports it.
    if (this.s === S.Element) this.emit();
    const truncated = this.arrayOpen && !this.arrayClosed;
    return { truncated, unfinished: this.s !== S.Done && !truncated && this.s !== S.Root };
  }

  /** Between values: whitespace, ',', the brackets of the root and of the array, a new value. */
  private structural(line: string, lineNo: number, i: number): number {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 10) return i + 1;
    switch (this.s) {
      case S.Root:
        if (c === 0x7b) { this.form = 'object'; this.s = S.Key; return i + 1; }
        if (c === 0x5b) { this.form = 'array'; this.s = S.Between; this.arrayOpen = true; return i + 1; }
        this.complain('expected a JSON object with "traceEvents" or an array of events', lineNo, i);
        this.s = S.Done;
        return line.length;
      case S.Colon:
        if (c === 0x3a) return i + 1;
        if (this.key === 'traceEvents' && c === 0x5b) {
          this.sawTraceEvents = true;
          this.arrayOpen = true;
          this.s = S.Between;
          return i + 1;
        }
        this.s = S.TopValue;
        this.begin(line, lineNo, i);
        return i;
      case S.Between:
        if (c === 0x2c) return i + 1;
        if (c === 0x5d) {
          this.arrayClosed = true;
          this.s = this.form === 'array' ? S.Done : S.Key;
          return i + 1;
        }
        if (c === 0x7d) {
          // A stray '}' between events closes nothing: skipped, said once.
          this.complain('a "}" between events closes nothing', lineNo, i);
          return i + 1;
        }
        this.s = S.Element;
        this.begin(line, lineNo, i);
        return i;
      case S.Done:
        // Text after the root value (Chrome ignores it); said once.
        this.complain('text after the end of the JSON document', lineNo, i);
        return line.length;
    }
    return i + 1;
  }

  /** In the root object: a key, ',' or the closing '}'. */
  private scanKey(line: string, lineNo: number, i: number): number {
    if (this.keyOpen) {
      const j = stringEnd(line, i);
      this.key += line.slice(i, Math.min(j < 0 ? line.length : j, i + MAX_KEY));
      if (j < 0) return line.length;
      this.keyOpen = false;
      this.s = S.Colon;
      return j + 1;
    }
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === 10 || c === 0x2c) return i + 1;
    if (c === 0x7d) { this.s = S.Done; return i + 1; }
    if (c === 0x22) { this.keyOpen = true; this.key = ''; return i + 1; }
    this.complain('expected a key of the top-level object', lineNo, i);
    this.s = S.Done;
    return line.length;
  }

  /** Inside a value: scanned to its end by the JSON toolkit's value scanner. */
  private scanValue(line: string, i: number): number {
    const end = this.value.scan(line, i);
    if (end < 0) return line.length;
    this.finishValue(line, end);
    return end;
  }

  private begin(line: string, lineNo: number, i: number): void {
    this.value.begin(line.charCodeAt(i));
    this.parts = [];
    this.size = 0;
    this.lineStarts = [];
    this.oversized = false;
    this.startLine = lineNo;
    this.startChar = i;
    this.partFrom = i;
    this.partLine = line;
  }

  private partFrom = 0;
  private partLine = '';

  private startPart(line: string, _lineNo: number, i: number): void {
    this.partFrom = i;
    this.partLine = line;
  }

  private keep(piece: string): void {
    const cap = this.s === S.TopValue ? MAX_TOP_VALUE : MAX_EVENT_CHARS;
    if (this.size + piece.length > cap) {
      this.oversized = true;
      piece = piece.slice(0, Math.max(0, cap - this.size));
    }
    if (piece) this.parts.push(piece);
    this.size += piece.length;
  }

  private newlineInValue(): void {
    this.value.lineBreak();
    this.keep(this.partLine.slice(this.partFrom));
    if (!this.oversized) {
      this.keep('\n');
      this.lineStarts.push(this.size);
    }
  }

  private finishValue(line: string, end: number): void {
    this.keep(line.slice(this.partFrom, end));
    if (this.s === S.TopValue) {
      this.sink.topKey?.(this.key, this.parts.join(''), this.startLine, this.startChar);
      this.s = S.Key;
    } else {
      this.emit();
      this.s = S.Between;
    }
    this.parts = [];
  }

  private emit(): void {
    const text = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.sink.event({
      text: text.trimEnd(), line: this.startLine, character: this.startChar,
      lineStarts: this.lineStarts.length ? this.lineStarts : undefined, oversized: this.oversized || undefined,
    });
    this.parts = [];
  }

  private complain(message: string, line: number, character: number): void {
    if (this.complained) return;
    this.complained = true;
    this.sink.broken(message, line, character);
  }

  /** Where the last line fed ends (for a problem at the end of the document). */
  endPosition(): { line: number; character: number } {
    return { line: this.lastLine, character: this.lastChar };
  }
}
