// The Parquet tables of an NPU trace export (issue #20). The README's "Export to Parquet" tables
// are these lists: a column is only ever added, never renamed, retyped or removed, so a directory
// of exports from different versions stays one dataset.

/** Parquet physical types used: strings are UTF-8 byte arrays, every column is nullable. */
export type ColumnType = 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN';

export interface ColumnDef {
  name: string;
  type: ColumnType;
  unit: string;
  meaning: string;
}

const c = (name: string, type: ColumnType, unit: string, meaning: string): ColumnDef => ({ name, type, unit, meaning });

const RUN = c('run', 'STRING', '', 'the exported file: `--run-id`, else the file name without its directory');

export const EVENTS_COLUMNS: ColumnDef[] = [
  RUN,
  c('line', 'INT64', 'line', 'line of the event in the file, 1-based'),
  c('event_type', 'STRING', '', 'event_type; null when the line is not a JSON object'),
  c('t_cycle', 'INT64', 'cycle', 't_cycle (exact beyond 2^53); null when absent or not an integer'),
  c('t_ns', 'DOUBLE', 'ns', 't_ns'),
  c('sim_id', 'STRING', '', 'sim_id'),
  c('npu_id', 'INT32', '', 'npu_id'),
  c('core_id', 'INT32', '', 'core_id'),
  c('tenant_id', 'INT32', '', 'tenant_id'),
  c('thread_id', 'INT32', '', 'thread_id'),
  c('cmd_id', 'INT64', '', 'cmd_id, exact (never a double)'),
  c('job_id', 'INT64', '', 'job_id, exact'),
  c('tx_id', 'INT64', '', 'tx_id, exact'),
  c('phase', 'STRING', '', 'phase'),
  c('layer_id', 'STRING', '', 'layer_id, as text (a number or a name)'),
  c('fields', 'STRING', 'JSON', 'the other fields of the line as a JSON object, and any of the above whose value did not fit its column (an integer beyond a double, such as an id beyond int64, as its digits in a JSON string); null when none'),
];

export const SPANS_COLUMNS: ColumnDef[] = [
  RUN,
  c('kind', 'STRING', '', 'CMD, JOB, TE, VE, DMA, DRAM or NOC'),
  c('id', 'INT64', '', 'the pairing id (exact): cmd_id (CMD), job_id (JOB, TE, VE), tx_id (DMA, DRAM, NOC)'),
  c('npu_id', 'INT32', '', 'npu_id of the START, else of its command, else 0 (as `npu-trace stats`)'),
  c('core_id', 'INT32', '', 'core_id of the START, else of its command, else 0'),
  c('resource', 'STRING', '', '`npu0.core1` (CMD, JOB, TE, VE), `dma.ch2`, `dram.ch0`, `noc.link1`'),
  c('start', 'INT64', 'cycle', 't_cycle of the START'),
  c('end', 'INT64', 'cycle', 't_cycle of the END'),
  c('dur', 'INT64', 'cycle', 'end − start'),
  c('cmd_id', 'INT64', '', 'the command the span belongs to'),
  c('phase', 'STRING', '', 'phase of the command (its CMD_ENQUEUE, else its CMD_START)'),
  c('layer_id', 'STRING', '', 'layer_id of the command, as text'),
  c('size_bytes', 'INT64', 'byte', 'size_bytes of the START, else of the END'),
  c('direction', 'STRING', '', 'direction of a DMA'),
  c('status', 'STRING', '', 'status of the END'),
  c('start_line', 'INT64', 'line', 'line of the START'),
  c('end_line', 'INT64', 'line', 'line of the END'),
];

export const COMMANDS_COLUMNS: ColumnDef[] = [
  RUN,
  c('cmd_id', 'INT64', '', 'cmd_id'),
  c('cmd_type', 'STRING', '', 'cmd_type'),
  c('npu_id', 'INT32', '', 'npu_id'),
  c('core_id', 'INT32', '', 'core_id'),
  c('tenant_id', 'INT32', '', 'tenant_id'),
  c('model_name', 'STRING', '', 'model_name'),
  c('phase', 'STRING', '', 'phase'),
  c('layer_id', 'STRING', '', 'layer_id, as text'),
  c('enqueue', 'INT64', 'cycle', 't_cycle of CMD_ENQUEUE; null without one'),
  c('start', 'INT64', 'cycle', 't_cycle of CMD_START'),
  c('end', 'INT64', 'cycle', 't_cycle of CMD_END'),
  c('queue_wait', 'INT64', 'cycle', 'start − enqueue'),
  c('dur', 'INT64', 'cycle', 'end − start (the latency `npu-trace stats` sums per phase and layer)'),
  c('status', 'STRING', '', 'status of CMD_END'),
  c('jobs', 'INT32', '', 'JOB_ISSUE/JOB_DONE pairs of the command closed before its CMD_END'),
  c('dma_bytes', 'INT64', 'byte', 'size_bytes of its DMA transfers closed before its CMD_END'),
  c('enqueue_line', 'INT64', 'line', 'line of CMD_ENQUEUE'),
  c('end_line', 'INT64', 'line', 'line of CMD_END'),
];

