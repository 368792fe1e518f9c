import { analyze } from './analyze';
import { inferscopeSummaryTables } from './summaryTables';
import { clip } from '../common/clip';
import { WholeOrStreamed } from '../common/wholeOrStreamed';
import { InferscopeDocument } from './document';
import { kindOf, num, str, type Element } from './model';
import { validRange } from './scopeChecks';
import { scopeName } from './scopeChecks';
import type { KeptFields } from './keptFields';
import { InferscopeStream } from './stream';
import { SpanKind } from './profilerLayout';
import { timeIndexOf, timesOf } from './times';
import { TimelineAssembler } from '../timeline/assembler';
import type { BuilderOptions, TimelineBuilder } from '../timeline/builder';
import { FLAG, KIND, type TimelineModel } from '../timeline/model';

/** What the ATTRS slots hold here: an event's type, and the scope it ran in. */
const INFERSCOPE_ATTRS = ['type', 'scope', '', '', ''];

/** Colour per event type: the model's kinds for CPU work, compute, copies, memory and markers. */
const KIND_OF: Record<string, number> = {
  cpu_call: KIND.job, cpu_syscall: KIND.irq, gpu_kernel: KIND.te, h2d_copy: KIND.dma, d2h_copy: KIND.dma, memory_event: KIND.dram, instant: KIND.marker,
};

/**
 * Past this many characters a trace is read streamed (`core/inferscope/stream.ts`) instead of as one
 * string: the limit the CLI reads whole, half of what one V8 string can hold.
 */
export const STREAM_ABOVE = 256 << 20;

/** Characters of lines joined into one piece while a trace is still read whole. */
const PIECE = 1 << 20;

/**
 * What the timeline reads of an event or scope read streamed: no event ids, durations, copy details
 * or scope parents and children (a million unique ids alone are ~40 MB, and every other field of an
 * event is a column of 8 bytes an event).
 */
const TIMELINE_FIELDS: KeptFields = {
  top: ['type', 'name', 'timestamp_start_us', 'timestamp_end_us', 'timestamp_us', 'duration_us', 'thread_id', 'stream_id', 'bytes'], meta: ['thread_id', 'device_id', 'stream_id', 'bytes'], scope: ['id', 'name', 'event_range'],
};

/** Longest name drawn: a 10 MB kernel name must not become a 10 MB label. */
const MAX_NAME = 200;

/**
 * Builds the timeline of an InferScope trace (one JSON document, so it is parsed once all lines are
 * in): the scope hierarchy as nested spans on top, CPU per thread, GPU per device → stream, copy
 * engines (H2D, D2H) per device, memory events, instants as markers. Times are the trace's µs. Each
 * item's line is its event's (or scope's) first line, for click-to-line; items of an event or scope
 * with a diagnostic are marked. The event type is the `phase` attribute (coloured and filtered by),
 * the innermost scope's name the `layer_id` one.
 */
export class InferscopeTimelineBuilder implements TimelineBuilder {
  /** The text so far, kept to be parsed whole, or past `streamAbove` characters read streamed. */
  private readonly input: WholeOrStreamed<InferscopeStream>;
  private lineCount = 0;
  /** Fed by `addText`: the lines are counted in the text, not by the caller. */
  private byText = false;

  /** `streamAbove`: characters past which the text is not kept but read streamed; `piece`: characters of lines joined into one kept string. */
  /** `opts.metrics: false` (an export): no analysis for the Summary. */
  constructor(streamAbove = STREAM_ABOVE, piece = PIECE, private readonly opts: BuilderOptions = {}) {
    this.input = new WholeOrStreamed(streamAbove, () => new InferscopeStream(false, TIMELINE_FIELDS), piece);
  }

  addLine(text: string, _lineNo: number): void {
    this.input.feed(this.lineCount++ ? `\n${text}` : text);
  }

  /** The file's text in pieces of any size: a compact trace is one line longer than a string can be. */
  addText(text: string): void {
    this.byText = true;
    this.input.feed(text);
  }

