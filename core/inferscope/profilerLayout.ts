/**
 * The layout InferScope's own `Profiler` writes (`{"events": [...]}`, saved by its demo), which is
 * not the data model document's: no ids, no `format_version`, a Python call as two events
 * (`cpu_call` from sys.settrace, its `timestamp_end_us` a placeholder equal to its start, then a
 * `cpu_return` with `timestamp_us`), scopes as `scope_enter` / `scope_exit`, and kernels and copies
 * as `timestamp_us` + `duration_us` stamped when the Profiler injected them, i.e. once the work had
 * ended (`docs/formats/inferscope.md` says which sources were read). This file turns such events
 * into spans: calls paired per thread (nested), scopes paired by name, copies and kernels ending at
 * their stamp; and says what in them is really wrong.
 */
import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import type { Severity } from '../common/diagnostic';
import { kindOf, num, str, type Element, type ParsedInferscope } from './model';

/** Types only the Profiler writes: one of them among the first events settles the layout. */
const PROFILER_TYPES = new Set(['cpu_return', 'scope_enter', 'scope_exit']);
/** Events looked at to tell the layout: the Profiler's first events are calls or scopes. */
export const SNIFF = 64;

/**
 * Whether a trace is in the Profiler's layout: no `format_version`, and its first events carry no
 * `id` and either a Profiler-only type or a `timestamp_us` with a `duration_us` (a kernel or copy
 * as the Profiler injects it). A data-model trace that lost its version keeps its ids.
 */
export function isProfilerLayout(p: ParsedInferscope): boolean {
  if (p.fields.has('format_version') || kindOf(p) !== 'trace' || !p.fields.has('events')) return false;
  return firstEventsSayProfiler(p.events) || p.events.length === 0;
}

/**
 * The part of `isProfilerLayout` the events decide: among the first `SNIFF`, none with an `id` and
 * one the Profiler's own. Once `SNIFF` events are read this is settled whatever follows, so a
 * streamed check that finds it false knows the trace is read as the data model.
 */
export function firstEventsSayProfiler(events: readonly Element[]): boolean {
  let profiler = false;
  const n = Math.min(events.length, SNIFF);
  for (let i = 0; i < n; i++) {
    const o = events[i].obj;
    if (!o) continue;
    if (o.id !== undefined) return false;
    const t = str(o.type);
    if ((t !== undefined && PROFILER_TYPES.has(t)) || (t === 'cpu_call' && o.filename !== undefined) || (o.timestamp_us !== undefined && o.duration_us !== undefined)) profiler = true;
  }
  return profiler;
}

/** What a span is. */
export const enum SpanKind { Call, Scope, Kernel, H2D, D2H, Cpu, Instant }

/** One problem in the layout, on an event (and the field it is about). */
export interface ProfilerFinding {
  event: number;
  key: string;
  severity: Severity;
  code: string;
  message: string;
  related?: { event: number; key: string; message: string };
}

/** The spans of a Profiler trace, column-wise: as many at most as there are events. */
export class ProfilerSpans {
  length = 0;
  readonly kind: Uint8Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Nesting depth: of a call on its thread, of a scope among the open scopes. */
  readonly depth: Int32Array;
  /** Event that opens the span (a call, a scope_enter, the kernel or copy itself). */
  readonly first: Int32Array;
  /** Event that closes it (the return, the scope_exit); -1: none, it ran to the end of the trace. */
  readonly last: Int32Array;
  /** Thread of a call, stream of a kernel (NaN: none). */
  readonly lane: Float64Array;
  readonly bytes: Float64Array;
  /** Innermost scope open when the span's first event came (a span index; -1: none). */
  readonly scope: Int32Array;
  /** Of a call: the call it was made from, on its thread (a span index; -1: none). */
  readonly caller: Int32Array;
  readonly name: string[] = [];
  /** Earliest and latest time of any event. */
  t0 = Infinity;
  t1 = -Infinity;
  /** While reading: the innermost open scope. */
  openScope = -1;

  constructor(capacity: number) {
    this.kind = new Uint8Array(capacity);
    this.start = new Float64Array(capacity);
    this.end = new Float64Array(capacity);
    this.depth = new Int32Array(capacity);
    this.first = new Int32Array(capacity);
    this.last = new Int32Array(capacity).fill(-1);
    this.lane = new Float64Array(capacity).fill(NaN);
    this.bytes = new Float64Array(capacity);
    this.scope = new Int32Array(capacity).fill(-1);
    this.caller = new Int32Array(capacity).fill(-1);
  }

