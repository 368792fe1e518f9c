import type { InferscopeDocument } from '../../inferscope/document';
import { str } from '../../inferscope/model';
import { validRange } from '../../inferscope/scopeChecks';
import { timesOf } from '../../inferscope/times';
import { ROW_GROUP_ROWS, Table, type RowGroupSink } from './table';

type Fit = (v: unknown) => unknown;
const INT32_MAX = 2 ** 31 - 1;
const int32: Fit = (v) => (Number.isInteger(v) && Math.abs(v as number) <= INT32_MAX ? v : undefined);
const int64: Fit = (v) => (Number.isSafeInteger(v) ? BigInt(v as number) : undefined);
const text: Fit = (v) => (typeof v === 'string' ? v : undefined);
const double: Fit = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The metadata fields with a column of their own (data model §1.2), in column order. */
const TYPED_METADATA: [string, Fit][] = [
  ['thread_id', int64], ['cpu_id', int32], ['call_depth', int32], ['parent_scope', text], ['device_id', int32], ['stream_id', int64], ['bytes', int64],
];
/** The top-level fields with a column (the times through `timesOf`), the others go to `fields`. */
const TOP = new Set(['id', 'type', 'name', 'timestamp_start_us', 'timestamp_end_us', 'timestamp_us', 'duration_us', 'wall_clock_start', 'wall_clock_end', 'metadata']);

/** Entries as a JSON object, written by hand: a `__proto__` key of the file stays a plain key. */
function jsonOf(entries: [string, unknown][]): string | null {
  return entries.length ? `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}` : null;
}

const orNull = (x: number) => (Number.isNaN(x) || !Number.isFinite(x) ? null : x);

/**
 * The `inferscope_events` and `inferscope_scopes` tables of an InferScope trace: one row per
 * element of `events` and of `relationships.scopes`, the scope times from the document's own
 * range index (the one its containment checks use).
 */
export function inferscopeRows(doc: InferscopeDocument, run: string, sink: RowGroupSink, groupRows = ROW_GROUP_ROWS): { inferscope_events: number; inferscope_scopes: number } {
  const p = doc.parsed;
  const line = (offset: number) => BigInt(doc.positionAt(offset).line + 1);
  const events = new Table('inferscope_events', sink, groupRows);
  for (const e of p.events) {
    const o = e.obj ?? {};
    const t = timesOf(e);
    const m = o.metadata !== null && typeof o.metadata === 'object' && !Array.isArray(o.metadata) ? (o.metadata as Record<string, unknown>) : undefined;
    const typed = TYPED_METADATA.map(([k, fit]) => (m && Object.hasOwn(m, k) ? fit(m[k]) : undefined));
    const restMeta = m ? Object.entries(m).filter(([k]) => {
      const at = TYPED_METADATA.findIndex(([name]) => name === k);
      return at < 0 || typed[at] === undefined;
    }) : [];
    const rest = Object.entries(o).filter(([k]) => !TOP.has(k) || (k === 'metadata' && !m));
    events.add([
      run, BigInt(e.index), line(e.start), text(o.id), text(o.type), text(o.name), orNull(t.start), orNull(t.end), double(o.duration_us),
      text(o.wall_clock_start), text(o.wall_clock_end), ...typed, jsonOf(restMeta), jsonOf(rest),
    ]);
  }
  events.flush();
  const scopes = new Table('inferscope_scopes', sink, groupRows);
  const n = p.events.length;
  for (const s of p.scopes) {
    const o = s.obj ?? {};
    const r = validRange(s, n);
    const [lo, hi] = r ? doc.times.range(r[0], r[1]) : [NaN, NaN];
    const timed = lo <= hi;
    scopes.add([
      run, BigInt(s.index), line(s.start), str(o.id), str(o.name), str(o.parent_id), Array.isArray(o.child_ids) ? JSON.stringify(o.child_ids) : null,
      r ? BigInt(r[0]) : null, r ? BigInt(r[1]) : null, r ? BigInt(r[1] - r[0] + 1) : null,
      timed ? lo : null, timed ? hi : null, timed ? hi - lo : null,
    ]);
  }
  scopes.flush();
  return { inferscope_events: p.events.length, inferscope_scopes: p.scopes.length };
}
