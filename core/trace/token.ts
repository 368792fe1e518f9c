import type { IdKey } from './eventTypes';
import type { TraceDocument } from './document';
import { fieldAt, findField, scanLine, type ScannedField } from '../json/scanner';
import type { Id } from './line';

export interface TokenAt {
  line: number;
  field: ScannedField;
  onValue: boolean;
  /** Set when the token is the value of an id field. */
  id?: { key: IdKey; value: Id };
}

const ID_KEYS = new Set<string>(['cmd_id', 'job_id', 'tx_id']);

/** The key or value under the cursor, found by scanning only that line. */
export function tokenAt(doc: TraceDocument, line: number, ch: number): TokenAt | undefined {
  const l = doc.lines[line];
  if (!l?.obj) return undefined;
  const field = fieldAt(scanLine(l.text), ch);
  if (!field) return undefined;
  const onValue = ch >= field.valueStart && ch <= field.valueEnd;
  const t: TokenAt = { line, field, onValue };
  if (ID_KEYS.has(field.key)) {
    const key = field.key as IdKey;
    const value = key === 'cmd_id' ? l.cmd : key === 'job_id' ? l.job : l.tx;
    if (value !== undefined) t.id = { key, value };
  }
  return t;
}

/** Range of `key`'s value on line `i`, or undefined when that line lacks it. */
export function valueRange(doc: TraceDocument, i: number, key: string): [number, number] | undefined {
  const text = doc.lines[i]?.text;
  if (text === undefined) return undefined;
  const f = findField(scanLine(text), key);
  return f ? [f.valueStart, f.valueEnd] : undefined;
}