  push(kind: SpanKind, start: number, end: number, name: string, first: number, depth: number, lane: number, bytes = 0): number {
    const i = this.length++;
    this.kind[i] = kind;
    this.start[i] = start;
    this.end[i] = end;
    this.name[i] = name;
    this.first[i] = first;
    this.depth[i] = depth;
    this.lane[i] = lane;
    this.bytes[i] = bytes;
    this.scope[i] = this.openScope;
    return i;
  }
}

/** Calls looked through for the one a return closes when it is not the innermost (events were lost). */
const MAX_UNWIND = 256;

const label = (s: string) => `"${escapeControl(clip(s, 60))}"`;
const field = (o: Record<string, unknown>, k: string) => num(o[k]) ?? num((o.metadata as Record<string, unknown> | undefined)?.[k]);

/**
 * Reads the events once, in file order (the raw buffer's order, or get_unified_timeline's sort by
 * time, which keeps each thread's calls in order): the spans, and what is wrong through `found`.
 */
export function readProfiler(events: readonly Element[], found?: (f: ProfilerFinding) => void): ProfilerSpans {
  const n = events.length;
  const spans = new ProfilerSpans(n);
  const say = found ?? (() => undefined);
  /** Open calls per thread, innermost last. */
  const threads = new Map<number, number[]>();
  /** Open scopes per name, innermost last (InferScope's analyzer pairs them by name); and all of them, for depth. */
  const scopesByName = new Map<string, number[]>();
  /** Open scopes in the order entered; the last is the innermost. */
  const open: number[] = [];
  const seen = (t: number) => {
    if (t < spans.t0) spans.t0 = t;
    if (t > spans.t1) spans.t1 = t;
  };
  for (let i = 0; i < n; i++) {
    const e = events[i];
    const o = e.obj;
    if (!o) {
      if (!e.broken) say({ event: i, key: '', severity: 'error', code: 'inferscope.schema', message: `Event ${i} must be an object, got ${e.kind === 'array' ? 'an array' : `a ${e.kind}`}` });
      continue;
    }
    const type = str(o.type);
    const name = str(o.name) ?? type ?? '';
    const need = (key: string): number | undefined => {
      const v = num(o[key]);
      if (v === undefined) say({ event: i, key: o[key] === undefined ? '' : key, severity: 'error', code: 'inferscope.schema', message: `${type} event ${i} ${label(name)} has no numeric "${key}"` });
      return v;
    };
    switch (type) {
      case 'cpu_call': {
        const t = num(o.timestamp_start_us) ?? need('timestamp_us');
        if (t === undefined) break;
        seen(t);
        const th = field(o, 'thread_id') ?? NaN;
        let stack = threads.get(th);
        if (!stack) threads.set(th, (stack = []));
        const c = spans.push(SpanKind.Call, t, NaN, name, i, stack.length, th);
        if (stack.length) spans.caller[c] = stack[stack.length - 1];
        stack.push(c);
        break;
      }
      case 'cpu_return': {
        const t = need('timestamp_us');
        if (t === undefined) break;
        seen(t);
        const th = field(o, 'thread_id') ?? NaN;
        const stack = threads.get(th) ?? [];
        // sys.settrace returns from the innermost call; a name further down means calls in between lost their returns.
        let k = stack.length - 1;
        while (k >= 0 && stack.length - 1 - k < MAX_UNWIND && spans.name[stack[k]] !== name) k--;
        if (k < 0 || spans.name[stack[k]] !== name) {
          say({ event: i, key: 'name', severity: 'warning', code: 'inferscope.return-without-call', message: `cpu_return ${label(name)} on thread ${th} closes no open call of that name${stack.length ? ` (innermost open: ${label(spans.name[stack[stack.length - 1]])})` : ''}` });
          break;
        }
        while (stack.length - 1 > k) {
          const s = stack.pop()!;
          spans.end[s] = t;
          spans.last[s] = i;
          say({ event: spans.first[s], key: 'name', severity: 'warning', code: 'inferscope.call-unreturned', message: `cpu_call ${label(spans.name[s])} never returned: its caller ${label(name)} returned first (event ${i}); drawn up to then`, related: { event: i, key: 'name', message: 'the return that closed it' } });
        }
        const s = stack.pop()!;
        if (t < spans.start[s]) {
          say({ event: i, key: 'timestamp_us', severity: 'error', code: 'inferscope.end-before-start', message: `cpu_return ${label(name)} at ${t} µs is before its cpu_call at ${spans.start[s]} µs`, related: { event: spans.first[s], key: 'timestamp_start_us', message: 'the call' } });
        }
        spans.end[s] = Math.max(t, spans.start[s]);
        spans.last[s] = i;
        break;
      }
      case 'scope_enter': {
        const t = need('timestamp_us');
        if (t === undefined) break;
        seen(t);
        let l = scopesByName.get(name);
        if (!l) scopesByName.set(name, (l = []));
        const sc = spans.push(SpanKind.Scope, t, NaN, name, i, open.length, NaN);
        l.push(sc);
        open.push(sc);
        spans.openScope = sc;
        break;
      }
      case 'scope_exit': {
        const t = need('timestamp_us');
        if (t === undefined) break;
        seen(t);
        const s = scopesByName.get(name)?.pop();
        if (s === undefined) {
          say({ event: i, key: 'name', severity: 'warning', code: 'inferscope.exit-without-enter', message: `scope_exit ${label(name)} has no open scope_enter of that name` });
          break;
        }
        if (t < spans.start[s]) {
          say({ event: i, key: 'timestamp_us', severity: 'error', code: 'inferscope.end-before-start', message: `scope_exit ${label(name)} at ${t} µs is before its scope_enter at ${spans.start[s]} µs`, related: { event: spans.first[s], key: 'timestamp_us', message: 'the scope_enter' } });
        }
        spans.end[s] = Math.max(t, spans.start[s]);
        spans.last[s] = i;
        // Closed scopes leave the open list once they are innermost: scopes exited out of order cost no search.
        while (open.length && spans.last[open[open.length - 1]] >= 0) open.pop();
        spans.openScope = open.length ? open[open.length - 1] : -1;
        break;
      }
      case 'instant': {
        const t = need('timestamp_us');
        if (t === undefined) break;
        seen(t);
        spans.push(SpanKind.Instant, t, t, name, i, 0, NaN);
        break;
      }
      default: {
        const kind = type === 'gpu_kernel' ? SpanKind.Kernel : type === 'h2d_copy' ? SpanKind.H2D : type === 'd2h_copy' ? SpanKind.D2H : type === 'cpu_preprocessing' || type === 'cpu_syscall' ? SpanKind.Cpu : undefined;
        // Another type (a newer writer's) is nothing this reader can place: not drawn, not an error.
        if (kind === undefined) break;
        const range = timesOfInjected(o);
        if (!range) {
          if (o.timestamp_start_us === undefined) need('timestamp_us');
          else need('timestamp_end_us');
          if (num(o.timestamp_us) !== undefined) need('duration_us');
          break;
        }
        if (range[2] < 0) {
          say({ event: i, key: 'duration_us', severity: 'error', code: 'inferscope.negative-duration', message: `${type} ${label(name)} has a negative duration (${range[2]} µs)` });
          break;
        }
        seen(range[0]);
        seen(range[1]);
        const lane = kind === SpanKind.Kernel ? field(o, 'stream_id') ?? NaN : kind === SpanKind.Cpu ? field(o, 'thread_id') ?? NaN : NaN;
        spans.push(kind, range[0], range[1], name, i, 0, lane, field(o, 'bytes') ?? 0);
      }
    }
  }
  // Calls open at the end: tracing stopped inside them (Profiler.stop's own call always is one).
  for (const [th, stack] of threads) {
    for (const s of stack) {
      spans.end[s] = Math.max(spans.t1, spans.start[s]);
      say({ event: spans.first[s], key: 'name', severity: 'information', code: 'inferscope.call-open-at-end', message: `cpu_call ${label(spans.name[s])} on thread ${th} was still running when tracing stopped (the Profiler's own stop() always is); drawn to the end of the trace` });
    }
  }
  for (const l of scopesByName.values()) {
    for (const s of l) {
      spans.end[s] = Math.max(spans.t1, spans.start[s]);
      say({ event: spans.first[s], key: 'name', severity: 'warning', code: 'inferscope.scope-unclosed', message: `scope_enter ${label(spans.name[s])} has no scope_exit: the trace was saved inside the scope; drawn to the end of the trace` });
    }
  }
  return spans;
}

/**
 * [start, end, duration] of a kernel, copy or CPU span: `timestamp_start_us` / `timestamp_end_us`
 * when it has them (the demo's older `add_duration_event`), else `duration_us` up to `timestamp_us`
 * (the Profiler stamps an injected event with the time it is injected, after the work). Undefined
 * when the times are not numbers.
 */
export function timesOfInjected(o: Record<string, unknown>): [number, number, number] | undefined {
  const a = num(o.timestamp_start_us);
  const b = num(o.timestamp_end_us);
  if (a !== undefined && b !== undefined) return b < a ? [a, a, b - a] : [a, b, b - a];
  const t = num(o.timestamp_us);
  const d = num(o.duration_us);
  if (t === undefined || d === undefined) return undefined;
  return d < 0 ? [t, t, d] : [t - d, t, d];
}
