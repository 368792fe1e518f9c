// The Parquet tables of an NPU trace export (issue #20). The README's "Export to Parquet" tables
// are these lists: a column is only ever added, never renamed, retyped or removed, so a directory
// of exports from different versions stays one dataset.

/** Parquet physical types used: strings are UTF-8 byte arrays, every column is nullable. */
export type ColumnType = 'STRING' | 'INT32' | 'INT64' | 'DOUBLE';

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

/** The other formats with a timeline (NNAPI systraces, Chrome Trace JSON, InferScope): one row per drawn item. */
export const SLICES_COLUMNS: ColumnDef[] = [
  RUN,
  c('format', 'STRING', '', '`nnapi-systrace`, `chrome-trace` or `inferscope`'),
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
];

export const NPU_TABLES = { events: EVENTS_COLUMNS, spans: SPANS_COLUMNS, commands: COMMANDS_COLUMNS } as const;
export type NpuTable = keyof typeof NPU_TABLES;
export const TABLES = { ...NPU_TABLES, slices: SLICES_COLUMNS } as const;
export type TableName = keyof typeof TABLES;