/** The other formats with a timeline (NNAPI systraces, Chrome Trace JSON, InferScope, Perfetto): one row per drawn item. */
export const SLICES_COLUMNS: ColumnDef[] = [
  RUN,
  c('format', 'STRING', '', '`nnapi-systrace`, `chrome-trace`, `inferscope` or `perfetto`'),
  c('track', 'STRING', '', 'the timeline track, its groups first: `pid 1234 / binder:1234_2`'),
  c('lane', 'INT32', '', 'the lane of the track (0 for the first): a slice nested in another is on a later lane'),
  c('kind', 'STRING', '', '`slice` or `marker` (an instant), or the NPU kind name of an InferScope event'),
  c('name', 'STRING', '', 'the slice name (the section name, the event name)'),
  c('start', 'DOUBLE', '`unit`', 'start time'),
  c('end', 'DOUBLE', '`unit`', 'end time (= start for a marker)'),
  c('dur', 'DOUBLE', '`unit`', 'end − start'),
  c('unit', 'STRING', '', 'unit of start, end and dur: `µs` for these formats'),
  c('id', 'INT64', '', 'the item id where the format gives one'),
  c('phase', 'STRING', '', 'phase attribute (InferScope, Chrome args)'),
  c('layer_id', 'STRING', '', 'layer (NNAPI operation layer, InferScope layer)'),
  c('model_name', 'STRING', '', 'model name where the format gives one'),
  c('problem', 'STRING', '', '`no end`, `no start`, `end before start` or `failed`; null for a sound slice'),
  c('line', 'INT64', 'line', 'source line of the start (or of the marker), 1-based'),
  c('end_line', 'INT64', 'line', 'source line of the end'),
  c('self', 'DOUBLE', '`unit`', 'dur less the slices of the next lane of the track that lie within it (its nested scopes)'),
  c('args', 'STRING', '', 'the item\'s own arguments as one JSON object (Perfetto: the track event\'s debug annotations); null when it has none, and for the other formats'),
];

// The tables of one format only are named after it (`nnapi_scopes`, not `scopes`): a directory
// of exports of many formats stays one schema per file name for `read_parquet('exports/*/X.parquet')`.

const RUN_INDEX = c('run_index', 'INT32', '', 'the NNAPI run in the file (the app\'s `[NN_LA_PO]` marks), 1-based');
const MARK = c('starting_mark', 'STRING', '', 'text of the run\'s `[NN_LA_PO]` mark; empty when the trace has none');

/** NNAPI systraces: one row per run (`npu-trace nnapi-stats`). */
export const NNAPI_RUNS_COLUMNS: ColumnDef[] = [
  RUN, RUN_INDEX, MARK,
  c('start_line', 'INT64', 'line', 'line of the starting mark, 1-based; null without one'),
  c('complete', 'BOOLEAN', '', 'the run has its numbers (the reference prints none for an incomplete run: no `nnapi_scopes` rows)'),
  c('violations', 'INT32', '', 'nesting violations in the run (rules §5; the reference would refuse it)'),
  c('has_warmup_and_benchmark', 'BOOLEAN', '', 'both warm-up (`PWU`) and benchmark (`PBM`) scopes: execution is also split per app phase'),
  c('executions_po', 'INT32', '', 'execution count of `PO` (max over threads)'),
  c('executions_pwu', 'INT32', '', 'execution count of `PWU`'),
  c('executions_pbm', 'INT32', '', 'execution count of `PBM`'),
];

/** NNAPI systraces: the `times` and `self_times` cells of `npu-trace nnapi-stats --json`, one row per cell. */
export const NNAPI_SCOPES_COLUMNS: ColumnDef[] = [
  RUN, RUN_INDEX, MARK,
  c('app_phase', 'STRING', '', 'null for the whole run; `PWU` or `PBM` for the execution cells split per warm-up / benchmark'),
  c('phase', 'STRING', '', '`PO` (overall), `PI PP PC PE PT`, or an execution subphase `PIO PTR PCO PR`'),
  c('layer', 'STRING', '', '`LA LR LI LD LC`, or `LT` (the total row: the max over the layers)'),
  c('total_ms', 'DOUBLE', 'ms', 'total time of the layer in the phase over all threads (rules §6); null when missing'),
  c('self_ms', 'DOUBLE', 'ms', 'its self time: the total less its callee layer\'s (rules §6); null when missing'),
];

const INDEX = (what: string) => c('index', 'INT64', '', `position of the ${what} in its array, 0-based (the \`event_range\` index for events)`);

