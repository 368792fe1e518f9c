/**
 * Reads an InferScope trace fed in chunks of any size, for files larger than one V8 string
 * (≈ 512 MB): it never holds more than the element being read. A character scan in the manner of
 * `core/chrome/stream.ts` (no regular expressions, strings skipped to their closing quote), which
 * walks the structure the trace has — the root object, its `events` array, `relationships` and
 * its `scopes` array — and hands each event and scope to JSON.parse on its own. What it keeps of
 * each is what the timeline and the analysis read (`slimEvent`, `slimScope`): a million events fit.
 * Offsets are characters from the start of the stream; each element also gets its line.
 */
import { kindOfChar } from '../json/jsoncParser';
import { EventColumns, PositionColumns } from './columns';
import type { Element, ParsedInferscope, SyntaxProblem, TopField } from './model';

/** An element longer than this is not parsed: it is reported broken. */
export const MAX_STREAM_ELEMENT = 16 << 20;
/** A top-level value other than events/relationships is kept up to this; a longer one is dropped. */
const MAX_FIELD = 1 << 20;

const enum S { Root, Key, Colon, Value, Elem, Done }
const enum Role { Root, Events, Rel, Scopes }
const enum Cap { Event, Scope, Field, Skip }

const METADATA = ['thread_id', 'device_id', 'stream_id', 'bytes', 'kind', 'throughput_gbps', 'occupancy', 'operation'] as const;

/** Most distinct short strings kept shared (types, names, copy kinds): a million events repeat a few. */
const MAX_SHARED = 100000;

/** Which fields a reader keeps: an event's top-level and metadata keys, a scope's keys. */
export interface KeptFields {
  top: readonly string[];
  meta: readonly string[];
  scope: readonly string[];
}

/** What the analysis and the streamed check read (the timeline reads less: `core/timeline/inferscopeTrace.ts`). */
export const KEPT_FIELDS: KeptFields = {
  top: ['id', 'type', 'name', 'timestamp_start_us', 'timestamp_end_us', 'timestamp_us', 'duration_us'],
  meta: METADATA,
  scope: ['id', 'name', 'parent_id', 'child_ids', 'event_range'],
};

/**
 * The `fields` of an event; the rest (wall clocks, pointers) is dropped, and repeated short strings
 * other than ids are shared, not held once per event.
 */
export function slimEvent(o: Record<string, unknown>, shared?: Map<string, string>, fields: KeptFields = KEPT_FIELDS): Record<string, unknown> {
  const share = (v: unknown) => {
    if (!shared || typeof v !== 'string' || v.length > 64) return v;
    const s = shared.get(v);
    if (s !== undefined) return s;
    if (shared.size < MAX_SHARED) shared.set(v, v);
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const k of fields.top) if (o[k] !== undefined) out[k] = k === 'id' ? o[k] : share(o[k]);
  const m = o.metadata;
  if (m && typeof m === 'object' && !Array.isArray(m)) {
    const mm: Record<string, unknown> = {};
    for (const k of fields.meta) if ((m as Record<string, unknown>)[k] !== undefined) mm[k] = share((m as Record<string, unknown>)[k]);
    out.metadata = mm;
  }
  return out;
}

/** The `fields.scope` of a scope. */
export function slimScope(o: Record<string, unknown>, fields: KeptFields = KEPT_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields.scope) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

export class InferscopeStream {
  private s = S.Root;
  private readonly stack: Role[] = [];
  /** Characters and lines before the current chunk. */
  private base = 0;
  private line = 0;
  /** Where in the current chunk `lineAt` last counted to, the line there and where that line starts. */
  private countedTo = 0;
  /**
   * The first '\n' of the current chunk at or after `countedTo` (-1: none; -2: not looked for yet):
   * a compact chunk has none, and looking again for each of its thousands of elements scanned the
   * rest of the 1 MB chunk each time.
   */
  private nextBreak = -2;
  private countedLine = 0;
  private lineStart = 0;
  /** Line and character of offsets the checks report at: element starts, top-level keys, problems. */
  readonly positions = new PositionColumns();
  private key = '';
  private keyParts: string[] = [];
  private keyOpen = false;
  private keyEsc = false;
  private keyStart = 0;
  private keyEnd = 0;
  // The value being captured.
  private cap: Cap | undefined;
  private capDepth = 0;
  private capScalar = false;
  private inString = false;
  private esc = false;
  private parts: string[] = [];
  private size = 0;
  private over = false;
  private capStart = 0;
  private capLine = 0;
  private readonly shared = new Map<string, string>();
  /** The events, column-wise (`columns.ts`); `parsed.events` reads them. */
  private readonly columns = new EventColumns();
  readonly parsed: ParsedInferscope = {
    text: '', lineStarts: [0], rootKind: undefined, rootSpan: { start: 0, end: 0 }, fields: new Map(),
    events: this.columns.asArray(), scopesKey: undefined, scopesKind: undefined, scopes: [], syntax: [],
  };

