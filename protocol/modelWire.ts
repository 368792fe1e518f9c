/**
 * A timeline model as it crosses to the page, in fewer bytes: a column whose every element is the
 * same value goes as that value (`{ fill }`), and a Uint32 column whose values all fit 8 or 16 bits
 * goes as a Uint8Array or Uint16Array. The page widens it back (`unpackModel`) before it checks the
 * model, so everything after sees the model the host built, element for element.
 *
 * Why: in code-server (VS Code in a browser) the extension host's messages to the page cross a
 * WebSocket with per-message deflate, so every byte is compressed and inflated again on the way, at
 * the machine's load. A PyTorch trace's model has columns no Chrome event fills (`id`: NaN,
 * `endLine`: none), string and context indices below 2^16 and times in whole nanoseconds: it goes
 * in about half its bytes (docs/timeline.md). Times go as integers where that is exact
 * (`Ticks`): a start as its offset from the earliest in units of 1 or 1/1000 (a Chrome trace's
 * microseconds with three decimals, an NPU trace's cycles), an end as its item's duration; a
 * last line as its item's line plus a few.
 */
import { ITEM_COLUMN_TYPES, ITEM_COLUMNS, type TimelineModel } from '../core/timeline/model';

/**
 * A column whose `n` elements (the model's item count) are all `fill[0]`. The value goes as a
 * one-element array of the column's type: VS Code posts a message as JSON with its typed arrays
 * apart, and JSON has no NaN (a Chrome model's `id` column), no infinities and no -0.
 */
interface Filled {
  fill: ArrayLike<number>;
}

type Column = ArrayLike<number>;
type Wire = Record<string, unknown>;

/** Whether every element of `a` is the same value (NaN equal to NaN, 0 not equal to -0). */
function constant(a: Column): boolean {
  const v = a[0];
  for (let i = 1; i < a.length; i++) if (!Object.is(a[i], v)) return false;
  return true;
}

/** A Uint32 column in the narrowest unsigned type its values fit; other columns as they are. */
function narrow(a: Column): Column {
  if (!(a instanceof Uint32Array)) return a;
  let max = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > max) max = a[i];
  return max < 256 ? Uint8Array.from(a) : max < 65536 ? Uint16Array.from(a) : a;
}

/** An item-length column as it goes: its value when constant (not for the start column, whose length is `n`), else narrowed. */
function packColumn(a: Column & { slice(start: number, end: number): Column }, fillable: boolean): Column | Filled {
  return fillable && a.length > 1 && constant(a) ? { fill: a.slice(0, 1) } : narrow(a);
}

/**
 * Times as integer ticks of 1/`per` (1 or 1000): a start is `(base + off) / per`, an end its start
 * plus `dur / per` — the same float operations that give the host's values, checked for every
 * item before they are sent (a value they do not give back exactly goes as it is).
 */
interface Ticks {
  per: number;
  base: Float64Array;
  off: Uint32Array;
}
interface Durations {
  per: number;
  dur: Uint32Array;
}

const TICKS_PER = [1, 1000];
const U32 = 2 ** 32;

/** `start` as ticks, when some `per` gives every value back exactly and they span less than 2^32 ticks. */
function startTicks(start: Float64Array): Ticks | undefined {
  const n = start.length;
  if (n < 2) return undefined;
  next: for (const per of TICKS_PER) {
    let base = Infinity, max = -Infinity;
    for (let i = 0; i < n; i++) {
      const t = Math.round(start[i] * per);
      if (!Number.isSafeInteger(t) || !Object.is(t / per, start[i])) continue next;
      if (t < base) base = t;
      if (t > max) max = t;
    }
    if (max - base >= U32 || !Number.isSafeInteger(base + U32)) continue;
    const off = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      off[i] = Math.round(start[i] * per) - base;
      // What the page computes, checked as it will compute it (a -0 does not come back so).
      if (!Object.is((base + off[i]) / per, start[i])) continue next;
    }
    return { per, base: Float64Array.of(base), off };
  }
  return undefined;
}

/** `end` as each item's duration in ticks of 1/`per` after its start, when that gives every end back exactly. */
function endTicks(start: Float64Array, end: Float64Array, per: number): Durations | undefined {
  const dur = new Uint32Array(end.length);
  for (let i = 0; i < end.length; i++) {
    const d = Math.round((end[i] - start[i]) * per);
    if (!(d >= 0 && d < U32) || !Object.is(start[i] + d / per, end[i])) return undefined;
    dur[i] = d;
  }
  return { per, dur };
}

/** A last line as its item's line plus `after` (narrowed), when every one is at or after it. */
function lastLineAfter(line: Uint32Array, last: Uint32Array): { after: Column } | undefined {
  const d = new Uint32Array(last.length);
  for (let i = 0; i < last.length; i++) {
    if (last[i] < line[i]) return undefined;
    d[i] = last[i] - line[i];
  }
  return { after: narrow(d) };
}

