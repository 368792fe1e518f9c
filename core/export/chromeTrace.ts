import { FLAG, KIND_NAMES, NO_LINE, type TimelineModel } from '../timeline/model';
import { argsOf } from '../timeline/itemArgs';
import { FlowPoints, round } from './flowPoint';
import { flowSources, linksByTarget } from './links';
import { isUtf8 } from '../common/utf8';
import { ItemsByLine } from './itemsByLine';
import { mapThreads, type ThreadMap } from './threads';

/** How the source line of an item becomes its `args`, by the format that made the model. */
export type ArgsOf = (text: string) => string | undefined;

/** A JSON-lines format: the line parsed when the model was built, so it is one JSON object as written (64-bit ids keep their digits). */
export const argsAsJson: ArgsOf = (text) => {
  // Most lines are exactly one object: no copy for them.
  if (text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d) return text;
  const t = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim();
  return t.startsWith('{') ? t : undefined;
};
/** A text format (systrace rows): the row as a string. */
export const argsAsText: ArgsOf = (text) => JSON.stringify({ text });

/** Where the exporter writes: text, and bytes of the source (a JSON line as it is in the file). */
export interface ChromeOut {
  text(s: string): void;
  bytes(b: Uint8Array, s: number, e: number): void;
  /** A number as `String(x)` writes it (without one string per number, where the sink can). */
  number?(x: number): void;
}

/** The args of a line: JSON text, the bytes of a JSON line, or those bytes copied (held until an end line). */
type Raw = string | Uint8Array | { b: Uint8Array; s: number; e: number };

type Decode = (b: Uint8Array, s: number, e: number) => string;

/** Output as a string; bytes (held from `lineBytes`) are decoded with the decoder that came with them. */
class StringOut implements ChromeOut {
  s = '';
  constructor(private readonly decode: Decode | undefined) {}
  text(t: string): void {
    this.s += t;
  }
  bytes(b: Uint8Array, s: number, e: number): void {
    this.s += this.decode!(b, s, e);
  }
  number(x: number): void {
    this.s += x;
  }
}

function num(out: ChromeOut, x: number): void {
  if (out.number) out.number(x);
  else out.text(String(x));
}

function put(out: ChromeOut, raw: Raw): void {
  if (typeof raw === 'string') out.text(raw);
  else if (raw instanceof Uint8Array) out.bytes(raw, 0, raw.length);
  else out.bytes(raw.b, raw.s, raw.e);
}

/** Marks a start line held in the exporter's buffer. */
const HELD = new Uint8Array(0);

function copy(r: Uint8Array | { b: Uint8Array; s: number; e: number }): Uint8Array {
  return r instanceof Uint8Array ? r : r.b.slice(r.s, r.e);
}

/**
 * Chrome JSON written one event per line (`  {...},`, as profilers write it): that event. A line
 * holding several events or the whole document (a one-line file) gives none, so no item ever
 * carries more than its own event.
 */
export const argsAsChromeEvent: ArgsOf = (text) => {
  let e = text.length;
  while (e > 0 && (text.charCodeAt(e - 1) === 0x2c || text.charCodeAt(e - 1) <= 0x20)) e--;
  let s = 0;
  while (s < e && text.charCodeAt(s) <= 0x20) s++;
  if (e - s > MAX_EVENT_ARGS || text.charCodeAt(s) !== 0x7b || text.charCodeAt(e - 1) !== 0x7d) return undefined;
  const t = text.slice(s, e);
  try {
    const o: unknown = JSON.parse(t);
    return typeof o === 'object' && o !== null && !Array.isArray(o) && 'ph' in o ? t : undefined;
  } catch {
    return undefined;
  }
};
const MAX_EVENT_ARGS = 1 << 20;

const ARGS_BY_FORMAT: Record<string, ArgsOf> = { 'npu-trace': argsAsJson, 'nnapi-systrace': argsAsText, 'chrome-trace': argsAsChromeEvent };

export interface ExportOptions {
  /** The file exported, named in `otherData`. */
  source?: string;
  /** Overrides the format's default. */
  argsOf?: ArgsOf;
}

const PROBLEM: readonly [number, string][] = [
  [FLAG.unmatchedStart, 'no end event: drawn to the end of the trace'],
  [FLAG.unmatchedEnd, 'end event with no start'],
  [FLAG.endBeforeStart, 'end is before start: start and end swapped'],
  [FLAG.failed, 'failed'],
  [FLAG.invalid, 'the source line has a diagnostic'],
];
const PROBLEM_BITS = PROBLEM.reduce((a, [bit]) => a | bit, 0);
const problemText = (f: number) => PROBLEM.filter(([bit]) => f & bit).map(([, text]) => text).join('; ');
/** `,"cat":"job","pid":` by kind: the constant text between an item's name and its pid, in one piece. */
const CAT_PID = KIND_NAMES.map((k) => `,"cat":${JSON.stringify(k)},"pid":`);

