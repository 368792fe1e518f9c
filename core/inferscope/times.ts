import { num, type Element } from './model';

/** Start and end of an event in µs (an instant: both its `timestamp_us`); NaN where not a number. */
export interface Times {
  start: number;
  end: number;
  instant: boolean;
}

export function timesOf(e: Element): Times {
  const o = e.obj;
  if (!o) return { start: NaN, end: NaN, instant: false };
  if (o.type === 'instant') {
    const t = num(o.timestamp_us) ?? num(o.timestamp_start_us) ?? NaN;
    return { start: t, end: t, instant: true };
  }
  return { start: num(o.timestamp_start_us) ?? NaN, end: num(o.timestamp_end_us) ?? NaN, instant: false };
}

/**
 * The TimeIndex of a trace's events, their times written straight into its leaves: no copy of them
 * first (15 MB for a million events, at the streamed check's peak).
 */
export function timeIndexOf(ev: readonly Element[]): TimeIndex {
  const index = new TimeIndex(ev.length);
  for (let i = 0; i < ev.length; i++) {
    const t = timesOf(ev[i]);
    index.setLeaf(i, t.start, t.end);
  }
  index.fill();
  return index;
}

/**
 * Earliest start and latest end over ranges of events in O(log n) per query: a scope's time range
 * over its `event_range`, which for a million scopes over a million events must not be a loop each.
 */
export class TimeIndex {
  private readonly size: number;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;

  /** Room for `n` events: `setLeaf` each, then `fill`. */
  constructor(n: number) {
    let size = 1;
    while (size < n) size <<= 1;
    this.size = size;
    this.lo = new Float64Array(2 * size).fill(Infinity);
    this.hi = new Float64Array(2 * size).fill(-Infinity);
  }

  setLeaf(i: number, start: number, end: number): void {
    // An event without times has no say in a range.
    if (start === start) this.lo[this.size + i] = start;
    if (end === end) this.hi[this.size + i] = end;
  }

  /** The inner nodes, from the leaves. */
  fill(): void {
    for (let i = this.size - 1; i >= 1; i--) {
      this.lo[i] = Math.min(this.lo[2 * i], this.lo[2 * i + 1]);
      this.hi[i] = Math.max(this.hi[2 * i], this.hi[2 * i + 1]);
    }
  }

  /** [earliest start, latest end] of events a..b inclusive; Infinity/-Infinity when none has times. */
  range(a: number, b: number): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    let l = a + this.size;
    let r = b + this.size + 1;
    while (l < r) {
      if (l & 1) {
        lo = Math.min(lo, this.lo[l]);
        hi = Math.max(hi, this.hi[l]);
        l++;
      }
      if (r & 1) {
        r--;
        lo = Math.min(lo, this.lo[r]);
        hi = Math.max(hi, this.hi[r]);
      }
      l >>= 1;
      r >>= 1;
    }
    return [lo, hi];
  }
}

// Anchored, each part a bounded run of digits: linear on any input.
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** The date and time to the second of the last string read, and its ms: a trace's events share it in runs. */
let lastSecond = '';
let lastMs = 0;

function digits(s: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** An ISO 8601 wall-clock time in µs since the Unix epoch, keeping the microsecond digits Date.parse drops. */
export function wallClockUs(s: unknown): number | undefined {
  if (typeof s !== 'string' || s.length > 40) return undefined;
  // The form InferScope writes, `2025-12-27T10:30:45.123456Z`, read without a regex or Date.UTC per event.
  if (s.length === 27 && s.charCodeAt(19) === 46 && s.charCodeAt(26) === 90) {
    const head = s.slice(0, 19);
    const frac = digits(s, 20, 26);
    if (frac >= 0 && head === lastSecond) return lastMs * 1000 + frac;
    const v = wallClockSlow(s);
    if (v !== undefined && frac >= 0) {
      lastSecond = head;
      lastMs = (v - frac) / 1000;
    }
    return v;
  }
  return wallClockSlow(s);
}

function wallClockSlow(s: string): number | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  if (!Number.isFinite(ms)) return undefined;
  const frac = m[7] ? Number(`0.${m[7]}`) * 1e6 : 0;
  const tz = m[9] ? (m[9] === '+' ? -1 : 1) * (+m[10] * 60 + +m[11]) * 60e6 : 0;
  return ms * 1000 + frac + tz;
}

/** µs for a message: the number with its unit, and milliseconds when that is easier to read. */
export function fmtUs(us: number): string {
  const r = Math.round(us * 1000) / 1000;
  return Math.abs(us) >= 1000 ? `${r} µs (${Math.round(us) / 1000} ms)` : `${r} µs`;
}
