/**
 * Every message between the timeline panel's host (extension) and its webview, both directions.
 * Both sides validate what they receive with the parse functions below: the webview is a separate
 * page whose messages are untrusted input, and the host must not trust a page that draws trace data.
 */
import { ATTRS, ITEM_COLUMN_TYPES, ITEM_COLUMNS, type AttrName, type TimelineModel } from '../core/timeline/model';
import type { KprofOverlap, KprofRange, KprofSummary } from '../core/kprof/summary';
import type { TraceStats } from '../core/trace/metrics/types';
import { validKprofOverlap, validKprofRange, validKprofSummary } from './kprof';
import { validStats } from './stats';
import { MAX_FORMAT_ROWS, MAX_FORMAT_TABLES, type FormatTable } from '../core/timeline/formatTables';
import type { BaselineDiff } from '../core/diff/baseline';
import { validAttrs, validBaselineDiff } from './baseline';
import { unpackModel } from './modelWire';

/** When the host began a complete model and had it (Date.now() of the extension host), for the bench. */
export interface HostTiming {
  requested: number;
  built: number;
}

/** Host → webview. */
export type HostMessage =
  /**
   * A new model for the file (after opening, reloading from disk, or an edit). `complete` is false
   * for the preview of a large file's first lines; the complete model follows.
   */
  | { type: 'model'; uri: string; fileName: string; model: TimelineModel; complete: boolean; timing?: HostTiming }
  /** Reading or building is under way. */
  | { type: 'progress'; message: string }
  /** Reading or building failed; the message says why. */
  | { type: 'error'; message: string }
  /**
   * The editor cursor moved onto this line (at `character`): select the item drawn from it, from the
   * event under the cursor when the line holds several (a one-line Chrome trace).
   */
  | { type: 'selectLine'; line: number; character?: number }
  /**
   * Show these items (an InferScope finding's cited events, by their first lines): zoom to them and
   * select the first. At most MAX_REVEAL_LINES; the page keeps it until the complete model is in.
   */
  | { type: 'revealLines'; lines: number[] }
  /** All fields of the selected item's source lines, as [key, JSON value] pairs. */
  | { type: 'details'; line: number; fields: [string, string][]; endFields: [string, string][] }
  /** "NPU Trace: Show Summary": show the Summary tab (the numbers come with the complete model). */
  | { type: 'showSummary' }
  /**
   * The metrics of the range [from, to] the page asked for, computed by the worker from the file;
   * `stats` is null while it is under way or when it failed, and `message` says which.
   */
  | { type: 'rangeStats'; from: number; to: number; stats: TraceStats | null; message: string }
  /** A kernel-profiler buffer's header facts and statistics tables (after its model). */
  | { type: 'kprofSummary'; summary: KprofSummary }
  /** The overlap of the two groups the page asked for; null with a message when it cannot be computed. */
  | { type: 'kprofOverlap'; overlap: KprofOverlap | null; message: string }
  /** A profiler buffer's answer to `rangeStats`: its regions' statistics in the range. */
  | { type: 'kprofRange'; range: KprofRange }
  /**
   * The baseline pinned for the file's format (desktop only): its name as the workspace names it,
   * '' when none is; `self` when it is the file shown. Sent when the page listens and on every change.
   */
  | { type: 'baselinePinned'; name: string; self: boolean }
  /**
   * The answer to `baseline`: the comparison of the file (B) with the pinned baseline `name` (A),
   * or null with a message saying why there is none (computing, gone, another format, cancelled).
   * `attrs`: the kinds whose groups are a context attribute's values in the timeline.
   */
  | { type: 'baselineDiff'; name: string; message: string; diff: BaselineDiff | null; attrs: Record<string, AttrName> };