/**
 * Writes a timeline model as Chrome Trace Event JSON (README "Export to Chrome Trace / Perfetto"),
 * one format for every format that builds a model. The output is produced in pieces — `head()`,
 * then `line()` for each source line in order (each item is written when its last source line is
 * seen, with those lines' fields as `args`), then `tail()` — so the caller writes them as they come
 * and never holds the whole output. Chrome and Perfetto sort events themselves.
 */
export class ChromeTraceExporter {
  private readonly threads: ThreadMap;
  private readonly source: Int32Array;
  /** The model's own links by target (a Chrome trace's flows); undefined when it has none. */
  private readonly into: { at: Uint32Array; link: Uint32Array } | undefined;
  private readonly rowOf: Uint32Array;
  /** Items by start line and by end line: memory follows the items, not the lines. */
  private readonly starts: ItemsByLine;
  private readonly ends: ItemsByLine;
  /** The start line's args of items whose end line is still to come (null: none). */
  private readonly pending = new Map<number, string | Uint8Array | null>();
  /**
   * Start lines' bytes held until their end line, one after another in one buffer (no array per
   * span): `HELD` marks them in `pending`, at `heldAt[i]` for `heldLen[i]` bytes. Compacted when full.
   */
  private arena: Uint8Array = new Uint8Array(1 << 20);
  private arenaEnd = 0;
  private heldAt: Int32Array | undefined;
  private heldLen: Int32Array | undefined;
  private readonly heldView: { b: Uint8Array; s: number; e: number } = { b: this.arena, s: 0, e: 0 };
  /** The bytes of the line being written (one object reused for every line). */
  private readonly lineRaw: { b: Uint8Array; s: number; e: number } = { b: this.arena, s: 0, e: 0 };
  private readonly done: Uint8Array;
  private readonly names: (string | undefined)[] = [];
  private readonly arrowNames: (string | undefined)[] = [];
  /** The same text for a model link's category and name, by the pair of string indices (the first MAX_HEADS pairs). */
  private readonly labels = new Map<number, string>();
  private readonly heads: (string | undefined)[] = new Array<string | undefined>(MAX_HEADS).fill(undefined);
  private readonly scale: number;
  /** Where each flow end goes inside its slice. */
  private readonly points: FlowPoints;
  private readonly argsOf: ArgsOf | undefined;
  private flowId = 0;
  /** Lines with events whose bytes were not UTF-8: written decoded, each bad byte as U+FFFD (the CLI says how many). */
  invalidUtf8Lines = 0;
  /** The decoder of the bytes `lineBytes` was given (to write held bytes as text). */
  private decode: Decode | undefined;
  private first = true;

  constructor(private readonly m: TimelineModel, private readonly opts: ExportOptions = {}) {
    this.threads = mapThreads(m);
    this.source = flowSources(m);
    this.into = linksByTarget(m, this.source);
    const n = m.items.start.length;
    this.rowOf = new Uint32Array(n);
    for (let r = 0; r + 1 < m.rowItemStart.length; r++) this.rowOf.fill(r, m.rowItemStart[r], m.rowItemStart[r + 1]);
    this.starts = new ItemsByLine(m.items.line, m.lineCount);
    this.ends = new ItemsByLine(m.items.endLine, m.lineCount);
    this.done = new Uint8Array(n);
    // µs: NPU cycles through the trace's clock, else 1 cycle = 1 µs; systraces are in µs already (1000 ns per unit).
    this.scale = (m.nsPerCycle ?? 1000) / 1000;
    this.argsOf = opts.argsOf ?? ARGS_BY_FORMAT[m.format];
    this.points = new FlowPoints(m, this.threads, this.rowOf, this.scale);
  }

