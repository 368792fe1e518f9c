import { PAIRING_BY_END } from './eventTypes';
import type { TraceDocument } from './document';
import { tokenAt, valueRange } from './token';

export interface LineTarget {
  line: number;
  start: number;
  end: number;
}

/**
 * `cmd_id` → its CMD_ENQUEUE, `job_id` → its JOB_ISSUE, `tx_id` → the START of that transfer; on an
 * END event, the id goes to the START it closes.
 */
export function definitionAt(doc: TraceDocument, line: number, ch: number): LineTarget | undefined {
  const tok = tokenAt(doc, line, ch);
  if (!tok?.id) return undefined;
  const { key, value } = tok.id;
  const index = doc.index;
  const type = doc.lines[line].type;
  let target: number | undefined;
  const pe = type ? PAIRING_BY_END.get(type) : undefined;
  if (pe && pe.key === key) target = index.startOf(line);
  target ??= index.definition(key, value);
  if (target === undefined) return undefined;
  const r = valueRange(doc, target, key);
  return r ? { line: target, start: r[0], end: r[1] } : undefined;
}

/** Every line that carries the same id under the same key, in file order; at most `limit` of them. */
export function referencesAt(doc: TraceDocument, line: number, ch: number, includeDeclaration = true, limit = Infinity): LineTarget[] {
  const tok = tokenAt(doc, line, ch);
  if (!tok?.id) return [];
  const { key, value } = tok.id;
  const decl = includeDeclaration ? undefined : doc.index.definition(key, value);
  const out: LineTarget[] = [];
  for (const i of doc.index.linesOf(key, value)) {
    if (out.length >= limit) break;
    if (!includeDeclaration && i === decl) continue;
    const r = valueRange(doc, i, key);
    if (r) out.push({ line: i, start: r[0], end: r[1] });
  }
  return out;
}