/** Webview → host. */
export type WebviewMessage =
  /** The page is loaded and listens; send the model. */
  | { type: 'ready' }
  /**
   * An item was selected: send its details, and when `reveal` (the user picked it in the timeline,
   * not the editor cursor) reveal and select its line in the editor.
   */
  | { type: 'select'; line: number; endLine: number | null; reveal: boolean; span?: Span; endSpan?: Span }
  /** Something failed in the page (shown in the host's log). */
  | { type: 'error'; message: string }
  /** Compute the metrics of the cycles [from, to] (a new request cancels the previous one). */
  | { type: 'rangeStats'; from: number; to: number }
  /** Put a table (CSV) on the clipboard. */
  | { type: 'copy'; text: string }
  /** Save a table: the host asks where, proposing `name` (a `.csv` or `.json` file name). */
  | { type: 'save'; name: string; text: string }
  /** The toolbar's "Export as Chrome Trace": the host runs the command on the panel's file. */
  | { type: 'exportChromeTrace' }
  /** The toolbar's "Export as Parquet": the host runs that command on the panel's file. */
  | { type: 'exportParquet' }
  /** The toolbar's "Compare with…": the host runs that command on the panel's file. */
  | { type: 'compareWith' }
  /** The kernel-profiler pane: the overlap of group `a`'s region time with group `b`'s, per block. */
  | { type: 'kprofOverlap'; a: number; b: number }
  /** A command's details offered "Show in CMDQ": reveal the first CMDQ entry of that trace layer. */
  | { type: 'showInCmdq'; layer: string }
  /** The Summary was opened: compare the file with the pinned baseline (from disk; cached while neither file changed). */
  | { type: 'baseline' }
  /** The toolbar's "Pin baseline" and "Unpin": the host runs that command on the panel's file. */
  | { type: 'pinBaseline' }
  | { type: 'clearBaseline' };

export type TimelineMessage = HostMessage | WebviewMessage;

/** Characters [from, to) of an event on its line, when the line holds several (the model's `chars`). */
export type Span = [number, number];

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** Lines one `revealLines` may name: a finding cites a few events, not a file's worth. */
export const MAX_REVEAL_LINES = 1000;
const isLine = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < 0xffffffff;
const isStr = (x: unknown): x is string => typeof x === 'string';
const validTiming = (x: unknown): boolean => typeof x === 'object' && x !== null && typeof (x as HostTiming).requested === 'number' && typeof (x as HostTiming).built === 'number';
const optSpan = (x: unknown): boolean => x === undefined || (Array.isArray(x) && x.length === 2 && isLine(x[0]) && isLine(x[1]) && x[0] <= x[1]);
const isTime = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** A table of 10 000 rows as CSV or JSON is a few MB; more is not a table the page made. */
export const MAX_EXPORT_CHARS = 64 << 20;
const isExport = (x: unknown): x is string => isStr(x) && x.length <= MAX_EXPORT_CHARS;
/** A proposed file name: letters, digits, `-`, `_`, `.`, ending in .csv or .json. */
const SAVE_NAME = /^[\w.-]{1,100}\.(?:csv|json)$/;
const isGroup = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < 1 << 20;
const isPairs = (x: unknown): x is [string, string][] => Array.isArray(x) && x.every((p) => Array.isArray(p) && p.length === 2 && isStr(p[0]) && isStr(p[1]));

export function parseWebviewMessage(x: unknown): WebviewMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as WebviewMessage;
  switch (m.type) {
    case 'ready': return { type: 'ready' };
    case 'select':
      return isLine(m.line) && (m.endLine === null || isLine(m.endLine)) && typeof m.reveal === 'boolean' && optSpan(m.span) && optSpan(m.endSpan)
        ? { type: 'select', line: m.line, endLine: m.endLine, reveal: m.reveal, ...(m.span && { span: m.span }), ...(m.endSpan && { endSpan: m.endSpan }) } : undefined;
    case 'error': return isStr(m.message) ? { type: 'error', message: m.message.slice(0, 2000) } : undefined;
    case 'rangeStats': return isTime(m.from) && isTime(m.to) && m.from <= m.to ? { type: 'rangeStats', from: m.from, to: m.to } : undefined;
    case 'copy': return isExport(m.text) ? { type: 'copy', text: m.text } : undefined;
    case 'save': return isStr(m.name) && SAVE_NAME.test(m.name) && isExport(m.text) ? { type: 'save', name: m.name, text: m.text } : undefined;
    case 'exportChromeTrace': return { type: 'exportChromeTrace' };
    case 'exportParquet': return { type: 'exportParquet' };
    case 'compareWith': return { type: 'compareWith' };
    case 'kprofOverlap': return isGroup(m.a) && isGroup(m.b) ? { type: 'kprofOverlap', a: m.a, b: m.b } : undefined;
    case 'showInCmdq': return isStr(m.layer) && m.layer.length <= 1000 ? { type: 'showInCmdq', layer: m.layer } : undefined;
    case 'baseline': return { type: 'baseline' };
    case 'pinBaseline': return { type: 'pinBaseline' };
    case 'clearBaseline': return { type: 'clearBaseline' };
    default: return unknownType(m);
  }
}