  head(): string {
    const m = this.m;
    const clock = m.unit && m.unit !== 'cycles' ? `times in ${m.unit} as in the source`
      : m.nsPerCycle !== undefined ? `1 cycle = ${m.nsPerCycle} ns (clock of the trace: TRACE_META or t_ns)`
        : '1 cycle = 1 µs: the trace gives no clock (no TRACE_META clock_ghz/clock_mhz, no t_ns)';
    const other = { exporter: 'npu-trace-inspector', format: m.format, source: this.opts.source ?? '', clock };
    let s = `{"displayTimeUnit":"ns","otherData":${JSON.stringify(other)},"traceEvents":[\n`;
    for (const p of this.threads.processes) {
      s += this.ev(`{"ph":"M","name":"process_name","pid":${p.pid},"tid":0,"args":{"name":${JSON.stringify(p.name)}}}`);
      s += this.ev(`{"ph":"M","name":"process_sort_index","pid":${p.pid},"tid":0,"args":{"sort_index":${p.sort}}}`);
    }
    for (const t of this.threads.threads) {
      s += this.ev(`{"ph":"M","name":"thread_name","pid":${t.pid},"tid":${t.id},"args":{"name":${JSON.stringify(t.name)}}}`);
      s += this.ev(`{"ph":"M","name":"thread_sort_index","pid":${t.pid},"tid":${t.id},"args":{"sort_index":${t.sort}}}`);
    }
    return s;
  }

  /** The events whose source ends on this line (0-based, in order), as a string. */
  line(text: string, lineNo: number): string {
    if (!this.hasItems(lineNo)) return '';
    const out = new StringOut(this.decode);
    this.emitLine(lineNo, this.argsOf?.(text), out);
    return out.s;
  }

  /**
   * The same, from the line's UTF-8 bytes `b[s, e)`, written to `out`: a JSON line that is one object
   * goes to the output as the same bytes, never decoded or encoded again (the bulk of the output).
   * `utf8`: the reader has checked the bytes are well-formed UTF-8 (a whole chunk at once).
   */
  lineBytes(b: Uint8Array, s: number, e: number, lineNo: number, decode: Decode, out: ChromeOut, utf8 = false): void {
    this.decode = decode;
    if (!this.hasItems(lineNo)) return;
    let raw: Raw | undefined;
    // Bytes that are not UTF-8 are never copied: the output would not be JSON text.
    const valid = utf8 || isUtf8(b, s, e);
    if (!valid) this.invalidUtf8Lines++;
    if (valid && this.argsOf === argsAsJson && b[s] === 0x7b && b[e - 1] === 0x7d) {
      const r = this.lineRaw;
      r.b = b;
      r.s = s;
      r.e = e;
      raw = r;
    } else raw = this.argsOf?.(decode(b, s, e));
    this.emitLine(lineNo, raw, out);
  }

  /** Whether an item starts or ends on this line (the others cost nothing). */
  private hasItems(lineNo: number): boolean {
    const [a, b] = this.starts.range(lineNo);
    if (a !== b) return true;
    const [c, d] = this.ends.range(lineNo);
    return c !== d;
  }

  /** Holds the bytes `r` as item i's start line until its end line comes by. */
  private hold(i: number, r: { b: Uint8Array; s: number; e: number }): void {
    const len = r.e - r.s;
    if (this.arenaEnd + len > this.arena.length) this.compact(len);
    this.heldAt ??= new Int32Array(this.done.length);
    this.heldLen ??= new Int32Array(this.done.length);
    this.arena.set(r.b.subarray(r.s, r.e), this.arenaEnd);
    this.heldAt[i] = this.arenaEnd;
    this.heldLen[i] = len;
    this.arenaEnd += len;
    this.pending.set(i, HELD);
  }

  /** Moves the held lines to the front of a buffer with room for `len` more bytes. */
  private compact(len: number): void {
    let live = 0;
    for (const [i, v] of this.pending) if (v === HELD) live += this.heldLen![i];
    const next = new Uint8Array(Math.max(1 << 20, 2 * (live + len)));
    let at = 0;
    for (const [i, v] of this.pending) {
      if (v !== HELD) continue;
      next.set(this.arena.subarray(this.heldAt![i], this.heldAt![i] + this.heldLen![i]), at);
      this.heldAt![i] = at;
      at += this.heldLen![i];
    }
    this.arena = next;
    this.arenaEnd = at;
  }

  /** The args of item i's start line as pending gave them (held bytes as a view of the buffer). */
  private heldRaw(i: number, v: string | Uint8Array | null | undefined): Raw | undefined {
    if (v !== HELD) return v ?? undefined;
    const h = this.heldView;
    h.b = this.arena;
    h.s = this.heldAt![i];
    h.e = h.s + this.heldLen![i];
    return h;
  }

