import { ChromeEventStream, type RawEvent } from './stream';

export interface ReaderSink {
  /** An event that parsed to a JSON object. */
  event(o: Record<string, unknown>, raw: RawEvent): void;
  /** An element that did not parse or is not an object, a cut-off event, broken structure. */
  bad?(kind: 'invalid-json' | 'not-object' | 'too-large', raw: RawEvent, message: string): void;
  broken?(message: string, line: number, character: number): void;
  topKey?(key: string, value: string, line: number, character: number): void;
  /** Text fed in pieces: an event offered to be read in place (`StreamSink.inPlace`). */
  inPlace?(text: string, i: number, limit: number, base: number): number;
}

/** The event stream with each element parsed (one `JSON.parse` per event, never of the whole text). */
export class ChromeReader {
  readonly stream: ChromeEventStream;

  constructor(private readonly sink: ReaderSink) {
    this.stream = new ChromeEventStream({
      event: (raw) => this.element(raw),
      broken: (m, l, c) => sink.broken?.(m, l, c),
      topKey: (k, v, l, c) => sink.topKey?.(k, v, l, c),
      inPlace: sink.inPlace && ((t, i, limit, base) => sink.inPlace!(t, i, limit, base)),
    });
  }

  addLine(text: string, lineNo: number): void {
    this.stream.feed(text, lineNo);
  }

  /** The document in pieces of any size instead of lines (see `ChromeEventStream.feedText`). */
  addText(piece: string): void {
    this.stream.feedText(piece);
  }

  endText(cutOff = false): void {
    this.stream.endText(cutOff);
  }

  private element(raw: RawEvent): void {
    if (raw.oversized) {
      this.sink.bad?.('too-large', raw, 'event is too large to read');
      return;
    }
    let o: unknown;
    try {
      o = JSON.parse(raw.text);
    } catch (e) {
      this.sink.bad?.('invalid-json', raw, e instanceof Error ? e.message : String(e));
      return;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      this.sink.bad?.('not-object', raw, Array.isArray(o) ? 'an array' : o === null ? 'null' : `a ${typeof o}`);
      return;
    }
    // An empty object is nothing: XLA's trace writer (JAX's perfetto_trace.json.gz) ends its events
    // with `{}`, which Chrome and Perfetto skip.
    if (isEmpty(o)) return;
    this.sink.event(o as Record<string, unknown>, raw);
  }
}

function isEmpty(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}
