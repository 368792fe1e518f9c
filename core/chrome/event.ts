import type { Position, Range } from '../common/diagnostic';
import { findField, scanLine, valueRangeAt } from '../json/scanner';
import type { RawEvent } from './stream';

/** Every `ph` of the Trace Event Format (its document, "Event Descriptions"). */
export const KNOWN_PH = new Set(['B', 'E', 'X', 'i', 'I', 'C', 'b', 'n', 'e', 's', 't', 'f', 'P', 'N', 'O', 'D', 'M', 'S', 'T', 'p', 'F', 'V', 'v', 'R', 'c', '(', ')']);

/** A parsed event and where it is. */
export interface ChromeEvent {
  o: Record<string, unknown>;
  raw: RawEvent;
}

/** The position of offset `k` of the event's text in the document. */
export function positionIn(raw: RawEvent, k: number): Position {
  const starts = raw.lineStarts;
  if (!starts || k < starts[0]) return { line: raw.line, character: raw.character + k };
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return { line: raw.line + lo + 1, character: k - starts[lo] };
}

/** The range of the event's first line (its whole text when it is one line). */
export function eventRange(raw: RawEvent): Range {
  const end = raw.lineStarts ? raw.lineStarts[0] - 1 : raw.text.length;
  return { start: positionIn(raw, 0), end: positionIn(raw, Math.max(0, end)) };
}

/**
 * The range of a key's value in the event (of the key itself with `key: true`), or of the event's
 * first line when it has no such key. Scanned only for an event that gets a diagnostic.
 */
export function fieldRange(raw: RawEvent, name: string, key = false): Range {
  const f = findField(scanLine(raw.text), name);
  if (!f) return eventRange(raw);
  return key ? { start: positionIn(raw, f.keyStart), end: positionIn(raw, f.keyEnd) } : { start: positionIn(raw, f.valueStart), end: positionIn(raw, f.valueEnd) };
}

/**
 * The value source text of a key of the event, as written (a number JSON.parse turned into
 * Infinity, or rounded, is quoted as the user wrote it); undefined when the event has no such key.
 */
export function fieldText(raw: RawEvent, name: string): string | undefined {
  const f = findField(scanLine(raw.text), name);
  return f && raw.text.slice(f.valueStart, f.valueEnd);
}

// Anchored, one way to match each character: linear. Longer strings are no timestamp.
const NUMERIC = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** A number, or a string holding one (read, with `fromString`); undefined otherwise, and for a number out of a double's range. */
export function readNumber(v: unknown): { n: number; fromString: boolean } | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return { n: v, fromString: false };
  if (typeof v === 'string' && v.length <= 64 && NUMERIC.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? { n, fromString: true } : undefined;
  }
  return undefined;
}

/**
 * Whether a value is a number (or a string holding one) beyond a double's range: JSON.parse reads
 * `1e400` as Infinity, which JSON.stringify writes back as null.
 */
export function outOfRange(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  return typeof v === 'string' && v.length <= 64 && NUMERIC.test(v) && !Number.isFinite(Number(v));
}

/** A pid or tid as a key: 7 and "7" are one thread, as Chrome reads them; absent is "". */
export function idKey(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : '';
}

/** The id of an async or flow event: `id`, else `id2.local`/`id2.global`, else `bind_id`. */
export function eventId(o: Record<string, unknown>): string | undefined {
  if (typeof o.id === 'number' || typeof o.id === 'string') return String(o.id);
  const id2 = o.id2;
  if (typeof id2 === 'object' && id2 !== null) {
    const r = id2 as Record<string, unknown>;
    if (typeof r.local === 'number' || typeof r.local === 'string') return `local:${r.local}`;
    if (typeof r.global === 'number' || typeof r.global === 'string') return `global:${r.global}`;
  }
  if (typeof o.bind_id === 'number' || typeof o.bind_id === 'string') return String(o.bind_id);
  return undefined;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** The range of the value at `path` inside the event (`["args", "value"]`), else of the event's first line. */
export function pathRange(raw: RawEvent, path: readonly string[]): Range {
  const r = valueRangeAt(raw.text, 0, path);
  return r ? { start: positionIn(raw, r[0]), end: positionIn(raw, r[1]) } : eventRange(raw);
}

/** The range of the whole event, from its `{` to its `}`. */
export function wholeRange(raw: RawEvent): Range {
  return { start: positionIn(raw, 0), end: positionIn(raw, raw.text.length) };
}