  /** Writes the items that start (or end) on a line with items, `raw` being its args. */
  private emitLine(lineNo: number, raw: Raw | undefined, out: ChromeOut): void {
    const [a, b] = this.starts.range(lineNo);
    const [c, d] = this.ends.range(lineNo);
    for (let k = a; k < b; k++) {
      const i = this.starts.items[k];
      if (this.done[i]) continue;
      if (this.m.items.endLine[i] !== NO_LINE && this.m.items.endLine[i] > lineNo) {
        if (raw !== undefined && typeof raw !== 'string' && !(raw instanceof Uint8Array)) this.hold(i, raw);
        else this.pending.set(i, raw === undefined ? null : typeof raw === 'string' ? raw : copy(raw));
      } else this.item(i, out, raw);
    }
    for (let k = c; k < d; k++) {
      const i = this.ends.items[k];
      const start = this.pending.get(i);
      if (start === undefined || this.done[i]) continue;
      this.pending.delete(i);
      this.item(i, out, this.heldRaw(i, start), lineNo, raw);
    }
  }

  /** Items no line brought (all of them when no lines were given), the counters, and the end of the document. */
  tail(): string {
    const out = new StringOut(this.decode);
    const n = this.done.length;
    for (let i = 0; i < n; i++) if (!this.done[i]) this.item(i, out, this.heldRaw(i, this.pending.get(i)));
    this.pending.clear();
    this.arenaEnd = 0;
    let s = out.s;
    const m = this.m;
    m.counters.forEach((c, k) => {
      const pid = this.threads.counterPid[k];
      const name = JSON.stringify(this.threads.counterName[k]);
      // A file's own counter keeps its key (`value`, `bytes`…): it is no bytes/cycle.
      const key = JSON.stringify(c.unit === 'fraction' ? 'utilization' : c.unit === 'bytes/cycle' ? 'bytes_per_cycle' : c.unit);
      let last = NaN;
      for (let b = 0; b < c.values.length; b++) {
        const v = Number(c.values[b].toPrecision(6));
        if (v === last) continue;
        last = v;
        s += this.ev(`{"ph":"C","name":${name},"pid":${pid},"tid":0,"ts":${this.ts(c.t0 + b * c.bucket)},"args":{${key}:${v}}}`);
      }
    });
    return `${s}\n]}\n`;
  }

  /** Item i as one event (with its flow events): `startRaw`/`endRaw` are the args of its lines. */
  private item(i: number, out: ChromeOut, startRaw?: Raw, endLine?: number, endRaw?: Raw): void {
    this.done[i] = 1;
    const it = this.m.items;
    const r = this.rowOf[i];
    const pid = this.threads.rowPid[r], tid = this.threads.rowTid[r];
    const f = it.flags[i];
    const ts = this.ts(it.start[i]);
    // Written in pieces, numbers as digits: no string per event (the bulk of this pass's time was building and encoding them).
    const head = this.itemHead(it.name[i], it.kind[i], f & FLAG.instant);
    if (this.first) {
      this.first = false;
      out.text(head.slice(2));
    } else out.text(head);
    num(out, pid);
    out.text(',"tid":');
    num(out, tid);
    out.text(',"ts":');
    num(out, ts);
    if (!(f & FLAG.instant)) {
      out.text(',"dur":');
      num(out, Math.max(0, round(this.ts(it.end[i]) - ts)));
    }
    if (this.m.args) {
      // A format whose events carry their own arguments (Perfetto's debug annotations): those are the args.
      this.ownArgs(i, f, out);
      return this.arrows(i, out);
    }
    out.text(',"args":{"line":');
    if (it.line[i] === NO_LINE) out.text('null');
    else num(out, it.line[i] + 1);
    if (startRaw !== undefined) {
      out.text(',"event":');
      put(out, startRaw);
    }
    if (endLine !== undefined) {
      out.text(',"end_line":');
      num(out, endLine + 1);
      if (endRaw !== undefined) {
        out.text(',"end_event":');
        put(out, endRaw);
      }
    }
    if (it.id[i] === it.id[i]) {
      out.text(',"id":');
      num(out, it.id[i]);
    }
    if (it.bytes[i]) {
      out.text(',"bytes":');
      num(out, it.bytes[i]);
    }
    if (f & PROBLEM_BITS) out.text(`,"problem":${JSON.stringify(problemText(f))}`);
    out.text('}}');
    this.arrows(i, out);
  }

  /** `,"args":{…}}`: item i's own arguments, and its problem under `problem` (a name the arguments may have taken: then `problem (2)`…). */
  private ownArgs(i: number, f: number, out: ChromeOut): void {
    const own = argsOf(this.m, i) ?? '{}';
    out.text(',"args":');
    if (f & PROBLEM_BITS) {
      const o = Object.assign(Object.create(null) as Record<string, unknown>, JSON.parse(own) as Record<string, unknown>);
      let k = 'problem';
      for (let n = 2; k in o; n++) k = `problem (${n})`;
      o[k] = problemText(f);
      out.text(JSON.stringify(o));
    } else out.text(own);
    out.text('}');
  }

