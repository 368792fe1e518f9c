/**
 * The Chrome timeline built on two threads (node/workers/timelineRead.ts): one reads the text —
 * splits the events, reads most of them in place, counts lines — and records what the builder is
 * to do with each event as an op; the other replays the ops in order into the one builder
 * (`ChromeTimelineBuilder.replayOps`), which then does exactly what reading the text itself would
 * have done: an op carries the same values to the same code. Reading is more than half of a
 * build (the 108 MB training trace), so the two overlap.
 *
 * Ops go in batches of typed-array columns (moved between threads, not copied): an event drawn
 * from fields read in place (its phase, times, bytes, where it is, and its seven primitive fields as
 * tags with numbers or indexes into the batch's strings), an event that takes the full way (its
 * text, parsed again by the replaying builder), an event that is not drawable.
 */
import type { Position } from '../common/diagnostic';
import type { RawEvent } from './stream';

export const OP_DRAW = 0, OP_FULL = 1, OP_UNDRAWABLE = 2, OP_TOO_LARGE = 3;
/** Per drawn op: ts, dur, bytes. */
export const NUMS = 3;
/** Per drawn op: line, character, last line, the character after the event on its first line. */
export const POS = 4;
/** Per drawn op, the values: name, cat, cname, pid, tid, bind_id, id. */
export const VALUES = 7;
/** A value's tag. */
const UNDEF = 0, NULL = 1, TRUE = 2, FALSE = 3, NUM = 4, STR = 5;
/** Flags of a drawn op. */
export const FLOW_IN = 1, FLOW_OUT = 2, BP_E = 4, HAS_DUR = 8;

export interface OpsBatch {
  count: number;
  op: Uint8Array;
  ph: Uint8Array;
  flags: Uint8Array;
  nums: Float64Array;
  pos: Uint32Array;
  tag: Uint8Array;
  /** A number value, or its string's index in `strings`. */
  val: Float64Array;
  strings: string[];
  /** The events that take the full way, in order. */
  raws: RawEvent[];
  /** Where the text read so far ends, and its characters. */
  end: Position;
  chars: number;
  /** The last batch: the text was cut in its first line (a truncated .gz), so it has no line. */
  last?: { noLine: boolean };
}

/** The buffers of a batch, to be moved to the thread it is posted to. */
export const opsBuffers = (b: OpsBatch): ArrayBuffer[] => [b.op, b.ph, b.flags, b.nums, b.pos, b.tag, b.val].map((a) => a.buffer as ArrayBuffer);

/** What a drawn op carries (the arguments of the builder's `at` and `draw`). */
export interface DrawOp {
  line: number;
  character: number;
  last: number;
  charEnd: number;
  ph: string;
  ts: number;
  dur: number | undefined;
  bytes: number;
  name: unknown;
  cat: unknown;
  cname: unknown;
  pid: unknown;
  tid: unknown;
  bindId: unknown;
  id: unknown;
  flowIn: boolean;
  flowOut: boolean;
  bpE: boolean;
}

/** Ops recorded into batches of `size`, each handed to `post` when full (and by `flush`). */
export class OpsRecorder {
  private b: OpsBatch;
  private stringIndex = new Map<string, number>();

  constructor(private readonly post: (b: OpsBatch) => void, private readonly size = 16384) {
    this.b = this.fresh();
  }

  private fresh(): OpsBatch {
    const n = this.size;
    return {
      count: 0, op: new Uint8Array(n), ph: new Uint8Array(n), flags: new Uint8Array(n), nums: new Float64Array(n * NUMS), pos: new Uint32Array(n * POS),
      tag: new Uint8Array(n * VALUES), val: new Float64Array(n * VALUES), strings: [], raws: [], end: { line: 0, character: 0 }, chars: 0,
    };
  }

  private value(k: number, v: unknown): void {
    const b = this.b;
    if (v === undefined) b.tag[k] = UNDEF;
    else if (v === null) b.tag[k] = NULL;
    else if (v === true) b.tag[k] = TRUE;
    else if (v === false) b.tag[k] = FALSE;
    else if (typeof v === 'number') {
      b.tag[k] = NUM;
      b.val[k] = v;
    } else {
      const s = v as string;
      let i = this.stringIndex.get(s);
      if (i === undefined) {
        i = b.strings.length;
        b.strings.push(s);
        this.stringIndex.set(s, i);
      }
      b.tag[k] = STR;
      b.val[k] = i;
    }
  }

  draw(o: DrawOp): void {
    const b = this.b;
    const i = b.count++;
    b.op[i] = OP_DRAW;
    b.ph[i] = o.ph.charCodeAt(0);
    b.flags[i] = (o.flowIn ? FLOW_IN : 0) | (o.flowOut ? FLOW_OUT : 0) | (o.bpE ? BP_E : 0) | (o.dur !== undefined ? HAS_DUR : 0);
    b.nums[i * NUMS] = o.ts;
    b.nums[i * NUMS + 1] = o.dur ?? 0;
    b.nums[i * NUMS + 2] = o.bytes;
    const p = i * POS;
    b.pos[p] = o.line;
    b.pos[p + 1] = o.character;
    b.pos[p + 2] = o.last;
    b.pos[p + 3] = o.charEnd;
    const v = i * VALUES;
    this.value(v, o.name);
    this.value(v + 1, o.cat);
    this.value(v + 2, o.cname);
    this.value(v + 3, o.pid);
    this.value(v + 4, o.tid);
    this.value(v + 5, o.bindId);
    this.value(v + 6, o.id);
    if (b.count === this.size) this.send();
  }

  full(raw: RawEvent): void {
    this.other(OP_FULL);
    this.b.raws.push(raw);
    if (this.b.count === this.size) this.send();
  }

  undrawable(tooLarge: boolean): void {
    this.other(tooLarge ? OP_TOO_LARGE : OP_UNDRAWABLE);
    if (this.b.count === this.size) this.send();
  }

  private other(op: number): void {
    this.b.op[this.b.count++] = op;
  }

  /** Where the text read so far ends: said with the next batch posted. */
  at(end: Position, chars: number): void {
    this.b.end = end;
    this.b.chars = chars;
  }

  /** Posts what is recorded (the last batch with `last`). */
  flush(last?: { noLine: boolean }): void {
    if (last) this.b.last = last;
    this.send();
  }

  private send(): void {
    const b = this.b;
    const { end, chars } = b;
    this.post(b);
    this.b = this.fresh();
    this.b.end = end;
    this.b.chars = chars;
    this.stringIndex = new Map();
  }
}

/** The value at `k` of a batch, as the recorder was given it. */
export function valueAt(b: OpsBatch, k: number): unknown {
  switch (b.tag[k]) {
    case UNDEF: return undefined;
    case NULL: return null;
    case TRUE: return true;
    case FALSE: return false;
    case NUM: return b.val[k];
    default: return b.strings[b.val[k]];
  }
}