  /** Known before reading (the file's size): past `streamAbove`, read streamed from the first piece. */
  expectChars(n: number): void {
    this.input.expect(n);
  }

  finish(preview = false): TimelineModel {
    const stream = this.input.stream;
    if (stream) {
      // Streamed: no text to check or to take positions from; each item's line comes from the reader.
      const doc = new InferscopeDocument(preview ? stream.parsed : stream.end());
      if (!preview && kindOf(doc.parsed) === undefined) throw new Error('Not an InferScope trace: the file has no "format_version" and "events".');
      return build(doc, true, this.byText ? stream.lines : this.lineCount, true);
    }
    const doc = InferscopeDocument.parse(this.input.text()!);
    const p = doc.parsed;
    const kind = kindOf(p);
    if (!preview && p.syntax.length === 0 && kind !== undefined && kind !== 'trace') {
      throw new Error(`This is an InferScope ${kind === 'analysis' ? 'analysis result' : 'report'}, not a trace: it has no events to draw.`);
    }
    if (!preview && kind === undefined) throw new Error('Not an InferScope trace: the file has no "format_version" and "events".');
    const model = build(doc, preview, this.byText ? p.lineStarts.length : this.lineCount);
    // `npu-trace analyze`'s result for the Summary tab, from the same parse. A trace read streamed
    // keeps only the fields the timeline draws, too few for the analysis: it has no tables.
    if (!preview && this.opts.metrics !== false && doc.kind === 'trace' && p.rootKind === 'object') model.summaryTables = inferscopeSummaryTables(analyze(doc));
    return model;
  }
}

/**
 * The innermost scope of every event (-1: none), by one sweep over the events with a stack of the
 * ranges that hold the current one: O((events + scopes) log scopes) however the scopes nest, where
 * painting every scope's range would cost events × scopes.
 */
export function innermostScopes(doc: InferscopeDocument): Int32Array {
  const n = doc.parsed.events.length;
  const out = new Int32Array(n).fill(-1);
  // The valid ranges as typed columns (a quarter million scopes as [a, b, scope] tuples cost 30 MB).
  const scopes = doc.parsed.scopes;
  const from = new Int32Array(scopes.length);
  const to = new Int32Array(scopes.length);
  const which = new Int32Array(scopes.length);
  let m = 0;
  for (const s of scopes) {
    const r = validRange(s, n);
    if (r) {
      from[m] = r[0];
      to[m] = r[1];
      which[m++] = s.index;
    }
  }
  // Outer ranges first where two start together, so the inner one ends on top of the stack.
  const order = new Uint32Array(m).map((_, i) => i).sort((a, b) => from[a] - from[b] || to[b] - to[a]);
  const stack = new Int32Array(m);
  let top = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k < m && from[order[k]] <= i) stack[top++] = order[k++];
    while (top && to[stack[top - 1]] < i) top--;
    // Ranges that overlap without nesting leave ended ones below the top: skip those too.
    if (top) out[i] = which[stack[top - 1]];
  }
  return out;
}

/** `trackFor(groupKey, groupName, groupOrder, name, order)`: the track `name` of its group, each made on first use. */
function tracksOf(asm: TimelineAssembler): (groupKey: string, groupName: string, groupOrder: number, name: string, order: number) => number {
  const tracks = new Map<string, number>();
  return (groupKey, groupName, groupOrder, name, order) => {
    const key = `${groupKey}\0${name}`;
    let t = tracks.get(key);
    if (t === undefined) {
      let g = tracks.get(groupKey);
      if (g === undefined) tracks.set(groupKey, (g = asm.group(-1, groupName, groupOrder)));
      t = asm.track(g, name, order);
      tracks.set(key, t);
    }
    return t;
  };
}