/** The model as the host posts it; the page's `unpackModel` gives back the same model. */
export function packModel(m: TimelineModel): Wire {
  const items: Wire = {};
  for (const k of ITEM_COLUMNS) items[k] = packColumn(m.items[k], k !== 'start');
  const ticks = startTicks(m.items.start);
  if (ticks) {
    items.start = ticks;
    // A filled end column (every end the same) is smaller still.
    const ends = ArrayBuffer.isView(items.end) ? endTicks(m.items.start, m.items.end, ticks.per) : undefined;
    if (ends) items.end = ends;
  }
  const out: Wire = { ...m, items };
  if (m.lastLine) out.lastLine = lastLineAfter(m.items.line, m.lastLine) ?? packColumn(m.lastLine, true);
  if (m.chars) out.chars = Object.fromEntries(Object.entries(m.chars).map(([k, a]) => [k, packColumn(a as Uint32Array, true)]));
  if (m.links) out.links = Object.fromEntries(Object.entries(m.links).map(([k, a]) => [k, a === undefined ? a : narrow(a as Uint32Array)]));
  return out;
}

/**
 * A host message (protocol/timeline.ts, which imports this file) as it is posted to the page: a
 * model's packed, anything else as it is.
 */
export const toWire = (m: { type: string; model?: TimelineModel }): unknown => (m.type === 'model' && m.model ? { ...m, model: packModel(m.model) } : m);

const isObj = (x: unknown): x is Wire => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A packed column (an object of its parts), not a typed array. */
const isPacked = (x: unknown): x is Wire => isObj(x) && !ArrayBuffer.isView(x);

/**
 * A column of `type` from what the host posted: a filled one made `n` long, a narrowed Uint32 one
 * widened; anything else as it came (the model's check then says whether it is right).
 */
function unpackColumn(x: unknown, type: new (n: number) => Column, n: number): unknown {
  if (isPacked(x) && x.fill instanceof type && (x.fill as Column).length === 1) {
    const a = new type(n) as unknown as { fill(v: number): Column };
    return a.fill((x.fill as Column)[0]);
  }
  if (type === Uint32Array && (x instanceof Uint8Array || x instanceof Uint16Array)) return Uint32Array.from(x);
  return x;
}

const perOk = (per: unknown): per is number => per === 1 || per === 1000;

/** The start column from its ticks (`startTicks`), or as it came. */
function unpackStart(x: unknown): unknown {
  if (!isPacked(x) || !perOk(x.per) || !(x.base instanceof Float64Array) || x.base.length !== 1 || !(x.off instanceof Uint32Array)) return x;
  const { per, off } = x;
  const base = x.base[0];
  const out = new Float64Array(off.length);
  for (let i = 0; i < off.length; i++) out[i] = (base + off[i]) / per;
  return out;
}

/** The end column from durations after `start` (`endTicks`), or as `unpackColumn` gives it. */
function unpackEnd(x: unknown, start: Float64Array): unknown {
  if (!isPacked(x) || !perOk(x.per) || !(x.dur instanceof Uint32Array) || x.dur.length !== start.length) return unpackColumn(x, Float64Array, start.length);
  const { per, dur } = x;
  const out = new Float64Array(start.length);
  for (let i = 0; i < start.length; i++) out[i] = start[i] + dur[i] / per;
  return out;
}

/** The last lines from their items' lines (`lastLineAfter`), or as `unpackColumn` gives them. */
function unpackLastLine(x: unknown, line: unknown, n: number): unknown {
  if (!isPacked(x) || !(line instanceof Uint32Array) || line.length !== n) return unpackColumn(x, Uint32Array, n);
  const after = x.after;
  if (!(after instanceof Uint8Array || after instanceof Uint16Array || after instanceof Uint32Array) || after.length !== n) return x;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = line[i] + after[i];
  return out;
}

/**
 * The model the host built, from what `packModel` posted (a model posted as it is passes through).
 * Filled columns are as long as the start column, which is never filled (it comes as its values
 * or one offset each), so no message makes the page allocate more than the items it carries.
 */
export function unpackModel(x: unknown): unknown {
  if (!isObj(x) || !isObj(x.items)) return x;
  const start = unpackStart(x.items.start);
  if (!(start instanceof Float64Array)) return x;
  const n = start.length;
  const items: Wire = {};
  for (const k of ITEM_COLUMNS) items[k] = k === 'start' ? start : k === 'end' ? unpackEnd(x.items.end, start) : unpackColumn(x.items[k], ITEM_COLUMN_TYPES[k], n);
  const out: Wire = { ...x, items };
  if (x.lastLine !== undefined) out.lastLine = unpackLastLine(x.lastLine, items.line, n);
  if (isObj(x.chars)) out.chars = Object.fromEntries(Object.entries(x.chars).map(([k, a]) => [k, unpackColumn(a, Uint32Array, n)]));
  // Links are as many as `from` holds; each of their columns is only ever narrowed.
  if (isObj(x.links)) out.links = Object.fromEntries(Object.entries(x.links).map(([k, a]) => [k, a instanceof Uint8Array || a instanceof Uint16Array ? Uint32Array.from(a) : a]));
  return out;
}
