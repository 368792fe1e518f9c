/**
 * The streamed reader's events stored column-wise: one object per event (Element, its slim object,
 * its metadata) costs ~1 KB of heap, which for a million events is what kept a 600 MB trace above
 * 1 GB of RSS. Here an event is a row of typed arrays and interned string ids; an event whose
 * fields do not fit the columns (a string where a number belongs, an object as a name) keeps its
 * slim object in a side table. `element(i)` gives back exactly the Element the reader built before.
 */
import { StringTable } from '../common/stringTable';
import type { Element } from './model';
import { EVENT_TIMES, timesOf } from './times';
import { SparseColumn } from './sparseColumn';

/** Rows per block: columns grow a block at a time, never copied as a doubling array would be. */
const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
const MASK = BLOCK - 1;

export class F64Column {
  private readonly blocks: Float64Array[] = [];
  set(i: number, v: number): void {
    const b = i >>> BLOCK_BITS;
    while (this.blocks.length <= b) this.blocks.push(new Float64Array(BLOCK).fill(NaN));
    this.blocks[b][i & MASK] = v;
  }
  /** NaN where nothing was set: a block is made only when a value goes in it. */
  get(i: number): number {
    const b = this.blocks[i >>> BLOCK_BITS];
    return b ? b[i & MASK] : NaN;
  }
}

export class I32Column {
  private readonly blocks: Int32Array[] = [];
  set(i: number, v: number): void {
    const b = i >>> BLOCK_BITS;
    while (this.blocks.length <= b) this.blocks.push(new Int32Array(BLOCK).fill(-1));
    this.blocks[b][i & MASK] = v;
  }
  /** -1 where nothing was set. */
  get(i: number): number {
    const b = this.blocks[i >>> BLOCK_BITS];
    return b ? b[i & MASK] : -1;
  }
}

/** On the events view (`asArray`): `(i) => event i's id`, read without building the event. */
export const EVENT_ID: unique symbol = Symbol('event id');

/** Event `i`'s id: from the columns when `events` is their view, else from the event. */
export function eventIdOf(events: readonly Element[]): (i: number) => unknown {
  return (events as { [EVENT_ID]?: (i: number) => unknown })[EVENT_ID] ?? ((i: number) => events[i].obj?.id);
}

const TIMES = ['timestamp_start_us', 'timestamp_end_us', 'timestamp_us', 'duration_us'] as const;
/** Top-level fields of the Profiler's layout (`profilerLayout.ts`): sparse, absent from data-model events. */
const NUM_TOP = ['thread_id', 'stream_id', 'bytes', 'lineno'] as const;
const STR_TOP = ['filename'] as const;
const NUM_META = ['thread_id', 'device_id', 'stream_id', 'bytes', 'throughput_gbps', 'occupancy'] as const;
const STR_META = ['kind', 'operation'] as const;
/** The order `slimEvent` writes metadata keys in, kept so a rebuilt object prints the same. */
const META_ORDER = ['thread_id', 'device_id', 'stream_id', 'bytes', 'kind', 'throughput_gbps', 'occupancy', 'operation'] as const;
const HELD = new Set<string>(['id', 'type', 'name', 'metadata', ...TIMES, ...NUM_TOP, ...STR_TOP]);
const KINDS = ['object', 'array', 'string', 'number', 'boolean', 'null', 'invalid'];

const F_BROKEN = 1;
const F_OBJ = 2;
const F_META = 4;
/** The event's slim object is in the side table. */
const F_RARE = 8;

/** Whether `v` fits a numeric column: absent or a number (JSON has no NaN, so NaN means absent). */
const numeric = (v: unknown) => v === undefined || typeof v === 'number';
const stringy = (v: unknown) => v === undefined || typeof v === 'string';

