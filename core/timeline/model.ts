/**
 * A format-neutral timeline: tracks (grouped into a tree), rows of items (spans and instants)
 * stored as typed-array columns, and counters. Every format only adds a builder that produces it;
 * the webview draws it without knowing where it came from.
 *
 * Items are sorted by row, then by start, and `rowItemStart` gives each row's range, so the
 * renderer finds the visible part of a row with a binary search. Strings (names, attribute
 * values) live once in `strings`; columns hold indices into it.
 */
import type { FormatTable } from './formatTables';
import type { TraceStats } from '../trace/metrics/types';

/** What an item is; decides its default colour and how it is described. */
export const KIND = {
  command: 0, job: 1, te: 2, ve: 3, dma: 4, dram: 5, noc: 6,
  irq: 7, token: 8, sramConflict: 9, error: 10, warn: 11,
  /** A generic slice of a format without fixed resources (NNAPI B/E scopes). */
  slice: 12,
  /** A generic instant of such a format (NNAPI violations). */
  marker: 13,
} as const;
export type Kind = (typeof KIND)[keyof typeof KIND];
export const KIND_NAMES: readonly string[] = ['command', 'job', 'TE', 'VE', 'DMA', 'DRAM', 'NoC', 'IRQ', 'token', 'SRAM conflict', 'error', 'warning', 'slice', 'marker'];

/** Bits of the `flags` column. */
export const FLAG = {
  /** Drawn as a point, not a span. */
  instant: 1,
  /** A START with no END: drawn up to the end of the trace. */
  unmatchedStart: 2,
  /** An END with no START: drawn as a point at the END. */
  unmatchedEnd: 4,
  /** END earlier than START: drawn between the two, marked. */
  endBeforeStart: 8,
  /** The event reports a failure (status other than OK, ERROR events). */
  failed: 16,
  /** The source line has a diagnostic of its own (bad field type, wrong value...). */
  invalid: 32,
} as const;
export const BROKEN = FLAG.unmatchedStart | FLAG.unmatchedEnd | FLAG.endBeforeStart | FLAG.invalid;

/** Attributes items can be coloured and filtered by; `ctxAttrs` holds one string index per name. */
export const ATTRS = ['phase', 'layer_id', 'cmd_id', 'tenant_id', 'model_name'] as const;
export type AttrName = (typeof ATTRS)[number];

/**
 * What each ATTRS slot holds in a model's format, in that format's own words ('' for a slot it does
 * not use): the details pane and the colour and filter menus show these. ATTRS itself without them.
 */
export function attrNamesOf(m: { attrNames?: readonly string[] }): readonly string[] {
  return m.attrNames ?? ATTRS;
}

/** Marks "no line" in `line`/`endLine`. */
export const NO_LINE = 0xffffffff;

export interface TrackInfo {
  name: string;
  /** Index of the parent track (a group), or -1 at the top. */
  parent: number;
  kind: 'group' | 'slices' | 'counter';
  /** First row of this track and how many (slices tracks only; one row per lane). */
  rowStart: number;
  rowCount: number;
  /** Index into `counters` (counter tracks only). */
  counter: number;
  /** Bits of TRACK_FLAG about the whole track (absent: none). */
  flags?: number;
}

/** Bits of a track's `flags`. */
export const TRACK_FLAG = {
  /** A profiler-buffer lane whose cursor ran past the buffer's end: its records were probably lost. */
  bufferFull: 1,
} as const;

export interface Counter {
  name: string;
  /**
   * 'fraction' (0..1, drawn as a heatmap), 'bytes/cycle' (drawn as a bar chart), or for values a
   * file gives (Chrome `C` events) the key they came under (`value`, `bytes`…), drawn as bars too.
   */
  unit: string;
  /** Start time of bucket 0 and the width of a bucket, in cycles. */
  t0: number;
  bucket: number;
  values: Float32Array;
}

/** The columns, one entry per item. 46 bytes per span (two events), 46 per instant. */
export interface ItemColumns {
  start: Float64Array;
  end: Float64Array;
  /** Source line of the START (or of the instant / lone END), 0-based. */
  line: Uint32Array;
  /** Source line of the END, or NO_LINE. */
  endLine: Uint32Array;
  /** String index of the item's name (cmd_type, job_type, op_type, event type...). */
  name: Uint32Array;
  /** The item's own id (cmd_id, job_id, tx_id...), NaN when none. */
  id: Float64Array;
  /** Index of the item's context (its attribute values) in `ctxAttrs`. */
  ctx: Uint32Array;
  /** Bytes moved (transfers), 0 otherwise. */
  bytes: Float32Array;
  kind: Uint8Array;
  flags: Uint8Array;
}