export function parseHostMessage(x: unknown): HostMessage | undefined {
  if (!isObj(x)) return undefined;
  const m = x as HostMessage;
  switch (m.type) {
    case 'model': {
      // Posted in fewer bytes (modelWire.ts): widened back before it is checked.
      const model = unpackModel(m.model);
      return isStr(m.uri) && isStr(m.fileName) && typeof m.complete === 'boolean' && validModel(model) && (model.stats === undefined || validStats(model.stats)) && (model.summaryTables === undefined || validFormatTables(model.summaryTables)) && (m.timing === undefined || validTiming(m.timing)) ? { ...m, model } : undefined;
    }
    case 'progress': return isStr(m.message) ? m : undefined;
    case 'error': return isStr(m.message) ? m : undefined;
    case 'selectLine': return isLine(m.line) && (m.character === undefined || isLine(m.character)) ? m : undefined;
    case 'revealLines': return Array.isArray(m.lines) && m.lines.length > 0 && m.lines.length <= MAX_REVEAL_LINES && m.lines.every(isLine) ? m : undefined;
    case 'details': return isLine(m.line) && isPairs(m.fields) && isPairs(m.endFields) ? m : undefined;
    case 'showSummary': return m;
    case 'rangeStats': return isTime(m.from) && isTime(m.to) && isStr(m.message) && (m.stats === null || validStats(m.stats)) ? m : undefined;
    case 'kprofSummary': return validKprofSummary(m.summary) ? m : undefined;
    case 'kprofOverlap': return isStr(m.message) && (m.overlap === null || validKprofOverlap(m.overlap)) ? m : undefined;
    case 'kprofRange': return validKprofRange(m.range) ? m : undefined;
    case 'baselinePinned': return isStr(m.name) && m.name.length <= 4096 && typeof m.self === 'boolean' ? m : undefined;
    case 'baselineDiff': return isStr(m.name) && m.name.length <= 4096 && isStr(m.message) && (m.diff === null || validBaselineDiff(m.diff)) && validAttrs(m.attrs) ? m : undefined;
    default: return unknownType(m);
  }
}

/** Makes the switches exhaustive: a new message type that is not handled fails to compile. */
function unknownType(_m: never): undefined {
  return undefined;
}

/**
 * Checks that a model's columns have the right types and agree with each other, so the renderer
 * can index them without bounds checks.
 */
const COLUMN_KINDS = new Set(['text', 'int', 'pct']);
const isCell = (x: unknown) => x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));

/** A model's format tables (`core/timeline/formatTables.ts`): capped, each row as wide as its columns. */
export function validFormatTables(x: unknown): x is FormatTable[] {
  if (!Array.isArray(x) || x.length > MAX_FORMAT_TABLES) return false;
  return x.every((t: unknown) => {
    if (!isObj(t) || !isStr(t.id) || !isStr(t.title) || !Array.isArray(t.columns) || !Array.isArray(t.rows) || t.rows.length > MAX_FORMAT_ROWS) return false;
    const cols = t.columns as unknown[];
    if (!cols.every((c) => isObj(c) && isStr(c.label) && COLUMN_KINDS.has(c.kind as string))) return false;
    return (t.rows as unknown[]).every((r) => Array.isArray(r) && r.length === cols.length && r.every(isCell));
  });
}

