// What the streamed InferScope reader keeps of each event and scope: a million events fit only when
// the wall clocks, pointers and repeated strings they carry are not held once per event.

const METADATA = ['thread_id', 'device_id', 'stream_id', 'bytes', 'kind', 'throughput_gbps', 'occupancy', 'operation'] as const;

/** Most distinct short strings kept shared (types, names, copy kinds): a million events repeat a few. */
const MAX_SHARED = 100000;

/** Which fields a reader keeps: an event's top-level and metadata keys, a scope's keys. */
export interface KeptFields {
  top: readonly string[];
  meta: readonly string[];
  scope: readonly string[];
}

/** What the analysis and the streamed check read (the timeline reads less: `core/inferscope/timeline.ts`). */
export const KEPT_FIELDS: KeptFields = {
  // The last five are the Profiler's layout's own (`profilerLayout.ts`), absent from data-model events.
  top: ['id', 'type', 'name', 'timestamp_start_us', 'timestamp_end_us', 'timestamp_us', 'duration_us', 'thread_id', 'stream_id', 'bytes', 'filename', 'lineno'],
  meta: METADATA,
  scope: ['id', 'name', 'parent_id', 'child_ids', 'event_range'],
};

/**
 * The `fields` of an event; the rest (wall clocks, pointers) is dropped, and repeated short strings
 * other than ids are shared, not held once per event.
 */
export function slimEvent(o: Record<string, unknown>, shared?: Map<string, string>, fields: KeptFields = KEPT_FIELDS): Record<string, unknown> {
  const share = (v: unknown) => {
    if (!shared || typeof v !== 'string' || v.length > 64) return v;
    const s = shared.get(v);
    if (s !== undefined) return s;
    if (shared.size < MAX_SHARED) shared.set(v, v);
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const k of fields.top) if (o[k] !== undefined) out[k] = k === 'id' ? o[k] : share(o[k]);
  const m = o.metadata;
  if (m && typeof m === 'object' && !Array.isArray(m)) {
    const mm: Record<string, unknown> = {};
    for (const k of fields.meta) if ((m as Record<string, unknown>)[k] !== undefined) mm[k] = share((m as Record<string, unknown>)[k]);
    out.metadata = mm;
  }
  return out;
}

/** The `fields.scope` of a scope. */
export function slimScope(o: Record<string, unknown>, fields: KeptFields = KEPT_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields.scope) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
