import type { TraceLine } from './line';
import { findField, scanLine } from '../json/scanner';

/** Character range of the value (or key) of `key` on a line, or of the whole object when absent. */
export function locate(text: string, key: string, part: 'key' | 'value' = 'value'): [number, number] {
  const scan = scanLine(text);
  const f = findField(scan, key);
  if (f) return part === 'key' ? [f.keyStart, f.keyEnd] : [f.valueStart, f.valueEnd];
  const et = findField(scan, 'event_type');
  if (et) return [et.valueStart, et.valueEnd];
  return [scan.objStart, Math.max(scan.objStart + 1, Math.min(text.length, scan.objEnd || text.length))];
}

/** Range of the value of `key` on a line: the one its parser kept (the byte fast path), else located in its text. */
export function locateIn(l: TraceLine, key: string): [number, number] {
  return l.rangeOf?.(key) ?? locate(l.text, key);
}

/** Exact source text of a number value (JSON.parse rounds integers beyond 2^53). */
export function rawValue(text: string, key: string): string | undefined {
  const f = findField(scanLine(text), key);
  return f ? text.slice(f.valueStart, f.valueEnd) : undefined;
}
