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
 * On the events view: `(i, out)` puts event i's start and end, as `timesOf` gives them, in out[0]
 * and out[1], read without building the event (a million events built for the time index were
 * ~24 MB of old-space garbage at the streamed check's and analysis's peak).
 */
export const EVENT_TIMES: unique symbol = Symbol('event times');

/** Reads event i's start and end (as `timesOf`, NaN for none) into out[0] and out[1]. */
export type TimesReader = (i: number, out: Float64Array) => void;

/**
 * The TimeIndex of a trace's events. Events read streamed give their times straight from the
 * columns: none is built (a million built events were ~24 MB of old-space garbage at the
 * streamed check's peak).
 */
export function timeIndexOf(ev: readonly Element[]): TimeIndex {
  return new TimeIndex(ev.length, timesReader(ev));
}

/** The events' times: from the columns when `ev` is their view, else from each event. */
export function timesReader(ev: readonly Element[]): TimesReader {
  const fromColumns = (ev as { [EVENT_TIMES]?: TimesReader })[EVENT_TIMES];
  return fromColumns ?? ((i, out) => {
    const t = timesOf(ev[i]);
    out[0] = t.start;
    out[1] = t.end;
  });
}

/**
 * Events per leaf of the index (2^bits): the events of a leaf are read again when a range ends
 * inside it. Eight up to two million events; past that the leaves grow so that the index stays
 * within 2^18 leaves (8 MB): ten million events with leaves of eight were 64 MB at the streamed
 * check's peak, for two leaves read at most per range.
 */
const leafBits = (n: number) => Math.max(3, Math.ceil(Math.log2(Math.max(n, 1))) - 18);

/**
 * Earliest start and latest end over ranges of events in O(log n) per query: a scope's time range
 * over its `event_range`, which for a million scopes over a million events must not be a loop each.
 * A leaf covers eight events (more past two million: `leafBits`), read back through `times` where a
 * range cuts it: one leaf per event made this 33 MB for a million events, at the peak of the
 * streamed check and analysis; it is 4 MB.
 */
export class TimeIndex {
  private readonly size: number;
  private readonly bits: number;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly out = new Float64Array(2);

  constructor(private readonly n: number, private readonly times: TimesReader) {
    const bits = (this.bits = leafBits(n));
    const leaves = (n + (1 << bits) - 1) >> bits;
    let size = 1;
    while (size < leaves) size <<= 1;
    this.size = size;
    this.lo = new Float64Array(2 * size).fill(Infinity);
    this.hi = new Float64Array(2 * size).fill(-Infinity);
    const out = this.out;
    for (let i = 0; i < n; i++) {
      times(i, out);
      const l = size + (i >> bits);
      // An event without times has no say in a range.
      if (out[0] === out[0]) this.lo[l] = Math.min(this.lo[l], out[0]);
      if (out[1] === out[1]) this.hi[l] = Math.max(this.hi[l], out[1]);
    }
    for (let i = size - 1; i >= 1; i--) {
      this.lo[i] = Math.min(this.lo[2 * i], this.lo[2 * i + 1]);
      this.hi[i] = Math.max(this.hi[2 * i], this.hi[2 * i + 1]);
    }
  }

  /** [earliest start, latest end] of events a..b inclusive; Infinity/-Infinity when none has times. */
  range(a: number, b: number): [number, number] {
    const r: [number, number] = [Infinity, -Infinity];
    b = Math.min(b, this.n - 1);
    if (a > b) return r;
    const bits = this.bits;
    const la = a >> bits;
    const lb = b >> bits;
    if (la === lb) {
      this.scan(a, b, r);
      return r;
    }
    this.scan(a, ((la + 1) << bits) - 1, r);
    this.scan(lb << bits, b, r);
    let l = la + 1 + this.size;
    let h = lb + this.size;
    while (l < h) {
      if (l & 1) {
        r[0] = Math.min(r[0], this.lo[l]);
        r[1] = Math.max(r[1], this.hi[l]);
        l++;
      }
      if (h & 1) {
        h--;
        r[0] = Math.min(r[0], this.lo[h]);
        r[1] = Math.max(r[1], this.hi[h]);
      }
      l >>= 1;
      h >>= 1;
    }
    return r;
  }

  /** Events a..b of one leaf, read one by one. */
  private scan(a: number, b: number, r: [number, number]): void {
    const out = this.out;
    for (let i = a; i <= b; i++) {
      this.times(i, out);
      if (out[0] === out[0]) r[0] = Math.min(r[0], out[0]);
      if (out[1] === out[1]) r[1] = Math.max(r[1], out[1]);
    }
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