export function validModel(x: unknown): x is TimelineModel {
  if (!isObj(x)) return false;
  const m = x as unknown as TimelineModel;
  if (!isStr(m.format) || !Array.isArray(m.strings) || !m.strings.every(isStr) || m.strings[0] !== '') return false;
  if (!isObj(m.items)) return false;
  for (const k of ITEM_COLUMNS) if (!(m.items[k] instanceof ITEM_COLUMN_TYPES[k])) return false;
  const n = m.items.start.length;
  if (!ITEM_COLUMNS.every((k) => m.items[k].length === n)) return false;
  if (!(m.rowItemStart instanceof Uint32Array) || !(m.rowMaxDur instanceof Float64Array) || !(m.ctxAttrs instanceof Uint32Array)) return false;
  const rows = m.rowItemStart.length - 1;
  if (rows < 0 || m.rowMaxDur.length !== rows || m.rowItemStart[rows] !== n || m.ctxAttrs.length % ATTRS.length !== 0) return false;
  for (let r = 0; r < rows; r++) if (m.rowItemStart[r] > m.rowItemStart[r + 1]) return false;
  if (m.rowItemStart[0] !== 0) return false;
  const nCtx = m.ctxAttrs.length / ATTRS.length, nStr = m.strings.length;
  for (let i = 0; i < m.ctxAttrs.length; i++) if (m.ctxAttrs[i] >= nStr) return false;
  const { name, ctx } = m.items;
  for (let i = 0; i < n; i++) if (name[i] >= nStr || ctx[i] >= nCtx) return false;
  if (!Array.isArray(m.counters) || !Array.isArray(m.tracks)) return false;
  for (const c of m.counters) {
    if (!isObj(c) || !isStr(c.name) || !(c.values instanceof Float32Array) || !(c.bucket > 0) || typeof c.t0 !== 'number' || !isStr(c.unit) || c.unit.length > 64) return false;
  }
  for (let k = 0; k < m.tracks.length; k++) {
    const t = m.tracks[k];
    if (!isObj(t) || !isStr(t.name) || !Number.isInteger(t.parent) || t.parent >= k || t.parent < -1) return false;
    if (t.flags !== undefined && !(Number.isInteger(t.flags) && t.flags >= 0)) return false;
    if (t.kind === 'slices') {
      if (!(Number.isInteger(t.rowStart) && Number.isInteger(t.rowCount) && t.rowStart >= 0 && t.rowCount >= 0 && t.rowStart + t.rowCount <= rows)) return false;
    } else if (t.kind === 'counter') {
      if (!(Number.isInteger(t.counter) && t.counter >= 0 && t.counter < m.counters.length)) return false;
    } else if (t.kind !== 'group') return false;
  }
  if (m.links !== undefined && !validLinks(m.links, n, nStr)) return false;
  if (m.chars !== undefined && !(isObj(m.chars) && [m.chars.char, m.chars.charEnd, m.chars.endChar, m.chars.endCharEnd].every((a) => a instanceof Uint32Array && a.length === n))) return false;
  if (m.lastLine !== undefined && !(m.lastLine instanceof Uint32Array && m.lastLine.length === n)) return false;
  if (m.args !== undefined && !validArgs(m.args, n)) return false;
  if (m.unit !== undefined && !isStr(m.unit)) return false;
  if (m.colourBy !== undefined && !(ATTRS as readonly string[]).includes(m.colourBy)) return false;
  if (m.attrNames !== undefined && !(Array.isArray(m.attrNames) && m.attrNames.length === ATTRS.length && m.attrNames.every((a) => isStr(a) && a.length <= 64))) return false;
  return typeof m.t0 === 'number' && typeof m.t1 === 'number' && (m.nsPerCycle === undefined || typeof m.nsPerCycle === 'number')
    && Number.isInteger(m.lineCount) && Number.isInteger(m.undrawable);
}

/** Item arguments the page can look up by binary search: items in increasing order, each an item, one string each. */
function validArgs(x: unknown, n: number): boolean {
  if (!isObj(x)) return false;
  const { item, json } = x as { item: unknown; json: unknown };
  if (!(item instanceof Uint32Array) || !Array.isArray(json) || json.length !== item.length) return false;
  for (let k = 0; k < item.length; k++) if (item[k] >= n || (k > 0 && item[k] <= item[k - 1]) || !isStr(json[k])) return false;
  return true;
}

/** Links the renderer can follow without bounds checks: two index columns of one length, every index an item. */
function validLinks(x: unknown, n: number, nStr: number): boolean {
  if (!isObj(x)) return false;
  const { from, to, cat, name } = x as { from: unknown; to: unknown; cat: unknown; name: unknown };
  if (!(from instanceof Uint32Array) || !(to instanceof Uint32Array) || from.length !== to.length) return false;
  for (let k = 0; k < from.length; k++) if (from[k] >= n || to[k] >= n) return false;
  // Labels (string indices) are optional, but when present one per link and every index a string.
  for (const a of [cat, name]) {
    if (a === undefined) continue;
    if (!(a instanceof Uint32Array) || a.length !== from.length) return false;
    for (let k = 0; k < a.length; k++) if (a[k] >= nStr) return false;
  }
  return true;
}
