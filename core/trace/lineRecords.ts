import { EVENT_TYPES } from './eventTypes';
import { ByteLine } from './fastBytes';
import type { Id, TraceLine } from './line';
import { locateIn } from './locate';

/**
 * What the cross-line checks (`checker.ts`) read of each event line, packed in typed arrays, so a
 * worker thread that parsed a chunk of a file can hand it over as transferable buffers instead of
 * a million objects. `replayRecords` turns each record back into a `TraceLine` that answers the
 * checker exactly as the parsed line did: the rules run once, in `TraceChecker.add`, on either.
 */
export interface LineRecords {
  count: number;
  /** Line number within the chunk. */
  line: Float64Array;
  /** Index in EVENT_TYPES of `type`, -1 when the line names no known type. */
  type: Int8Array;
  /** Per record NUMS values: t, latency, cmd, job, tx (NaN when undefined; an id `k + 0.5` is `strings[k]`). */
  nums: Float64Array;
  /**
   * Per record SLOTS value ranges packed as start * 2^26 + end (-1 when absent), for a line the byte
   * fast path certified (its ranges are known without the text); `text` is then -1.
   */
  ranges: Float64Array;
  /** For a line the full parser read: index of its text in `strings` (the checker locates in it on demand). */
  text: Int32Array;
  strings: string[];
}

const NUMS = 5;
const SLOT_KEYS = ['t_cycle', 'cmd_id', 'job_id', 'tx_id', 'latency_cycles', 'event_type'] as const;
const SLOTS = SLOT_KEYS.length;
const SLOT = new Map<string, number>(SLOT_KEYS.map((k, i) => [k, i]));
const PACK = 2 ** 26;
const TYPE_INDEX = new Map(EVENT_TYPES.map((t, i) => [t, i]));

/** The buffers of a batch, for a `postMessage` transfer list. */
export const recordBuffers = (r: LineRecords): ArrayBuffer[] =>
  [r.line.buffer, r.type.buffer, r.nums.buffer, r.ranges.buffer, r.text.buffer] as ArrayBuffer[];

function allocate(n: number, strings: string[]): LineRecords {
  return { count: 0, line: new Float64Array(n), type: new Int8Array(n), nums: new Float64Array(n * NUMS), ranges: new Float64Array(n * SLOTS), text: new Int32Array(n), strings };
}

/** The same records in arrays of room `n`. */
function grown(r: LineRecords, n: number): LineRecords {
  const g = allocate(n, r.strings);
  g.count = r.count;
  g.line.set(r.line);
  g.type.set(r.type);
  g.nums.set(r.nums);
  g.ranges.set(r.ranges);
  g.text.set(r.text);
  return g;
}

/**
 * Collects records in batches of `capacity`, handing each full batch to `flush`. The arrays start
 * small and double: a chunk of a few lines costs a few records, not a whole batch.
 */
export class LineRecordWriter {
  private r!: LineRecords;
  private interned = new Map<string, number>();

  constructor(private readonly capacity: number, private readonly flush: (batch: LineRecords) => void) {
    this.reset();
  }

  /** Room of the next batch: as large as the last one grew, so only the first one doubles its way up. */
  private room = 0;

  private reset(): void {
    this.r = allocate(this.room || Math.min(this.capacity, 256), []);
    this.interned = new Map();
  }

  private str(s: string): number {
    let k = this.interned.get(s);
    if (k === undefined) {
      k = this.r.strings.push(s) - 1;
      this.interned.set(s, k);
    }
    return k;
  }

  private id(v: Id | undefined): number {
    return v === undefined ? NaN : typeof v === 'number' ? v : this.str(v) + 0.5;
  }

  /** Records `l` if the cross-line checks would look at it (an event line). */
  add(l: TraceLine, lineNo: number): void {
    if (!l.event) return;
    if (this.r.count === this.r.line.length) this.r = grown(this.r, Math.min(this.capacity, 2 * this.r.line.length));
    const r = this.r;
    const i = r.count++;
    r.line[i] = lineNo;
    r.type[i] = l.type === undefined ? -1 : TYPE_INDEX.get(l.type) ?? -1;
    const o = i * NUMS;
    r.nums[o] = l.t ?? NaN;
    r.nums[o + 1] = l.latency ?? NaN;
    r.nums[o + 2] = this.id(l.cmd);
    r.nums[o + 3] = this.id(l.job);
    r.nums[o + 4] = this.id(l.tx);
    if (l.rangeOf === undefined) {
      r.text[i] = this.str(l.text);
    } else {
      r.text[i] = -1;
      const at = i * SLOTS;
      if (l instanceof ByteLine) l.packedRanges(r.ranges, at);
      else {
        for (let k = 0; k < SLOTS - 1; k++) {
          const span = l.rangeOf(SLOT_KEYS[k]);
          r.ranges[at + k] = span ? span[0] * PACK + span[1] : -1;
        }
      }
      // The one range a certified line cannot give without its text: TRACE_META's event_type, asked for when it is not first.
      const et = l.type === 'TRACE_META' ? locateIn(l, 'event_type') : undefined;
      r.ranges[at + SLOTS - 1] = et ? et[0] * PACK + et[1] : -1;
    }
    if (r.count === this.capacity) this.end();
  }

  /** Hands on the last, partial batch. */
  end(): void {
    // Read before `flush`, which may transfer (detach) the buffers.
    this.room = this.r.line.length;
    if (this.r.count > 0) this.flush(this.r);
    this.reset();
  }

}

const num = (v: number) => (Number.isNaN(v) ? undefined : v);
const idOf = (v: number, strings: string[]): Id | undefined => (Number.isNaN(v) ? undefined : Number.isInteger(v) ? v : strings[v - 0.5]);

/** A record of a certified line: its values and ranges, and no text (the checker never needs it). */
class RecordLine implements TraceLine {
  readonly event = true;
  readonly obj = undefined;
  readonly local = undefined;
  constructor(
    readonly type: string | undefined, readonly t: number | undefined, readonly latency: number | undefined,
    readonly cmd: Id | undefined, readonly job: Id | undefined, readonly tx: Id | undefined,
    private readonly ranges: Float64Array, private readonly at: number,
  ) {}
  rangeOf(key: string): [number, number] | undefined {
    const k = SLOT.get(key);
    const p = k === undefined ? -1 : this.ranges[this.at + k];
    return p < 0 ? undefined : [Math.floor(p / PACK), p % PACK];
  }
  get text(): string {
    // Every range the checker asks of a certified line is recorded; reaching here is a bug to see.
    throw new Error('a recorded trace line has no text');
  }
}

/** Feeds a batch to `add` (the checker's), as the lines it was made from, numbered from `lineOffset`. */
export function replayRecords(r: LineRecords, lineOffset: number, add: (l: TraceLine, lineNo: number) => void): void {
  for (let i = 0; i < r.count; i++) {
    const o = i * NUMS;
    const type = r.type[i] < 0 ? undefined : EVENT_TYPES[r.type[i]];
    const t = num(r.nums[o]);
    const latency = num(r.nums[o + 1]);
    const cmd = idOf(r.nums[o + 2], r.strings);
    const job = idOf(r.nums[o + 3], r.strings);
    const tx = idOf(r.nums[o + 4], r.strings);
    const l: TraceLine = r.text[i] < 0
      ? new RecordLine(type, t, latency, cmd, job, tx, r.ranges, i * SLOTS)
      : { text: r.strings[r.text[i]], event: true, obj: undefined, type, t, cmd, job, tx, latency, local: undefined };
    add(l, r.line[i] + lineOffset);
  }
}