function build(doc: InferscopeDocument, preview: boolean, lineCount: number, streamed = false): TimelineModel {
  const p = doc.parsed;
  const asm = new TimelineAssembler('inferscope');
  const lineOf = (e: Element) => e.line ?? doc.positionAt(e.start).line;
  // Lines with an error or warning: a preview leaves the checks for the whole file.
  const bad = new Set<number>();
  if (!preview) {
    for (const d of doc.capped({ severity: {}, maxProblems: 5000 }).diagnostics) {
      if (d.severity === 'error' || d.severity === 'warning') bad.add(d.range.start.line);
    }
  }
  const flagged = (e: Element) => {
    const a = lineOf(e);
    const b = doc.positionAt(e.end).line;
    // Elements are a few lines; a huge one is looked at line by line only up to a bound.
    for (let l = a; l <= Math.min(b, a + 200); l++) if (bad.has(l)) return FLAG.invalid;
    return 0;
  };
  if (doc.layout === 'profiler') {
    const undrawable = buildProfiler(doc, asm, lineOf, preview ? () => 0 : flagged);
    return { ...asm.finish({ lineCount, undrawable, nsPerCycle: 1000 }, true), unit: 'µs', colourBy: 'phase', attrNames: INFERSCOPE_ATTRS };
  }
  const n = p.events.length;
  const scopeOf = innermostScopes(doc);
  // One item per event and scope at most: the item columns are allocated once, without doubling slack.
  asm.items.reserve(n + p.scopes.length);
  if (p.scopes.length) {
    const top = asm.group(-1, 'Scopes', 0);
    const track = asm.track(top, 'scope hierarchy', 0);
    // Not the document's (cached) index: this one is let go before the events' items are made.
    const times = streamed ? timeIndexOf(p.events) : doc.times;
    for (const s of p.scopes) {
      const r = validRange(s, n);
      if (!r) continue;
      const [a, b] = times.range(r[0], r[1]);
      if (!(a <= b)) continue;
      const name = asm.intern(clip(str(s.obj?.name) ?? scopeName(s), MAX_NAME));
      asm.add(track, a, b, lineOf(s), name, NaN, asm.context([undefined, clip(str(s.obj?.name) ?? '', MAX_NAME)]), 0, KIND.slice, flagged(s));
    }
  }
  const trackFor = tracksOf(asm);
  let undrawable = 0;
  for (const e of p.events) {
    const o = e.obj;
    const type = str(o?.type);
    const t = timesOf(e);
    if (!o || type === undefined || t.start !== t.start || (!t.instant && t.end !== t.end)) {
      undrawable++;
      continue;
    }
    const m = (o.metadata && typeof o.metadata === 'object' ? o.metadata : {}) as Record<string, unknown>;
    const dev = num(m.device_id);
    let track: number;
    switch (type) {
      case 'cpu_call':
      case 'cpu_syscall': {
        const th = num(m.thread_id);
        track = trackFor('cpu', 'CPU', 1, th === undefined ? 'thread ?' : `thread ${th}`, th ?? 0);
        break;
      }
      case 'gpu_kernel': {
        const st = num(m.stream_id);
        track = trackFor(`gpu${dev ?? '?'}`, `GPU ${dev ?? '?'}`, 2 + (dev ?? 0), st === undefined ? 'stream ?' : `stream ${st}`, st ?? 0);
        break;
      }
      case 'h2d_copy':
      case 'd2h_copy':
        track = trackFor('copy', 'Copy engines', 1000, `${type === 'h2d_copy' ? 'H2D' : 'D2H'} GPU ${dev ?? '?'}`, (type === 'h2d_copy' ? 0 : 1) + 2 * (dev ?? 0));
        break;
      case 'memory_event':
        track = trackFor('mem', 'Memory', 1001, 'memory events', 0);
        break;
      case 'instant':
        track = trackFor('mark', 'Markers', 1002, 'instants', 0);
        break;
      default:
        undrawable++;
        continue;
    }
    const sc = scopeOf[e.index];
    const scope = sc >= 0 ? clip(str(p.scopes[sc].obj?.name) ?? '', MAX_NAME) : undefined;
    const ctx = asm.context([type, scope]);
    const bytes = num(m.bytes) ?? 0;
    const flags = (t.instant ? FLAG.instant : 0) | (preview ? 0 : flagged(e)) | (!t.instant && t.end <= t.start ? FLAG.endBeforeStart : 0);
    asm.add(track, t.start, t.instant ? t.start : Math.max(t.start, t.end), lineOf(e), asm.intern(clip(str(o.name) ?? type, MAX_NAME)), NaN, ctx, bytes, KIND_OF[type], flags);
  }
  // The assembler is this build's own: its item columns go as the model's are made.
  return { ...asm.finish({ lineCount, undrawable, nsPerCycle: 1000 }, true), unit: 'µs', colourBy: 'phase', attrNames: INFERSCOPE_ATTRS };
}

