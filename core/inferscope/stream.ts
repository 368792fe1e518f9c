/**
 * Reads an InferScope trace fed in chunks of any size, for files larger than one V8 string
 * (≈ 512 MB): it never holds more than the element being read. The JSON toolkit's
 * `ElementSplitter` walks the document and cuts the values, `ChunkLines` counts lines; this file
 * says which values are what in the structure the trace has — the root object, its `events` array,
 * `relationships` and its `scopes` array — and hands each event and scope to JSON.parse on its own.
 * What it keeps of each is what the timeline and the analysis read (`slimEvent`, `slimScope`): a
 * million events fit. Offsets are characters from the start of the stream; each element also gets
 * its line.
 */
import { kindOfChar } from '../json/jsoncParser';
import { ChunkLines } from '../json/chunkLines';
import { CAPTURED, CLOSED, ElementSplitter, KEY, KEY_START, MORE, UNEXPECTED, VALUE, type Captured } from '../json/elementSplitter';
import { EventColumns, PositionColumns } from './columns';
import { KEPT_FIELDS, slimEvent, slimScope, type KeptFields } from './keptFields';
import type { Element, ParsedInferscope, SyntaxProblem, TopField } from './model';

/** An element longer than this is not parsed: it is reported broken. */
export const MAX_STREAM_ELEMENT = 16 << 20;
/** A top-level value other than events/relationships is kept up to this; a longer one is dropped. */
const MAX_FIELD = 1 << 20;

/** The containers walked. */
const enum Role { Root, Events, Rel, Scopes }
const enum Cap { Event, Scope, Field }

/**
 * Takes the events as they are read, instead of the columns (a streamed check past the first
 * events: `streamCheck.ts`). An event it takes has its whole parsed object as `obj`, or none when
 * it is broken or not an object, and is counted but not kept.
 */
export interface EventSink {
  take(e: Element): void;
}

/** Reads what the splitter (json/elementSplitter.ts) finds, in a loop of its own (`drain`). */
export class InferscopeStream {
  /** Lines of the chunks, counted as far as positions are asked for. */
  private readonly chunkLines = new ChunkLines();
  /** Characters before the current chunk. */
  private base = 0;
  /** Line and character of offsets the checks report at: element starts, top-level keys, problems. */
  readonly positions = new PositionColumns();
  /** Where a bare value ends: at its token's end, as JSON.parse reads it. */
  private readonly split = new ElementSplitter('token');
  private lastKeyStart = 0;
  private lastKeyEnd = 0;
  /** What the value being captured is; its key for a field. */
  private cap: Cap | undefined;
  private capKey = '';
  private capLine = 0;
  private readonly shared = new Map<string, string>();
  /** The events, column-wise (`columns.ts`); `parsed.events` reads them. */
  private readonly columns = new EventColumns();
  readonly parsed: ParsedInferscope = {
    text: '', lineStarts: [0], rootKind: undefined, rootSpan: { start: 0, end: 0 }, fields: new Map(),
    events: this.columns.asArray(), scopesKey: undefined, scopesKind: undefined, scopes: [], syntax: [],
  };

  /** Set (`handTo`): the events from now on go to it, not to the columns. */
  private sink: EventSink | undefined;

  /**
   * `withPositions`: remember every element's line and character (for `check`; the timeline needs
   * only lines). `fields`: what is kept of each event; each field left out is a column not held.
   */
  constructor(private readonly withPositions = false, private readonly fields: KeptFields = KEPT_FIELDS) {}

  /** From now on the events go to `sink`, not to the columns; those read so far are handed to it first. */
  handTo(sink: EventSink): void {
    const events = this.parsed.events;
    for (let i = 0; i < events.length; i++) sink.take(events[i]);
    this.sink = sink;
  }

  feed(chunk: string): void {
    this.chunkLines.next(chunk);
    this.split.feed(chunk);
    this.drain();
    this.chunkLines.end();
    this.base += chunk.length;
  }

  /** Lines read so far (line breaks + 1), as an editor counts them in an LF file. */
  get lines(): number {
    return this.chunkLines.lines + 1;
  }

  /** After the last chunk: a cut element is broken, an unclosed array or object a syntax problem. */
  end(): ParsedInferscope {
    const at = this.base;
    this.positions.set(at, this.chunkLines.lines, this.chunkLines.lastCharacter);
    const sp = this.split;
    if (sp.inValue) {
      // A cut element is handed over (`captured`) as broken.
      if (sp.end()) this.captured(sp.out);
      this.cap = undefined;
      this.problem(at, 'Unexpected end of file inside a value');
    } else if (sp.started && !sp.finished && !sp.stopped) this.problem(at, `Unexpected end of file: ${sp.depth} unclosed array(s) or object(s)`);
    return this.parsed;
  }

  /** Remembers where offset `at` (in the current chunk) is, for the checks' positions. */
  private mark(at: number): void {
    const i = at - this.base;
    this.positions.set(at, this.chunkLines.lineAt(i), this.chunkLines.characterAt(i));
  }

  private problem(at: number, message: string): void {
    if (this.parsed.syntax.length < 100) this.parsed.syntax.push({ start: at, end: at, message } satisfies SyntaxProblem);
  }

