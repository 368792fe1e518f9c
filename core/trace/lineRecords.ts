import { EVENT_TYPES } from './eventTypes';
import { ByteLine } from './fastBytes';
import type { Id, TraceLine } from './line';

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
   * Per record SLOTS value ranges (t_cycle, cmd_id, job_id, tx_id, latency_cycles) as the byte fast
   * path packs them, for a line it certified (its ranges are known without the text); `text` is then -1.
   */
  ranges: Float64Array;
  /**
   * For a line the full parser read, and a TRACE_META (whose event_type range is asked for): index
   * of its text in `strings`, where the checker locates what it needs on demand.
   */
  text: Int32Array;
  strings: string[];
}

const NUMS = 5;
const SLOTS = 5;
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
    if (l instanceof ByteLine && l.type !== 'TRACE_META') {
      r.text[i] = -1;
      l.packedRanges(r.ranges, i * SLOTS);
    } else r.text[i] = this.str(l.text);
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

const NO_BYTES = new Uint8Array(0);
const noText = (): string => {
  // Every range the checker asks of a certified line is recorded; reaching here is a bug to see.
  throw new Error('a recorded trace line has no text');
};

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
    const at = i * SLOTS;
    // A certified line comes back as the fast path's own class: the checker sees one shape of line, as in one thread.
    const l: TraceLine = r.text[i] < 0
      ? new ByteLine(NO_BYTES, 0, 0, noText, type!, t, cmd, job, tx, latency, r.ranges[at], r.ranges[at + 1], r.ranges[at + 2], r.ranges[at + 3], r.ranges[at + 4])
      : { text: r.strings[r.text[i]], event: true, obj: undefined, type, t, cmd, job, tx, latency, local: undefined };
    add(l, r.line[i] + lineOffset);
  }
}