export class EventColumns {
  length = 0;
  private readonly start = new F64Column();
  private readonly end = new F64Column();
  private readonly line = new I32Column();
  /** Kind index << 4 | flags. */
  private readonly kindFlags = new I32Column();
  /** Ids are mostly unique strings: held as they are, one slot each. */
  readonly ids: unknown[] = [];
  private readonly type = new I32Column();
  private readonly name = new I32Column();
  /** `timestamp_us` is an instant's alone: sparse (`sparseColumn.ts`), as is every metadata field. */
  private readonly times = TIMES.map((t) => (t === 'timestamp_us' ? new SparseColumn(NaN) : new F64Column()));
  private readonly numTop = NUM_TOP.map(() => new SparseColumn(NaN));
  private readonly strTop = STR_TOP.map(() => new SparseColumn(-1));
  private readonly numMeta = NUM_META.map(() => new SparseColumn(NaN));
  private readonly strMeta = STR_META.map(() => new SparseColumn(-1));
  private readonly strings = new StringTable();
  /** Slim objects of the events the columns cannot hold exactly. */
  private readonly rare = new Map<number, Record<string, unknown>>();

  /** Appends an event as the reader saw it; `obj` is its slim object (`slimEvent`). */
  push(e: Element): void {
    const i = this.length++;
    this.start.set(i, e.start);
    this.end.set(i, e.end);
    this.line.set(i, e.line ?? -1);
    const k = KINDS.indexOf(e.kind);
    let flags = (e.broken ? F_BROKEN : 0) | (e.obj ? F_OBJ : 0);
    const o = e.obj;
    if (o) {
      const m = o.metadata as Record<string, unknown> | undefined;
      if (!this.fits(o, m)) {
        this.rare.set(i, o);
        flags |= F_RARE;
      } else {
        if (o.type !== undefined) this.type.set(i, this.strings.id(o.type as string));
        if (o.name !== undefined) this.name.set(i, this.strings.id(o.name as string));
        TIMES.forEach((t, j) => {
          if (o[t] !== undefined) this.times[j].set(i, o[t] as number);
        });
        NUM_TOP.forEach((t, j) => {
          if (o[t] !== undefined) this.numTop[j].set(i, o[t] as number);
        });
        STR_TOP.forEach((t, j) => {
          if (o[t] !== undefined) this.strTop[j].set(i, this.strings.id(o[t] as string));
        });
        if (m) {
          flags |= F_META;
          NUM_META.forEach((t, j) => {
            if (m[t] !== undefined) this.numMeta[j].set(i, m[t] as number);
          });
          STR_META.forEach((t, j) => {
            if (m[t] !== undefined) this.strMeta[j].set(i, this.strings.id(m[t] as string));
          });
        }
      }
    }
    this.ids[i] = o?.id;
    this.kindFlags.set(i, ((k < 0 ? KINDS.length - 1 : k) << 4) | flags);
  }

  private fits(o: Record<string, unknown>, m: Record<string, unknown> | undefined): boolean {
    if (!stringy(o.type) || !stringy(o.name)) return false;
    for (const t of TIMES) if (!numeric(o[t])) return false;
    for (const t of NUM_TOP) if (!numeric(o[t])) return false;
    for (const t of STR_TOP) if (!stringy(o[t])) return false;
    // A field the columns do not hold (a reader keeping more than KEPT_FIELDS) keeps the event whole.
    for (const k in o) if (!HELD.has(k)) return false;
    if (m) {
      for (const t of NUM_META) if (!numeric(m[t])) return false;
      for (const t of STR_META) if (!stringy(m[t])) return false;
    }
    return true;
  }

  /**
   * Counts an event that a reader checked as it came and does not keep (`EventSink`): it has an
   * index, and `element` must not be asked for it.
   */
  skip(): void {
    this.length++;
  }

  /** Event `i` as the reader built it: a new object each call, so none is kept for long. */
  element(i: number): Element {
    const kf = this.kindFlags.get(i);
    const line = this.line.get(i);
    const e: Element = { index: i, start: this.start.get(i), end: this.end.get(i), kind: KINDS[kf >> 4], obj: undefined, broken: (kf & F_BROKEN) !== 0 };
    if (line >= 0) e.line = line;
    if (kf & F_OBJ) e.obj = this.rare.get(i) ?? this.rebuild(i, kf);
    return e;
  }

  /** `timesOf(element(i))` into out[0], out[1]. */
  timesInto(i: number, out: Float64Array): void {
    const kf = this.kindFlags.get(i);
    if (!(kf & F_OBJ)) {
      out[0] = out[1] = NaN;
      return;
    }
    if (kf & F_RARE) {
      const t = timesOf(this.element(i));
      out[0] = t.start;
      out[1] = t.end;
      return;
    }
    // As `num`: a time too large for a double (1e400 reads as Infinity) is no time.
    const start = this.times[0].get(i);
    const s = Number.isFinite(start) ? start : NaN;
    const type = this.type.get(i);
    if (type >= 0 && this.strings.list[type] === 'instant') {
      const at = this.times[2].get(i);
      out[0] = out[1] = Number.isFinite(at) ? at : s;
      return;
    }
    const end = this.times[1].get(i);
    out[0] = s;
    out[1] = Number.isFinite(end) ? end : NaN;
  }