/** Colour and event type of each kind of Profiler span. */
const PROFILER_KIND: Record<number, [kind: number, type: string]> = {
  [SpanKind.Call]: [KIND.job, 'cpu_call'], [SpanKind.Scope]: [KIND.slice, 'scope'], [SpanKind.Kernel]: [KIND.te, 'gpu_kernel'],
  [SpanKind.H2D]: [KIND.dma, 'h2d_copy'], [SpanKind.D2H]: [KIND.dma, 'd2h_copy'], [SpanKind.Cpu]: [KIND.job, 'cpu_preprocessing'], [SpanKind.Instant]: [KIND.marker, 'instant'],
};

/**
 * A trace in the layout InferScope's Profiler writes (`core/inferscope/profilerLayout.ts`): scopes
 * on top, each thread's Python calls nested under it (a call from its cpu_call's line to its
 * cpu_return's; one still open when tracing stopped runs to the end, marked unmatched), kernels
 * per stream, copies per direction, instants as markers. An event the layout cannot place (no
 * time, an unknown type) is counted undrawable.
 */
function buildProfiler(doc: InferscopeDocument, asm: TimelineAssembler, lineOf: (e: Element) => number, flagged: (e: Element) => number): number {
  const s = doc.profiler;
  const events = doc.parsed.events;
  asm.items.reserve(s.length);
  let used = 0;
  const trackFor = tracksOf(asm);
  for (let i = 0; i < s.length; i++) {
    const k = s.kind[i];
    const lane = s.lane[i];
    let track: number;
    switch (k) {
      case SpanKind.Scope:
        track = trackFor('scopes', 'Scopes', 0, 'scopes', 0);
        break;
      case SpanKind.Call:
      case SpanKind.Cpu:
        track = trackFor('cpu', 'CPU', 1, lane === lane ? `thread ${lane}` : 'thread ?', lane === lane ? lane : 0);
        break;
      case SpanKind.Kernel:
        track = trackFor('gpu', 'GPU', 2, lane === lane ? `stream ${lane}` : 'stream ?', lane === lane ? lane : -1);
        break;
      case SpanKind.H2D:
      case SpanKind.D2H:
        track = trackFor('copy', 'Copy engines', 1000, k === SpanKind.H2D ? 'H2D' : 'D2H', k === SpanKind.H2D ? 0 : 1);
        break;
      default:
        track = trackFor('mark', 'Markers', 1002, 'instants', 0);
    }
    const [kind, type] = PROFILER_KIND[k];
    const first = events[s.first[i]];
    const sc = s.scope[i];
    const ctx = asm.context([type, sc >= 0 && sc !== i ? clip(s.name[sc], MAX_NAME) : undefined]);
    const name = asm.intern(clip(s.name[i] || type, MAX_NAME));
    const flags = (k === SpanKind.Instant ? FLAG.instant : 0) | flagged(first);
    const closes = s.last[i];
    if ((k === SpanKind.Call || k === SpanKind.Scope) && closes < 0) {
      // Still open when the trace ends: the assembler runs it to the end, marked unmatched.
      asm.add(track, s.start[i], NaN, lineOf(first), name, NaN, ctx, 0, kind, flags);
      continue;
    }
    const item = asm.add(track, s.start[i], closes >= 0 ? NaN : s.end[i], lineOf(first), name, NaN, ctx, s.bytes[i], kind, flags);
    if (closes >= 0) {
      asm.close(item, s.end[i], lineOf(events[closes]), flagged(events[closes]));
      used++;
    }
  }
  // Every event is a span's first or its closing one, else it could not be placed.
  return events.length - s.length - used;
}
