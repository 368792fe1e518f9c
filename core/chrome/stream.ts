/**
 * A streaming splitter of Chrome Trace Event JSON into its events, fed line by line, that never
 * holds more than the event being read: the JSON object form (`{"traceEvents": [...], ...}`) and
 * the array form (`[{...}, {...}`), including a truncated array with no closing `]` and a trailing
 * `},`, as Chrome accepts them. Each event comes with its text and where it starts, so a file of one
 * line of hundreds of MB maps events to their character offsets, not to line 0. The JSON toolkit's
 * `ElementSplitter` walks the document and cuts the values; this file says which are the events and
 * the other top-level keys, and how Chrome's tolerant reading words what is out of place.
 */
import { capture, ElementSplitter, STOP, walk, type Captured, type Place, type SplitHandler, type Step } from '../json/elementSplitter';

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

/** The containers walked: the root object, the events array. */
const ROOT = 0, EVENTS = 1;
const IN_ROOT = walk(ROOT);
const IN_EVENTS = walk(EVENTS);
const EVENT = capture(MAX_EVENT_CHARS);
const TOP_VALUE = capture(MAX_TOP_VALUE);

/** The stream is the splitter's handler itself: its methods are one function for every stream, so code V8 optimizes for one file stays valid for the next. */
export class ChromeEventStream implements SplitHandler {
  form: 'object' | 'array' | undefined;
  /** Whether an events array was opened and closed. */
  private arrayOpen = false;
  arrayClosed = false;
  sawTraceEvents = false;
  /** Chrome's reading ends a bare value at a delimiter. */
  private readonly split = new ElementSplitter(this, 'delimiter');
  /** What the value being captured is: an event, or a top-level key's value (its key). */
  private capturing: 'event' | { key: string } | undefined;
  /** Offset of the first character of each line fed, and the line number of the last one. */
  private lineStart = 0;
  private lastLine = 0;
  private lastChar = 0;
  /** Line and offset of each line start since the value being captured began (offsets → positions). */
  private valueLine = 0;
  private valueLineStart = 0;
  /** Whether the reading saw text that is not valid where it stands (reported once). */
  private complained = false;

  constructor(private readonly sink: StreamSink) {}

  private fed = false;

  feed(line: string, lineNo: number): void {
    // The break that ends the line before is a character of the document (inside an event, of its text).
    if (this.fed) this.split.lineBreak();
    this.fed = true;
    this.lineStart = this.split.offset;
    this.lastLine = lineNo;
    this.lastChar = line.length;
    this.split.feed(line);
  }

  /** After the last line: whether the document ended inside the events array (truncated). */
  end(): { truncated: boolean; unfinished: boolean } {
    const truncated = this.arrayOpen && !this.arrayClosed;
    const unfinished = this.split.started && !this.split.finished && !this.split.stopped && !truncated;
    // An element cut by the end of the file: hand what there is to the sink, which reports it.
    this.split.end();
    return { truncated, unfinished };
  }

  /** SplitHandler: what each value is to a Chrome trace. */
  value(role: number, key: string, c: number, at: number): Step {
    if (role < 0) {
      if (c === 0x7b) { this.form = 'object'; return IN_ROOT; }
      if (c === 0x5b) { this.form = 'array'; this.arrayOpen = true; return IN_EVENTS; }
      this.complain('expected a JSON object with "traceEvents" or an array of events', at);
      return STOP;
    }
    this.valueLine = this.lastLine;
    this.valueLineStart = this.lineStart;
    if (role === EVENTS) {
      this.capturing = 'event';
      return EVENT;
    }
    if (key === 'traceEvents' && c === 0x5b) {
      this.sawTraceEvents = true;
      this.arrayOpen = true;
      return IN_EVENTS;
    }
    this.capturing = { key };
    return TOP_VALUE;
  }

  /** SplitHandler: an event, or a top-level key's value. */
  captured(v: Captured): void {
    const what = this.capturing;
    this.capturing = undefined;
    const character = v.start - this.valueLineStart;
    if (what === 'event') {
      this.sink.event({ text: v.text.trimEnd(), line: this.valueLine, character, lineStarts: v.lineStarts, oversized: v.oversized || undefined });
    } else if (what && !v.cut) this.sink.topKey?.(what.key, v.text, this.valueLine, character);
  }

  /** SplitHandler. */
  closed(role: number): void {
    if (role === EVENTS) this.arrayClosed = true;
  }

  /** SplitHandler: Chrome's tolerant reading, said once. */
  unexpected(role: number, place: Place, _c: number, at: number): boolean {
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
    this.sink.broken(message, this.lastLine, at - this.lineStart);
  }

  /** Where the last line fed ends (for a problem at the end of the document). */
  endPosition(): { line: number; character: number } {
    return { line: this.lastLine, character: this.lastChar };
  }
}
