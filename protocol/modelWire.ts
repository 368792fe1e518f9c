/**
 * A timeline model as it crosses to the page, in fewer bytes: a column whose every element is the
 * same value goes as that value (`{ fill }`), and a Uint32 column whose values all fit 8 or 16 bits
 * goes as a Uint8Array or Uint16Array. The page widens it back (`unpackModel`) before it checks the
 * model, so everything after sees the model the host built, element for element.
 *
 * Why: in code-server (VS Code in a browser) the extension host's messages to the page cross a
 * WebSocket with per-message deflate, so every byte is compressed and inflated again on the way, at
 * the machine's load. A PyTorch trace's model has columns no Chrome event fills (`id`: NaN,
 * `endLine`: none) and string and context indices below 2^16: about 30 % of the 0.9 MB model of
 * the 21k-event training trace (docs/timeline.md).
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

/** The model as the host posts it; the page's `unpackModel` gives back the same model. */
export function packModel(m: TimelineModel): Wire {
  const items: Wire = {};
  for (const k of ITEM_COLUMNS) items[k] = packColumn(m.items[k], k !== 'start');
  const out: Wire = { ...m, items };
  if (m.lastLine) out.lastLine = packColumn(m.lastLine, true);
  if (m.chars) out.chars = Object.fromEntries(Object.entries(m.chars).map(([k, a]) => [k, packColumn(a as Uint32Array, true)]));
  if (m.links) out.links = Object.fromEntries(Object.entries(m.links).map(([k, a]) => [k, a === undefined ? a : narrow(a as Uint32Array)]));
  return out;
}

const isObj = (x: unknown): x is Wire => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A column of `type` from what the host posted: a filled one made `n` long, a narrowed Uint32 one
 * widened; anything else as it came (the model's check then says whether it is right).
 */
function unpackColumn(x: unknown, type: new (n: number) => Column, n: number): unknown {
  if (isObj(x) && !ArrayBuffer.isView(x) && x.fill instanceof type && (x.fill as Column).length === 1) {
    const a = new type(n) as unknown as { fill(v: number): Column };
    return a.fill((x.fill as Column)[0]);
  }
  if (type === Uint32Array && (x instanceof Uint8Array || x instanceof Uint16Array)) return Uint32Array.from(x);
  return x;
}

/**
 * The model the host built, from what `packModel` posted (a model posted as it is passes through).
 * Filled columns are as long as the start column, which is never filled, so no message makes the
 * page allocate more than the items it carries.
 */
export function unpackModel(x: unknown): unknown {
  if (!isObj(x) || !isObj(x.items) || !(x.items.start instanceof Float64Array)) return x;
  const n = x.items.start.length;
  const items: Wire = {};
  for (const k of ITEM_COLUMNS) items[k] = unpackColumn(x.items[k], ITEM_COLUMN_TYPES[k], n);
  const out: Wire = { ...x, items };
  if (x.lastLine !== undefined) out.lastLine = unpackColumn(x.lastLine, Uint32Array, n);
  if (isObj(x.chars)) out.chars = Object.fromEntries(Object.entries(x.chars).map(([k, a]) => [k, unpackColumn(a, Uint32Array, n)]));
  if (isObj(x.links)) {
    const links = x.links;
    // Links are as many as `from` holds; each of their columns is only ever narrowed.
    out.links = Object.fromEntries(Object.entries(links).map(([k, a]) => [k, a instanceof Uint8Array || a instanceof Uint16Array ? Uint32Array.from(a) : a]));
  }
  return out;
}