/** InferScope traces: one row per element of `events` (data model §1.2, every type). */
export const INFERSCOPE_EVENTS_COLUMNS: ColumnDef[] = [
  RUN, INDEX('event'),
  c('line', 'INT64', 'line', 'line where the event starts in the file, 1-based'),
  c('id', 'STRING', '', 'id'),
  c('type', 'STRING', '', '`cpu_call`, `cpu_syscall`, `gpu_kernel`, `h2d_copy`, `d2h_copy`, `memory_event` or `instant` (as written)'),
  c('name', 'STRING', '', 'name'),
  c('start_us', 'DOUBLE', 'µs', '`timestamp_start_us`; an instant\'s `timestamp_us`'),
  c('end_us', 'DOUBLE', 'µs', '`timestamp_end_us`; an instant\'s `timestamp_us`'),
  c('duration_us', 'DOUBLE', 'µs', '`duration_us` as written'),
  c('wall_clock_start', 'STRING', '', 'wall_clock_start (ISO 8601, as written)'),
  c('wall_clock_end', 'STRING', '', 'wall_clock_end'),
  c('thread_id', 'INT64', '', 'metadata.thread_id (cpu_call)'),
  c('cpu_id', 'INT32', '', 'metadata.cpu_id (cpu_call)'),
  c('call_depth', 'INT32', '', 'metadata.call_depth (cpu_call)'),
  c('parent_scope', 'STRING', '', 'metadata.parent_scope (cpu_call)'),
  c('device_id', 'INT32', '', 'metadata.device_id (gpu_kernel, h2d_copy, d2h_copy)'),
  c('stream_id', 'INT64', '', 'metadata.stream_id (gpu_kernel)'),
  c('bytes', 'INT64', 'byte', 'metadata.bytes (cpu_syscall, h2d_copy, d2h_copy, memory_event)'),
  c('metadata', 'STRING', 'JSON', 'the other metadata fields as a JSON object, and any of the above whose value did not fit its column; null when none'),
  c('fields', 'STRING', 'JSON', 'the event\'s other top-level fields (beside id, type, name, the times, metadata) as a JSON object; null when none'),
];

/** InferScope traces: one row per element of `relationships.scopes`. */
export const INFERSCOPE_SCOPES_COLUMNS: ColumnDef[] = [
  RUN, INDEX('scope'),
  c('line', 'INT64', 'line', 'line where the scope starts in the file, 1-based'),
  c('id', 'STRING', '', 'id'),
  c('name', 'STRING', '', 'name'),
  c('parent_id', 'STRING', '', 'parent_id; null for a root'),
  c('child_ids', 'STRING', 'JSON', 'child_ids as a JSON array'),
  c('first_event', 'INT64', '', 'event_range[0] (inclusive); both null when the range is not two indexes in order inside `events`'),
  c('last_event', 'INT64', '', 'event_range[1] (inclusive)'),
  c('events', 'INT64', '', 'events in the range: last_event − first_event + 1'),
  c('start_us', 'DOUBLE', 'µs', 'earliest start of the events in the range (as the scope checks compute it); null when none has times'),
  c('end_us', 'DOUBLE', 'µs', 'latest end of the events in the range'),
  c('dur_us', 'DOUBLE', 'µs', 'end_us − start_us'),
];

/** Kernel-profiler buffers: one row per region (START..END of one event in one lane), every launch. */
export const KPROF_REGIONS_COLUMNS: ColumnDef[] = [
  RUN,
  c('launch', 'INT32', '', 'the launch in the file (a 2-D `.npy` or an `.npz` holds several), 0-based'),
  c('block', 'INT32', '', 'thread block'),
  c('group', 'INT32', '', 'warp group in the block'),
  c('lane', 'INT32', '', 'block × groups + group (the lane of `npu-trace kprof`)'),
  c('event', 'INT32', '', 'event index'),
  c('name', 'STRING', '', 'event name (`--names`, the `.npz` names or the sidecar `.names.json`/`.names.txt`; else `event<N>`)'),
  c('start', 'INT64', 'ns', 'START record, ns after the launch\'s earliest record (timer wraps unwrapped)'),
  c('end', 'INT64', 'ns', 'END record, on the same clock'),
  c('dur', 'INT64', 'ns', 'end − start (what `npu-trace kprof` sums per event)'),
  c('start_slot', 'INT32', '', 'slot of the START record in the buffer'),
  c('end_slot', 'INT32', '', 'slot of the END record'),
];

export const NPU_TABLES = { events: EVENTS_COLUMNS, spans: SPANS_COLUMNS, commands: COMMANDS_COLUMNS } as const;
export type NpuTable = keyof typeof NPU_TABLES;
export const TABLES = { ...NPU_TABLES, slices: SLICES_COLUMNS, nnapi_runs: NNAPI_RUNS_COLUMNS, nnapi_scopes: NNAPI_SCOPES_COLUMNS,
  inferscope_events: INFERSCOPE_EVENTS_COLUMNS, inferscope_scopes: INFERSCOPE_SCOPES_COLUMNS,
  kprof_regions: KPROF_REGIONS_COLUMNS } as const;
export type TableName = keyof typeof TABLES;