  /**
   * `withPositions`: remember every element's line and character (for `check`; the timeline needs
   * only lines). `fields`: what is kept of each event; each field left out is a column not held.
   */
  constructor(private readonly withPositions = false, private readonly fields: KeptFields = KEPT_FIELDS) {}

  feed(chunk: string): void {
    this.countedTo = 0;
    this.nextBreak = -2;
    this.countedLine = this.line;
    let i = this.base === 0 && chunk.charCodeAt(0) === 0xfeff ? 1 : 0;
    const n = chunk.length;
    while (i < n) {
      if (this.cap !== undefined) {
        i = this.capture(chunk, i);
        continue;
      }
      if (this.keyOpen) {
        i = this.readKey(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
        continue;
      }
      i = this.structural(chunk, i, c);
    }
    // A value or key going on into the next chunk: what this one holds of it.
    if (this.cap !== undefined) this.keep(chunk.slice(this.capFrom, n));
    if (this.keyOpen) this.keyParts.push(chunk.slice(this.keyFrom, n));
    this.capFrom = 0;
    this.keyFrom = 0;
    this.line = this.lineAt(chunk, n);
    this.base += n;
  }

  /** Lines read so far (line breaks + 1), as an editor counts them in an LF file. */
  get lines(): number {
    return this.line + 1;
  }

  /** After the last chunk: a cut element is broken, an unclosed array or object a syntax problem. */
  end(): ParsedInferscope {
    const at = this.base;
    this.positions.set(at, this.line, at - this.lineStart);
    if (this.cap !== undefined) {
      const cap = this.cap;
      this.cap = undefined;
      if (cap === Cap.Event || cap === Cap.Scope) this.element(cap, '', at, true);
      this.problem(at, 'Unexpected end of file inside a value');
    } else if (this.s !== S.Done && this.s !== S.Root) this.problem(at, `Unexpected end of file: ${this.stack.length} unclosed array(s) or object(s)`);
    return this.parsed;
  }

  private capFrom = 0;
  private keyFrom = 0;

  private lineAt(chunk: string, i: number): number {
    let j = this.nextBreak === -2 ? chunk.indexOf('\n', this.countedTo) : this.nextBreak;
    while (j >= 0 && j < i) {
      this.countedLine++;
      this.lineStart = this.base + j + 1;
      j = chunk.indexOf('\n', j + 1);
    }
    this.nextBreak = j;
    this.countedTo = i;
    return this.countedLine;
  }

  /** Remembers where offset `base + i` of the chunk is, for the checks' positions. */
  private mark(chunk: string, i: number): void {
    const line = this.lineAt(chunk, i);
    this.positions.set(this.base + i, line, this.base + i - this.lineStart);
  }

  private problem(at: number, message: string): void {
    if (this.parsed.syntax.length < 100) this.parsed.syntax.push({ start: at, end: at, message } satisfies SyntaxProblem);
  }

  private structural(chunk: string, i: number, c: number): number {
    const top = this.stack[this.stack.length - 1];
    switch (this.s) {
      case S.Root:
        this.parsed.rootKind = kindOfChar(c);
        this.parsed.rootSpan = { start: this.base + i, end: this.base + i + 1 };
        if (c !== 0x7b) {
          this.problem(this.base + i, 'An InferScope trace read streamed must be a JSON object');
          this.s = S.Done;
          return chunk.length;
        }
        this.stack.push(Role.Root);
        this.s = S.Key;
        return i + 1;
      case S.Key:
        if (c === 0x2c) return i + 1;
        if (c === 0x7d) return this.close(i);
        if (c === 0x22) {
          this.keyOpen = true;
          this.keyParts = [];
          this.keyStart = this.base + i;
          this.keyFrom = i;
          if (this.stack.length <= 2) this.mark(chunk, i);
          return i + 1;
        }
        break;
      case S.Colon:
        if (c === 0x3a) {
          this.s = S.Value;
          return i + 1;
        }
        break;
      case S.Value: {
        const field: TopField | undefined = top === Role.Root ? { key: this.key, keyStart: this.keyStart, keyEnd: this.keyEnd, valueStart: this.base + i, valueEnd: this.base + i, kind: kindOfChar(c), value: undefined } : undefined;
        if (field) this.parsed.fields.set(this.key, field);
        if (top === Role.Root && this.key === 'events' && c === 0x5b) return this.open(Role.Events, i, S.Elem);
        if (top === Role.Root && this.key === 'relationships' && c === 0x7b) return this.open(Role.Rel, i, S.Key);
        if (top === Role.Rel && this.key === 'scopes') {
          this.parsed.scopesKey = { start: this.keyStart, end: this.keyEnd };
          this.parsed.scopesKind = kindOfChar(c);
          if (c === 0x5b) return this.open(Role.Scopes, i, S.Elem);
        }
        return this.begin(top === Role.Root ? Cap.Field : Cap.Skip, chunk, i, c);
      }
      case S.Elem:
        if (c === 0x2c) return i + 1;
        if (c === 0x5d) return this.close(i);
        return this.begin(top === Role.Events ? Cap.Event : Cap.Scope, chunk, i, c);
      case S.Done:
        break;
    }
    this.mark(chunk, i);
    this.problem(this.base + i, `Unexpected character ${JSON.stringify(String.fromCharCode(c))}`);
    this.s = S.Done;
    return chunk.length;
  }

  private open(role: Role, i: number, next: S): number {
    this.stack.push(role);
    this.s = next;
    return i + 1;
  }

  private close(i: number): number {
    const role = this.stack.pop();
    const f = role === Role.Events ? this.parsed.fields.get('events') : role === Role.Rel ? this.parsed.fields.get('relationships') : undefined;
    if (f) f.valueEnd = this.base + i + 1;
    if (role === Role.Root) {
      this.parsed.rootSpan.end = this.base + i + 1;
      this.s = S.Done;
    } else this.s = S.Key;
    return i + 1;
  }

  private readKey(chunk: string, i: number): number {
    const n = chunk.length;
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.keyEsc) this.keyEsc = false;
      else if (c === 0x5c) this.keyEsc = true;
      else if (c === 0x22) {
        this.keyParts.push(chunk.slice(this.keyFrom, i + 1));
        this.keyOpen = false;
        this.keyEnd = this.base + i + 1;
        const raw = this.keyParts.join('');
        try {
          this.key = raw.length <= 1024 ? (JSON.parse(raw) as string) : '';
        } catch {
          this.key = '';
        }
        this.s = S.Colon;
        return i + 1;
      }
    }
    return n;
  }

  private begin(cap: Cap, chunk: string, i: number, c: number): number {
    this.cap = cap;
    this.capDepth = 0;
    this.capScalar = c !== 0x7b && c !== 0x5b && c !== 0x22;
    this.inString = false;
    this.esc = false;
    this.parts = [];
    this.size = 0;
    this.over = false;
    this.capStart = this.base + i;
    this.capLine = cap === Cap.Event || cap === Cap.Scope ? this.lineAt(chunk, i) : 0;
    if (this.withPositions || cap === Cap.Field) this.mark(chunk, i);
    this.capFrom = i;
    return i;
  }

  private keep(piece: string): void {
    if (this.cap === Cap.Skip || this.over || !piece) return;
    const max = this.cap === Cap.Field ? MAX_FIELD : MAX_STREAM_ELEMENT;
    if (this.size + piece.length > max) {
      this.over = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  /** Scans the captured value to its end; returns where the navigation goes on. */
  private capture(chunk: string, i: number): number {
    const n = chunk.length;
    if (this.capScalar) {
      for (; i < n; i++) {
        const c = chunk.charCodeAt(i);
        if (c === 0x2c || c === 0x7d || c === 0x5d || c === 32 || c === 10 || c === 13 || c === 9) return this.finish(chunk, i);
      }
      return n;
    }
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.esc) this.esc = false;
        else if (c === 0x5c) this.esc = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.capDepth === 0) return this.finish(chunk, i + 1);
        }
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.capDepth++;
      else if (c === 0x7d || c === 0x5d) {
        if (--this.capDepth <= 0) return this.finish(chunk, i + 1);
      }
    }
    return n;
  }

  private finish(chunk: string, end: number): number {
    this.keep(chunk.slice(this.capFrom, end));
    const cap = this.cap!;
    this.cap = undefined;
    const text = this.over ? '' : this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    const at = this.base + end;
    if (cap === Cap.Event || cap === Cap.Scope) {
      this.element(cap, text, at, this.over);
      this.s = S.Elem;
    } else {
      if (cap === Cap.Field) {
        const f = this.parsed.fields.get(this.key)!;
        f.valueEnd = at;
        try {
          f.value = this.over ? undefined : JSON.parse(text);
        } catch (e) {
          this.problem(this.capStart, `Invalid JSON in "${this.key.slice(0, 60)}": ${(e as Error).message}`);
        }
      }
      this.s = S.Key;
    }
    return end;
  }

  private element(cap: Cap, text: string, end: number, broken: boolean): void {
    const list = cap === Cap.Event ? this.columns : this.parsed.scopes;
    const kind = text ? kindOfChar(text.charCodeAt(0)) : 'invalid';
    const e: Element = { index: list.length, start: this.capStart, end, kind, obj: undefined, broken, line: this.capLine };
    if (!broken) {
      try {
        const v: unknown = JSON.parse(text);
        if (kind === 'object') e.obj = cap === Cap.Event ? slimEvent(v as Record<string, unknown>, this.shared, this.fields) : slimScope(v as Record<string, unknown>, this.fields);
      } catch (err) {
        e.broken = true;
        e.kind = 'invalid';
        this.problem(this.capStart, `Invalid JSON in ${cap === Cap.Event ? 'event' : 'scope'} ${list.length}: ${(err as Error).message}`);
      }
    } else if (text === '' && end > this.capStart && this.over) {
      this.problem(this.capStart, `${cap === Cap.Event ? 'Event' : 'Scope'} ${list.length} is longer than ${MAX_STREAM_ELEMENT} characters: not read`);
    }
    if (cap === Cap.Event) this.columns.push(e);
    else this.parsed.scopes.push(e);
  }
}
