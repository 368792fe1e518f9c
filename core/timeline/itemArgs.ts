import { escapeControl } from '../common/escape';
import type { TimelineModel } from './model';

/** Item i's own arguments (a JSON object as text) in `m.args`, or undefined: a binary search. */
export function argsOf(m: Pick<TimelineModel, 'args'>, i: number): string | undefined {
  const a = m.args;
  if (!a) return undefined;
  let lo = 0, hi = a.item.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a.item[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return lo < a.item.length && a.item[lo] === i ? a.json[lo] : undefined;
}

/** Rows of an item's arguments the details pane shows; a value longer than this is cut. */
export const MAX_ARG_ROWS = 200;
export const MAX_ARG_CHARS_SHOWN = 500;

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/**
 * The rows of the details pane for arguments `json` (one JSON object): each name and its value as
 * JSON (a string quoted, a dict or array as its JSON text), cut, with control and bidirectional
 * characters made visible; at most MAX_ARG_ROWS, the rest counted in a last row.
 */
export function argRows(json: string): [string, string][] {
  let o: unknown;
  try {
    o = JSON.parse(json);
  } catch {
    return [['…', 'the arguments are not JSON']];
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return [['…', 'the arguments are not a JSON object']];
  const entries = Object.entries(o);
  const rows: [string, string][] = entries.slice(0, MAX_ARG_ROWS).map(([k, v]) => [escapeControl(cut(k, MAX_ARG_CHARS_SHOWN)), escapeControl(cut(JSON.stringify(v), MAX_ARG_CHARS_SHOWN))]);
  if (entries.length > MAX_ARG_ROWS) rows.push(['…', `${entries.length - MAX_ARG_ROWS} more arguments not shown`]);
  return rows;
}