  /** What the splitter finds in the chunk fed, to its end: a loop of this format's own (json/elementSplitter.ts says why). */
  private drain(): void {
    const sp = this.split;
    for (;;) {
      const what = sp.next();
      if (what === MORE) return;
      if (what === CAPTURED) this.captured(sp.out);
      else if (what === VALUE) this.value(sp);
      else if (what === KEY_START) {
        // A key of the root or of relationships: its position is kept.
        if (sp.role === Role.Root || sp.role === Role.Rel) this.mark(sp.at);
      } else if (what === KEY) {
        this.lastKeyStart = sp.at;
        this.lastKeyEnd = sp.keyEnd;
      } else if (what === CLOSED) this.closed(sp.role, sp.at);
      else if (what === UNEXPECTED) {
        // A character with no place: a syntax problem, and the reading stops.
        this.mark(sp.at);
        this.problem(sp.at, `Unexpected character ${JSON.stringify(String.fromCharCode(sp.c))}`);
      }
    }
  }

  /** What each value is in an InferScope trace: the splitter is told what to do with it. */
  private value(sp: ElementSplitter): void {
    const { role, name: key, c, at } = sp;
    if (role < 0) {
      this.parsed.rootKind = kindOfChar(c);
      this.parsed.rootSpan = { start: at, end: at + 1 };
      if (c === 0x7b) return sp.walk(Role.Root);
      this.problem(at, 'An InferScope trace read streamed must be a JSON object');
      return sp.stop();
    }
    if (role === Role.Events || role === Role.Scopes) return this.begin(sp, role === Role.Events ? Cap.Event : Cap.Scope, key, at);
    if (role === Role.Root) {
      const field: TopField = { key, keyStart: this.lastKeyStart, keyEnd: this.lastKeyEnd, valueStart: at, valueEnd: at, kind: kindOfChar(c), value: undefined };
      this.parsed.fields.set(key, field);
      if (key === 'events' && c === 0x5b) return sp.walk(Role.Events);
      if (key === 'relationships' && c === 0x7b) return sp.walk(Role.Rel);
      return this.begin(sp, Cap.Field, key, at);
    }
    if (key === 'scopes') {
      this.parsed.scopesKey = { start: this.lastKeyStart, end: this.lastKeyEnd };
      this.parsed.scopesKind = kindOfChar(c);
      if (c === 0x5b) return sp.walk(Role.Scopes);
    }
    this.cap = undefined;
    sp.skip();
  }

  private begin(sp: ElementSplitter, cap: Cap, key: string, at: number): void {
    this.cap = cap;
    this.capKey = key;
    this.capLine = cap === Cap.Field ? 0 : this.chunkLines.lineAt(at - this.base);
    if (this.withPositions || cap === Cap.Field) this.mark(at);
    sp.capture(cap === Cap.Field ? MAX_FIELD : MAX_STREAM_ELEMENT);
  }

  private closed(role: number, at: number): void {
    const f = role === Role.Events ? this.parsed.fields.get('events') : role === Role.Rel ? this.parsed.fields.get('relationships') : undefined;
    if (f) f.valueEnd = at + 1;
    if (role === Role.Root) this.parsed.rootSpan.end = at + 1;
  }

  /** An event, a scope or a top-level field. */
  private captured(v: Captured): void {
    const cap = this.cap!;
    this.cap = undefined;
    const text = v.oversized || v.cut ? '' : v.text;
    if (cap === Cap.Event || cap === Cap.Scope) {
      this.element(cap, text, v, v.oversized || v.cut);
      return;
    }
    if (v.cut) return;
    const f = this.parsed.fields.get(this.capKey)!;
    f.valueEnd = v.end;
    try {
      f.value = v.oversized ? undefined : JSON.parse(text);
    } catch (e) {
      this.problem(v.start, `Invalid JSON in "${this.capKey.slice(0, 60)}": ${(e as Error).message}`);
    }
  }

  private element(cap: Cap, text: string, { start, end, oversized }: Captured, broken: boolean): void {
    const list = cap === Cap.Event ? this.columns : this.parsed.scopes;
    const kind = text ? kindOfChar(text.charCodeAt(0)) : 'invalid';
    const e: Element = { index: list.length, start, end, kind, obj: undefined, broken, line: this.capLine };
    const sink = cap === Cap.Event ? this.sink : undefined;
    if (!broken) {
      try {
        const v: unknown = JSON.parse(text);
        if (kind === 'object') e.obj = sink ? v as Record<string, unknown> : cap === Cap.Event ? slimEvent(v as Record<string, unknown>, this.shared, this.fields) : slimScope(v as Record<string, unknown>, this.fields);
      } catch (err) {
        e.broken = true;
        e.kind = 'invalid';
        this.problem(start, `Invalid JSON in ${cap === Cap.Event ? 'event' : 'scope'} ${list.length}: ${(err as Error).message}`);
      }
    } else if (text === '' && end > start && oversized) {
      this.problem(start, `${cap === Cap.Event ? 'Event' : 'Scope'} ${list.length} is longer than ${MAX_STREAM_ELEMENT} characters: not read`);
    }
    if (sink) {
      this.columns.skip();
      sink.take(e);
    } else if (cap === Cap.Event) this.columns.push(e);
    else this.parsed.scopes.push(e);
  }
}