  /** The flow events into item i (the model's links and a format's own flow sources). */
  private arrows(i: number, out: ChromeOut): void {
    const it = this.m.items;
    const from = this.source[i];
    if (from >= 0) this.arrow(out, from, i, this.arrowName(it.kind[from], it.kind[i]));
    const into = this.into;
    if (into) for (let k = into.at[i]; k < into.at[i + 1]; k++) this.arrow(out, this.m.links!.from[into.link[k]], i, this.linkLabel(into.link[k]));
  }

  /** One arrow from item `from` to item `to`, `label` being its text between id and pid (see `arrowName`). */
  private arrow(out: ChromeOut, from: number, to: number, label: string): void {
    // One s/f pair per arrow, its own id; each end inside its slice where Perfetto binds it to that slice (README "Flows").
    const id = ++this.flowId;
    const rf = this.rowOf[from], rt = this.rowOf[to];
    const ts = this.points.at(from);
    out.text(',\n{"ph":"s","id":');
    num(out, id);
    out.text(label);
    num(out, this.threads.rowPid[rf]);
    out.text(',"tid":');
    num(out, this.threads.rowTid[rf]);
    out.text(',"ts":');
    num(out, ts);
    out.text('},\n{"ph":"f","bp":"e","id":');
    num(out, id);
    out.text(label);
    num(out, this.threads.rowPid[rt]);
    out.text(',"tid":');
    num(out, this.threads.rowTid[rt]);
    out.text(',"ts":');
    num(out, this.points.at(to, ts));
    out.text('}');
  }

  /**
   * Link k's text between id and pid: the category and name its source gave (`ac2g`), each one it
   * did not give as an id link's (`link`, `slice → slice`).
   */
  private linkLabel(k: number): string {
    const L = this.m.links!;
    const c = L.cat?.[k] ?? 0, nm = L.name?.[k] ?? 0;
    const it = this.m.items;
    if (!c && !nm) return this.arrowName(it.kind[L.from[k]], it.kind[L.to[k]]);
    const key = c * this.m.strings.length + nm;
    const cached = this.labels.get(key);
    if (cached !== undefined) return cached;
    const cat = c ? this.m.strings[c] : 'link';
    const name = nm ? this.m.strings[nm] : `${KIND_NAMES[it.kind[L.from[k]]]} → ${KIND_NAMES[it.kind[L.to[k]]]}`;
    const text = `,"cat":${JSON.stringify(cat)},"name":${JSON.stringify(name)},"pid":`;
    // Kept for the first pairs only (a file can name every flow apart); a name-less label depends on the kinds too.
    if (nm && this.labels.size < MAX_HEADS) this.labels.set(key, text);
    return text;
  }

  /** `,"cat":"link","name":"command → job","pid":`: the text between an arrow's id and its pid. */
  private arrowName(from: number, to: number): string {
    return (this.arrowNames[from * KIND_NAMES.length + to] ??= `,"cat":"link","name":${JSON.stringify(`${KIND_NAMES[from]} → ${KIND_NAMES[to]}`)},"pid":`);
  }

  /**
   * `,\n{"ph":"X","name":"…","cat":"job","pid":`: an item's text up to its pid, one piece per name,
   * kind and phase (the sink's cost is per piece: four pieces per event were a tenth of the export).
   */
  private itemHead(name: number, kind: number, instant: number): string {
    const k = (name * KIND_NAMES.length + kind) * 2 + (instant ? 1 : 0);
    // Kept for the first names only: a file can have a name per event.
    const cached = k < MAX_HEADS ? this.heads[k] : undefined;
    if (cached !== undefined) return cached;
    const h = `,\n${instant ? '{"ph":"i","s":"t","name":' : '{"ph":"X","name":'}${this.name(name)}${CAT_PID[kind] ?? ',"cat":"item","pid":'}`;
    if (k < MAX_HEADS) this.heads[k] = h;
    return h;
  }

  /** One event, with the comma that separates it from the previous one. */
  private ev(json: string): string {
    if (this.first) {
      this.first = false;
      return json;
    }
    return `,\n${json}`;
  }

  private name(k: number): string {
    return (this.names[k] ??= JSON.stringify(this.m.strings[k] ?? ''));
  }

  private ts(t: number): number {
    return round(t * this.scale);
  }
}

/** Item heads kept (see `head`). */
const MAX_HEADS = 1 << 16;
