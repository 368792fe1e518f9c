/**
 * Reads an InferScope trace fed in chunks of any size, for files larger than one V8 string
 * (≈ 512 MB): it never holds more than the element being read. Values and keys are cut by the JSON
 * toolkit's `ValueScanner` (as Chrome traces are), lines counted by its `ChunkLines`; this file
 * walks the structure the trace has — the root object, its `events` array, `relationships` and
 * its `scopes` array — and hands each event and scope to JSON.parse on its own. What it keeps of
 * each is what the timeline and the analysis read (`slimEvent`, `slimScope`): a million events fit.
 * Offsets are characters from the start of the stream; each element also gets its line.
 */
import { kindOfChar } from '../json/jsoncParser';
import { ChunkLines } from '../json/chunkLines';
import { isBlank, ValueScanner } from '../json/valueScanner';
import { EventColumns, PositionColumns } from './columns';
import { KEPT_FIELDS, slimEvent, slimScope, type KeptFields } from './keptFields';
import type { Element, ParsedInferscope, SyntaxProblem, TopField } from './model';

/** An element longer than this is not parsed: it is reported broken. */
export const MAX_STREAM_ELEMENT = 16 << 20;
/** A top-level value other than events/relationships is kept up to this; a longer one is dropped. */
const MAX_FIELD = 1 << 20;

const enum S { Root, Key, Colon, Value, Elem, Done }
const enum Role { Root, Events, Rel, Scopes }
const enum Cap { Event, Scope, Field, Skip }

export class InferscopeStream {
  private s = S.Root;
  private readonly stack: Role[] = [];
  /** Lines of the chunks, counted as far as positions are asked for. */
  private readonly chunkLines = new ChunkLines();
  /** Characters before the current chunk. */
  private base = 0;
  /** Line and character of offsets the checks report at: element starts, top-level keys, problems. */
  readonly positions = new PositionColumns();
  private key = '';
  private keyParts: string[] = [];
  private keyOpen = false;
  private readonly keyEnds = new ValueScanner('token');
  private keyStart = 0;
  private keyEnd = 0;
  // The value being captured.
  private cap: Cap | undefined;
  /** Where the captured value ends: a bare value at its token's end, as JSON.parse reads it. */
  private readonly value = new ValueScanner('token');
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
    this.chunkLines.next(chunk);
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
      if (isBlank(c)) {
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
    this.chunkLines.end();
    this.base += n;
  }

  /** Lines read so far (line breaks + 1), as an editor counts them in an LF file. */
  get lines(): number {
    return this.chunkLines.lines + 1;
  }

  /** After the last chunk: a cut element is broken, an unclosed array or object a syntax problem. */
  end(): ParsedInferscope {
    const at = this.base;
    this.positions.set(at, this.chunkLines.lines, this.chunkLines.lastCharacter);
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

  /** Remembers where offset `base + i` of the chunk is, for the checks' positions. */
  private mark(i: number): void {
    const line = this.chunkLines.lineAt(i);
    this.positions.set(this.base + i, line, this.chunkLines.characterAt(i));
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
          this.keyEnds.begin(c);
          if (this.stack.length <= 2) this.mark(i);
          return i;
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
    this.mark(i);
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
    const end = this.keyEnds.scan(chunk, i);
    if (end < 0) return chunk.length;
    this.keyParts.push(chunk.slice(this.keyFrom, end));
    this.keyOpen = false;
    this.keyEnd = this.base + end;
    const raw = this.keyParts.join('');
    try {
      this.key = raw.length <= 1024 ? (JSON.parse(raw) as string) : '';
    } catch {
      this.key = '';
    }
    this.s = S.Colon;
    return end;
  }

  private begin(cap: Cap, chunk: string, i: number, c: number): number {
    this.cap = cap;
    this.value.begin(c);
    this.parts = [];
    this.size = 0;
    this.over = false;
    this.capStart = this.base + i;
    this.capLine = cap === Cap.Event || cap === Cap.Scope ? this.chunkLines.lineAt(i) : 0;
    if (this.withPositions || cap === Cap.Field) this.mark(i);
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
    const end = this.value.scan(chunk, i);
    return end < 0 ? chunk.length : this.finish(chunk, end);
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