export interface TimelineModel {
  /** The format that produced it, e.g. 'npu-trace'. */
  format: string;
  strings: string[];
  tracks: TrackInfo[];
  /** rowCount + 1 entries: row r holds items [rowItemStart[r], rowItemStart[r+1]). */
  rowItemStart: Uint32Array;
  /** Longest item per row, so a search by start can find items that began before the view. */
  rowMaxDur: Float64Array;
  items: ItemColumns;
  /** ATTRS.length string indices per context; index 0 of `strings` is '' (absent). */
  ctxAttrs: Uint32Array;
  counters: Counter[];
  /** Time range of all drawn items, in cycles. */
  t0: number;
  t1: number;
  /** Nanoseconds per cycle when `t_ns` or a clock in the trace allows; otherwise undefined. */
  nsPerCycle: number | undefined;
  /** Lines read, and lines that could not be drawn (no JSON object, no time, unknown type). */
  lineCount: number;
  undrawable: number;
  /** Of the undrawable, events too large to read (a Chrome event over 16 MB): an export says how many it left out. */
  tooLarge?: number;
  /** Unit of the time axis: 'cycles' when absent (NPU traces); NNAPI systraces use 'µs'. */
  unit?: string;
  /** Attribute to colour by when the view opens (NNAPI: by layer); by kind when absent. */
  colourBy?: AttrName;
  /** The format's name of each ATTRS slot ('' unused); absent: the NPU trace's (see `attrNamesOf`). */
  attrNames?: readonly string[];
  /**
   * The trace metrics (`npu-trace stats`) of the whole file, computed from the same parse; only
   * in a complete NPU trace model, never in a preview.
   */
  stats?: TraceStats;
  /**
   * A format's own Summary tables (NNAPI's timing summary, InferScope's analysis: `formatTables.ts`),
   * capped; only in a complete model, never in a preview.
   */
  summaryTables?: FormatTable[];
  /** Arrows between items (Chrome flows: a CPU op → the kernel it launched); absent when none. */
  links?: Links;
  /**
   * Where each item's source events start and end within their line, for formats that put many
   * events on one line (a Chrome trace written by `json.dump` without indent); absent otherwise.
   */
  chars?: SourceChars;
  /**
   * The last source line of each item's (start) event, for formats whose events span lines (a
   * pretty-printed Chrome trace: `export_chrome_trace` writes one field a line), so the cursor on any
   * line of an event finds its item; absent when every event is on one line.
   */
  lastLine?: Uint32Array;
  /**
   * Arguments of items, for a format whose events carry their own (Perfetto track events' debug
   * annotations) rather than a source line to copy: `json[k]` (one JSON object as text) belongs to
   * item `item[k]`, sorted by item; items without arguments are not listed. Present (maybe empty) in
   * such a format's model, where an export writes these as each item's `args`; absent in the others.
   */
  args?: ItemArgs;
}

export interface ItemArgs {
  item: Uint32Array;
  json: string[];
}

/**
 * Link k goes from item `from[k]` to item `to[k]` (indices in the model's item order), sorted by the
 * earlier start of the two items.
 */
export interface Links {
  from: Uint32Array;
  to: Uint32Array;
  /**
   * Per link, the string index of the flow's category and name as its source wrote them (`ac2g`),
   * 0 when it gave none; absent when no link has one. Kept so an export writes the arrow back as
   * the source named it.
   */
  cat?: Uint32Array;
  name?: Uint32Array;
}

/**
 * Per item: the characters `[char, charEnd)` its START (or instant) event takes on `line`, and
 * `[endChar, endCharEnd)` of its END event on `endLine` (0, 0 when none). An event that goes on to
 * further lines ends at the end of its first line.
 */
export interface SourceChars {
  char: Uint32Array;
  charEnd: Uint32Array;
  endChar: Uint32Array;
  endCharEnd: Uint32Array;
}

export const ITEM_COLUMNS: readonly (keyof ItemColumns)[] = ['start', 'end', 'line', 'endLine', 'name', 'id', 'ctx', 'bytes', 'kind', 'flags'];

/** The typed array each item column is (the page checks a model's columns against these). */
export const ITEM_COLUMN_TYPES: Record<keyof ItemColumns, new (n: number) => ArrayLike<number>> = {
  start: Float64Array, end: Float64Array, line: Uint32Array, endLine: Uint32Array, name: Uint32Array,
  id: Float64Array, ctx: Uint32Array, bytes: Float32Array, kind: Uint8Array, flags: Uint8Array,
};

/** The buffers of a model, for postMessage transfer lists. */
export function modelBuffers(m: TimelineModel): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const k of ITEM_COLUMNS) out.add(m.items[k].buffer as ArrayBuffer);
  out.add(m.rowItemStart.buffer as ArrayBuffer);
  out.add(m.rowMaxDur.buffer as ArrayBuffer);
  out.add(m.ctxAttrs.buffer as ArrayBuffer);
  for (const c of m.counters) out.add(c.values.buffer as ArrayBuffer);
  if (m.links) for (const a of [m.links.from, m.links.to, m.links.cat, m.links.name]) if (a) out.add(a.buffer as ArrayBuffer);
  if (m.chars) for (const a of Object.values(m.chars) as Uint32Array[]) out.add(a.buffer as ArrayBuffer);
  if (m.lastLine) out.add(m.lastLine.buffer as ArrayBuffer);
  if (m.args) out.add(m.args.item.buffer as ArrayBuffer);
  return [...out];
}

export function itemCount(m: TimelineModel): number {
  return m.items.start.length;
}