  private rebuild(i: number, kf: number): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    const s = this.strings.list;
    if (this.ids[i] !== undefined) o.id = this.ids[i];
    const type = this.type.get(i);
    if (type >= 0) o.type = s[type];
    const name = this.name.get(i);
    if (name >= 0) o.name = s[name];
    TIMES.forEach((t, j) => {
      const v = this.times[j].get(i);
      if (v === v) o[t] = v;
    });
    NUM_TOP.forEach((t, j) => {
      const v = this.numTop[j].get(i);
      if (v === v) o[t] = v;
    });
    STR_TOP.forEach((t, j) => {
      const v = this.strTop[j].get(i);
      if (v >= 0) o[t] = s[v];
    });
    if (kf & F_META) {
      const m: Record<string, unknown> = {};
      for (const t of META_ORDER) {
        const n = NUM_META.indexOf(t as (typeof NUM_META)[number]);
        if (n >= 0) {
          const v = this.numMeta[n].get(i);
          if (v === v) m[t] = v;
        } else {
          const v = this.strMeta[STR_META.indexOf(t as (typeof STR_META)[number])].get(i);
          if (v >= 0) m[t] = s[v];
        }
      }
      o.metadata = m;
    }
    return o;
  }

  /**
   * The events as the `Element[]` every check and the analysis read: an index builds its Element
   * on the spot, so a pass over a million events holds one at a time, not a million.
   */
  asArray(): Element[] {
    return EventColumns.view(this);
  }

  private static view(cols: EventColumns): Element[] {
    return new Proxy([] as Element[], {
      get(target, p, receiver) {
        if (typeof p === 'string') {
          const c = p.charCodeAt(0);
          if (c >= 48 && c <= 57) {
            const i = +p;
            return Number.isInteger(i) && i < cols.length ? cols.element(i) : undefined;
          }
          if (p === 'length') return cols.length;
        }
        if (p === EVENT_ID) return (i: number) => cols.ids[i];
        if (p === EVENT_TIMES) return (i: number, out: Float64Array) => cols.timesInto(i, out);
        return Reflect.get(target, p, receiver) as unknown;
      },
      has(target, p) {
        if (typeof p === 'string' && /^\d{1,15}$/.test(p)) return +p < cols.length;
        return Reflect.has(target, p);
      },
      set() {
        // The columns are read-only once read: a check writing into the list is a bug.
        return false;
      },
    });
  }
}

/**
 * Line and character of offsets, set in increasing offset order (the reader's), looked up as the
 * last one at or before an offset: three numbers a place, not a Map entry and an array. A place on
 * the line of the one before it is not kept: its character is that one's plus the distance, so the
 * ten million events of a one-line trace cost one row, not 200 MB.
 */
export class PositionColumns {
  private size = 0;
  private readonly offsets = new F64Column();
  private readonly lines = new I32Column();
  private readonly chars = new F64Column();

  set(offset: number, line: number, character: number): void {
    let i = this.size;
    if (i > 0) {
      const last = this.offsets.get(i - 1);
      // Marks come in reading order; the same place marked again keeps its latest row, as a Map would.
      if (last > offset) return;
      if (last === offset) i--;
      else if (this.lines.get(i - 1) === line && this.chars.get(i - 1) + (offset - last) === character) return;
    }
    if (i === this.size) this.size++;
    this.offsets.set(i, offset);
    this.lines.set(i, line);
    this.chars.set(i, character);
  }

  /**
   * Where a marked place is (else the first one; 0:0 when none is): on the line of the last row at
   * or before it, that row's character plus the distance.
   */
  at(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.size - 1;
    let best = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets.get(mid) <= offset) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (this.size === 0) return { line: 0, character: 0 };
    const from = this.offsets.get(best);
    return { line: this.lines.get(best), character: this.chars.get(best) + Math.max(0, offset - from) };
  }
}
