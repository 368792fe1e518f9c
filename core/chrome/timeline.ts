import { eventId, idKey, readNumber, str } from './event';
import { ChromeReader } from './reader';
import { DRAWN, TimelineFields } from './timelineInPlace';
import type { RawEvent } from './stream';
import { TimelineAssembler } from '../timeline/assembler';
import type { PartStart, TimelineBuilder } from '../timeline/builder';
import { ChromeFlows, END, START, STEP } from './timelineFlows';
import { GrowColumn } from '../timeline/columns';
import type { CounterSpec } from '../timeline/counters';
import { FLAG, KIND, type TimelineModel } from '../timeline/model';
import type { Position } from '../common/diagnostic';
import { PART_PREFIX, shiftPosition, shiftRaw, type PartForm } from './parts';
import { BP_E, FLOW_IN, FLOW_OUT, HAS_DUR, NUMS, OP_DRAW, OP_FULL, OP_TOO_LARGE, POS, valueAt, VALUES, type OpsBatch, type OpsRecorder } from './timelineOps';

/** The longest process title kept (a label is free text). */
const MAX_TITLE = 200;
/**
 * What the ATTRS slots hold in a Chrome trace, to colour and filter by: the category (Kineto's
 * `kernel`, `cpu_op`…), the event name (a kernel's, an operator's) and `cname` (the colour a writer
 * asks for; Proton sets it). Slots 1 and 4 stay empty: the Parquet export reads them as layer and model.
 */
const CHROME_ATTRS = ['cat', '', 'name', 'cname', ''];
/** Distinct (category, name, cname) keys cached; past it, contexts are still made, only not cached. */
const MAX_CONTEXT_KEYS = 100_000;

interface Proc {
  key: string;
  group: number;
  /** Internal node name, replaced by the display name once M events are all read. */
  node: string;
  threads: Map<string, Thread>;
  /** Threads by the tid value as read (7 and "7" are two entries of one thread): no key string per event. */
  byTid: Map<unknown, Thread>;
  asyncTrack: number;
  counters: Map<string, CounterSpec>;
}
interface Thread {
  track: number;
  node: string;
  open: number[];
}

/** Sort keys for tracks without a sort index: after those that have one, in order of appearance. */
const UNSORTED = 1e9;

/**
 * Processes and threads drawn apart; further ones (a file can name millions of tids) share one
 * "(other …)" row, so the track list stays drawable.
 */
export const MAX_PROCESSES = 1000;
export const MAX_THREADS = 10_000;
/** Counter rows; further series are not drawn (their values still set the time range). */
export const MAX_COUNTERS = 1000;
const OTHER = '\u0000other';

/**
 * Builds the timeline of a Chrome Trace Event JSON file (PyTorch profiler, Kineto, chrome://tracing,
 * this extension's own export), streamed event by event: one group per pid, one track per thread,
 * `X` and `B`/`E` slices nested into lanes below their parent, instants, async `b`/`e` slices on
 * their process's Async track, `C` counters as counter rows. The category is the item's `phase`
 * attribute, so the view colours CPU ops, kernels and memcpys apart. Names and sort order come from
 * `M` events wherever they are in the file; `M` events never set the time range.
 */
export class ChromeTimelineBuilder implements TimelineBuilder {
  private readonly asm = new TimelineAssembler('chrome-trace');
  private readonly reader: ChromeReader;
  /** The fields of events read in place (`addText`), and strings of the text made the builder's own. */
  private readonly fields: TimelineFields | undefined;
  /** Fed by `addText`: lines are counted in the text, none when a cut .gz was cut in its first (`endText`). */
  private byText = false;
  private noLine = false;
  private readonly procs = new Map<string, Proc>();
  /** Processes by the pid value as read, as `byTid`. */
  private readonly byPid = new Map<unknown, Proc>();
  private tidsKept = 0;
  private readonly display = new Map<string, string>();
  private readonly sortIndex = new Map<string, number>();
  /** Pids a process_name named, and the labels process_labels gave (Kineto: "CPU", "GPU 0"…). */
  private readonly named = new Set<string>();
  private readonly labels = new Map<string, string>();
  private readonly asyncOpen = new Map<string, number>();
  private lineCount = 0;
  private undrawable = 0;
  private tooLarge = 0;
  private order = 0;
  private readonly flows = new ChromeFlows();
  /**
   * Contexts by name, each with the category and cname they go with, flat (cat, cname, context…),
   * for the primitives a file gives: no key string is built per event.
   */
  private readonly ctxByName = new Map<unknown, unknown[]>();
  private ctxKeys = 0;
  /** Per item as added: its events' characters on their lines (see SourceChars). */
  private readonly char = new GrowColumn(Uint32Array);
  /** Each item's event's last line, and whether any event spans lines (then the model keeps them). */
  private readonly lastLine = new GrowColumn(Uint32Array);
  private multiLine = false;
  private readonly charEnd = new GrowColumn(Uint32Array);
  private readonly endChar = new GrowColumn(Uint32Array);
  private readonly endCharEnd = new GrowColumn(Uint32Array);
  /** Whether an event began on the line of the one before it: only then are characters needed. */
  private sharedLine = false;
  private lastEventLine = -1;
  /** Where the event being drawn is: its line and character, its last line, the character after it on its first line. */
  private line = 0;
  private character = 0;
  private last = 0;
  private charEnd1 = 0;

  /**
   * `inPlace: false`: every event fed by `addText` takes JSON.parse (the tests compare both ways);
   * by default most are read where they stand (`timelineInPlace.ts`), to the same model.
   */
  /** Reading for a builder on another thread: what to do with each event is recorded, not done (timelineOps.ts). */
  private readonly record: OpsRecorder | undefined;
  /** Replaying another thread's reading: where its text ends. */
  private replayedEnd: Position | undefined;
  private chars = 0;

  /**
   * `record`: this builder only reads, recording ops for a builder on another thread; `part`: what
   * it reads is a part of a document that starts at an event of its events array (core/chrome/parts.ts).
   */
  constructor(opts: { inPlace?: boolean; record?: OpsRecorder; part?: PartForm } = {}) {
    this.record = opts.record;
    this.fields = opts.inPlace === false ? undefined : new TimelineFields(!opts.record);
    this.reader = new ChromeReader({
      event: (o, raw) => (this.record ? this.record.full(raw) : this.event(o, raw)),
      bad: (kind) => {
        if (this.record) return this.record.undrawable(kind === 'too-large');
        this.undrawable++;
        if (kind === 'too-large') this.tooLarge++;
      },
      inPlace: this.fields && ((t, i, limit, base) => this.inPlace(t, i, limit, base)),
    });
    if (opts.part) this.reader.addText(PART_PREFIX[opts.part]);
  }

  atPartBoundary(): { form: string; at: PartStart } | undefined {
    this.reader.endText(false);
    const form = this.reader.stream.atEventBoundary();
    const at = this.reader.stream.endPosition();
    return form && { form, at: { line: at.line, character: at.character, prefix: PART_PREFIX[form].length } };
  }

  addLine(text: string, lineNo: number): void {
    this.lineCount = lineNo + 1;
    this.reader.addLine(text, lineNo);
  }

  /** The document in pieces of any size instead of lines (not mixed with `addLine`): most events are read in place. */
  addText(piece: string): void {
    this.byText = true;
    this.reader.addText(piece);
    if (this.record) this.record.at(this.reader.stream.endPosition(), (this.chars += piece.length));
  }

  /** After the last piece; `cutOff`: the text was cut (a truncated .gz), so its cut line is left out as the line readers leave it. */
  endText(cutOff = false): void {
    this.reader.endText(cutOff);
    // Cut in its first line, the text has no line the line readers hand on.
    const at = this.reader.stream.endPosition();
    if (cutOff && at.line === 0 && at.character === 0) this.noLine = true;
    if (this.record) {
      // The reader's end: an event cut by it is handed over now.
      this.reader.stream.end();
      this.record.at(this.reader.stream.endPosition(), this.chars);
      this.record.flush({ noLine: this.noLine });
    }
  }

  /**
   * What another thread's reading recorded (`record`), in order: each event drawn, parsed or
   * counted as this builder would have done reading the text itself.
   */
  replayBatch(batch: unknown, from?: PartStart): void {
    this.replayOps(batch as OpsBatch, from);
  }

  /** `from`: the ops are of a part that starts there (their lines and first lines' characters move). */
  replayOps(b: OpsBatch, from: PartStart = { line: 0, character: 0, prefix: 0 }): void {
    this.byText = true;
    let raw = 0;
    const dl = from.line, dc = from.character - from.prefix;
    for (let i = 0; i < b.count; i++) {
      const op = b.op[i];
      if (op === OP_DRAW) {
        const p = i * POS, n = i * NUMS, v = i * VALUES, f = b.flags[i];
        const line = b.pos[p], first = line === 0;
        this.at(dl + line, first ? dc + b.pos[p + 1] : b.pos[p + 1], dl + b.pos[p + 2], first ? dc + b.pos[p + 3] : b.pos[p + 3]);
        this.draw(DRAWN[b.ph[i]]!, b.nums[n], valueAt(b, v), valueAt(b, v + 1), valueAt(b, v + 2), valueAt(b, v + 3), valueAt(b, v + 4),
          (f & HAS_DUR) !== 0 ? b.nums[n + 1] : undefined, b.nums[n + 2], valueAt(b, v + 5), (f & FLOW_IN) !== 0, (f & FLOW_OUT) !== 0, valueAt(b, v + 6), (f & BP_E) !== 0);
      } else if (op === OP_FULL) {
        const r = b.raws[raw++];
        this.event(JSON.parse(r.text) as Record<string, unknown>, shiftRaw(r, from, from.prefix));
      } else {
        this.undrawable++;
        if (op === OP_TOO_LARGE) this.tooLarge++;
      }
    }
    this.replayedEnd = shiftPosition(b.end, from, from.prefix);
    if (b.last) this.noLine = b.last.noLine;
  }

  finish(preview = false): TimelineModel {
    if (!preview && !this.replayedEnd) {
      this.reader.endText();
      this.reader.stream.end();
    }
    // Read as text, the lines are those the text has (a line reader hands a last empty one after a final break).
    if (this.byText) this.lineCount = this.noLine ? 0 : (this.replayedEnd ?? this.reader.stream.endPosition()).line + 1;
    const asm = this.asm;
    this.orderNamedIds();
    const m = asm.finish({ lineCount: this.lineCount, undrawable: this.undrawable, nsPerCycle: 1000 });
    const links = this.flows.links(m, asm.order, (pid, tid) => {
      const t = this.procs.get(idKey(pid))?.threads.get(idKey(tid));
      return t === undefined ? -1 : asm.trackIndex[t.track];
    });
    const order = asm.order;
    const chars = this.sharedLine
      ? { char: this.char.take(order), charEnd: this.charEnd.take(order), endChar: this.endChar.take(order), endCharEnd: this.endCharEnd.take(order) }
      : undefined;
    const nameCount = new Map<string, number>();
    for (const key of this.named) nameCount.set(this.display.get(`\u0000p${key}`)!, (nameCount.get(this.display.get(`\u0000p${key}`)!) ?? 0) + 1);
    for (const t of m.tracks) {
      const name = t.name.startsWith('\u0000p') ? this.processTitle(t.name.slice(2), nameCount) : this.display.get(t.name);
      if (name !== undefined) t.name = name;
    }
    const lastLine = this.multiLine ? this.lastLine.take(order) : undefined;
    return { ...m, unit: 'µs', colourBy: 'phase', attrNames: CHROME_ATTRS, ...(lastLine && { lastLine }), ...(links && { links }), ...(chars && { chars }), ...(this.tooLarge && { tooLarge: this.tooLarge }) };
  }

  /** The event being drawn is at `line`, `character`, ends on line `last`, and its first line's part of it ends before `charEnd`. */
  private at(line: number, character: number, last: number, charEnd: number): void {
    if (line === this.lastEventLine) this.sharedLine = true;
    this.lastEventLine = line;
    this.line = line;
    this.character = character;
    this.last = last;
    this.charEnd1 = charEnd;
  }

  /** Adds an item drawn from the event being drawn, with where that event is on its line. */
  private add(track: number, start: number, end: number, name: number, ctx: number, kind: number, flags: number, bytes = 0): number {
    this.char.push(this.character);
    if (this.last !== this.line) this.multiLine = true;
    this.lastLine.push(this.last);
    this.charEnd.push(this.charEnd1);
    this.endChar.push(0);
    this.endCharEnd.push(0);
    return this.asm.add(track, start, end, this.line, name, NaN, ctx, bytes, kind, flags);
  }

  /** Closes item `i` at `ts` with the event being drawn (its END). */
  private close(i: number, ts: number): void {
    this.endChar.data[i] = this.character;
    this.endCharEnd.data[i] = this.charEnd1;
    this.asm.close(i, ts, this.line);
  }

  private threadCount = 0;
  private counterCount = 0;

  private proc(pidV: unknown): Proc {
    const known = this.byPid.get(pidV);
    if (known) return known;
    const p = this.newProc(pidV);
    // A primitive only (an object pid keys as '' but would add one entry per event), and a bounded
    // number (a file can name millions); past the caps a value keeps the "(other …)" row it got, as
    // the counts never go down.
    if ((typeof pidV !== 'object' || pidV === null) && this.byPid.size < MAX_PROCESSES * 2) this.byPid.set(pidV, p);
    return p;
  }

  private newProc(pidV: unknown): Proc {
    let key = idKey(pidV);
    if (!this.procs.has(key) && this.procs.size >= MAX_PROCESSES) key = OTHER;
    let p = this.procs.get(key);
    if (!p) {
      const node = `\u0000p${key}`;
      p = { key, group: this.asm.group(-1, node, this.sortOf(`p${key}`, pidV)), node, threads: new Map(), byTid: new Map(), asyncTrack: -1, counters: new Map() };
      this.procs.set(key, p);
      if (!this.display.has(node)) this.display.set(node, key === OTHER ? '(other processes)' : key === '' ? 'Process (no pid)' : isName(pidV) ? key : `Process ${key}`);
    }
    return p;
  }

  private thread(p: Proc, tidV: unknown): Thread {
    const known = p.byTid.get(tidV);
    if (known) return known;
    const t = this.newThread(p, tidV);
    if ((typeof tidV !== 'object' || tidV === null) && this.tidsKept < MAX_THREADS * 2) {
      this.tidsKept++;
      p.byTid.set(tidV, t);
    }
    return t;
  }

  private newThread(p: Proc, tidV: unknown): Thread {
    let key = idKey(tidV);
    if (!p.threads.has(key) && this.threadCount >= MAX_THREADS) key = OTHER;
    let t = p.threads.get(key);
    if (!t) {
      this.threadCount++;
      const node = `\u0000t${p.key}\u0000${key}`;
      t = { track: this.asm.track(p.group, node, this.sortOf(`t${p.key}\u0000${key}`, tidV)), node, open: [] };
      p.threads.set(key, t);
      if (!this.display.has(node)) this.display.set(node, key === OTHER ? '(other threads)' : key === '' ? 'Thread (no tid)' : isName(tidV) ? key : `Thread ${key}`);
    }
    return t;
  }

  /**
   * Processes and threads whose id is a name (a string that is not a number: Proton's
   * "matmul_kernel Core0 CTA8" and "warp 0 (line 1)", Kineto's "Spans") and that no M event sorts:
   * after those with numbers, in natural order (CTA2 before CTA10), whatever order the file met them in.
   */
  private orderNamedIds(): void {
    const procs = [...this.procs.values()].filter((p) => isName(p.key) && !this.sortIndex.has(`p${p.key}`));
    procs.sort((a, b) => naturalCompare(a.key, b.key)).forEach((p, k) => this.asm.setOrder(p.group, UNSORTED + k));
    for (const p of this.procs.values()) {
      const named = [...p.threads].filter(([key]) => isName(key) && !this.sortIndex.has(`t${p.key}\u0000${key}`));
      if (named.length < 2) continue;
      named.sort((a, b) => naturalCompare(a[0], b[0])).forEach(([, t], k) => this.asm.setOrder(t.track, UNSORTED + k));
    }
  }

  /**
   * A process's row: its process_name, with its pid where another process has the same name (two
   * "python3" of a training run: "python3 (pid 41873)"), then its process_labels ("GPU 0: NVIDIA
   * H200"), as the trace viewers title them. Capped: a file writes these.
   */
  private processTitle(key: string, nameCount: ReadonlyMap<string, number>): string | undefined {
    const name = this.display.get(`\u0000p${key}`);
    if (name === undefined || !this.named.has(key)) return name;
    const labels = this.labels.get(key);
    const pid = (nameCount.get(name) ?? 0) > 1 && !isName(key) ? ` (pid ${key})` : '';
    const title = `${name || `Process ${key}`}${pid}${labels ? `: ${labels}` : ''}`;
    return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
  }

  /** A sort_index from M events seen so far, else numbers by value, else order of appearance. */
  private sortOf(key: string, id: unknown): number {
    return this.sortIndex.get(key) ?? (typeof id === 'number' && Number.isFinite(id) ? id : UNSORTED + this.order++);
  }

  private event(o: Record<string, unknown>, raw: RawEvent): void {
    this.at(raw.line, raw.character, raw.line + (raw.lineStarts?.length ?? 0), firstLineEnd(raw));
    const ph = o.ph;
    if (ph === 'M') return this.metadata(o);
    const ts = readNumber(o.ts)?.n;
    if (ts === undefined || typeof ph !== 'string') {
      this.undrawable++;
      return;
    }
    switch (ph) {
      case 'X': case 'B': case 'E': case 'i': case 'I': case 'R': case 'n': case 's': case 't': case 'f':
        return this.draw(ph, ts, o.name, o.cat, o.cname, o.pid, o.tid, readNumber(o.dur ?? o.tdur)?.n, bytesOf(o.args), o.bind_id, o.flow_in === true, o.flow_out === true,
          typeof o.id === 'number' || typeof o.id === 'string' ? o.id : eventId(o), o.bp === 'e');
    }
    const name = this.asm.intern(str(o.name));
    const ctx = this.contextOf(o.cat, o.name, o.cname);
    switch (ph) {
      case 'b': case 'e': return this.async(o, ph, ts, name, ctx);
      case 'C': return this.counter(o, ts);
      default:
        // Objects and samples are not drawn; they still belong to the time range.
        this.asm.seen(ts);
    }
  }

  /**
   * An event of the phases read in place too (`inPlace`), from its fields' values as JSON.parse
   * gives them: `dur` read as a number (undefined: none), X's bytes (`bytesOf`), the flow's id as `event` keys it, `bpE`: `"bp": "e"`.
   */
  private draw(ph: string, ts: number, nameV: unknown, cat: unknown, cname: unknown, pid: unknown, tid: unknown, dur: number | undefined, bytes: number,
    bindId: unknown, flowIn: boolean, flowOut: boolean, id: unknown, bpE: boolean): void {
    const asm = this.asm;
    const name = asm.intern(str(nameV));
    const ctx = this.contextOf(cat, nameV, cname);
    switch (ph) {
      case 'X': {
        const bad = dur === undefined || dur < 0;
        const i = this.add(this.thread(this.proc(pid), tid).track, ts, bad ? ts : ts + dur, name, ctx, KIND.slice, bad ? FLAG.invalid : 0, bytes);
        if (bindId !== undefined) this.boundFlow(bindId, flowIn, flowOut, i, ts);
        return;
      }
      case 'B': {
        const t = this.thread(this.proc(pid), tid);
        const i = this.add(t.track, ts, NaN, name, ctx, KIND.slice, 0);
        t.open.push(i);
        if (bindId !== undefined) this.boundFlow(bindId, flowIn, flowOut, i, ts);
        return;
      }
      case 'E': {
        const t = this.thread(this.proc(pid), tid);
        const i = t.open.pop();
        if (i !== undefined) this.close(i, ts);
        else this.add(t.track, ts, ts, asm.intern('E'), ctx, KIND.marker, FLAG.instant | FLAG.unmatchedEnd);
        return;
      }
      case 's': case 't': case 'f':
        // Keyed as the checks key them (category and id); bound to slices once all are read.
        this.flows.step(cat, id, ph === 's' ? START : ph === 't' ? STEP : END, pid, tid, ts, ph === 'f' && !bpE, ctx, name);
        asm.seen(ts);
        return;
      default:
        this.add(this.thread(this.proc(pid), tid).track, ts, ts, name, ctx, KIND.marker, FLAG.instant);
    }
  }

  /**
   * An event read where it stands (`StreamSink.inPlace`), without JSON.parse: one of the phases
   * `draw` takes whose every field it reads is a plain value (`TimelineFields.read`). Anything
   * else, and text the tokenizer is not sure of, is declined before anything is drawn: the event
   * then takes the full way (JSON.parse, `event`), so the model is the one it always was.
   */
  private inPlace(t: string, i: number, limit: number, base: number): number {
    const f = this.fields!;
    const end = f.read(t, i, limit);
    // Declined; or an empty object, which is nothing (ChromeReader).
    if (end < 0 || f.empty) return end;
    const s = this.reader.stream;
    const p = s.position(base + i);
    const line = p.line, character = p.character;
    const last = s.position(base + end - 1).line;
    const charEnd = character + (last === line ? end - i : firstBreak(t, i) - i);
    if (this.record) {
      this.record.draw({
        line, character, last, charEnd, ph: f.ph, ts: f.ts, dur: f.dur, bytes: f.bytes, name: f.name, cat: f.cat, cname: f.cname, pid: f.pid, tid: f.tid,
        bindId: f.bindId, id: f.id, flowIn: f.flowIn, flowOut: f.flowOut, bpE: f.bpE,
      });
      return end;
    }
    this.at(line, character, last, charEnd);
    this.draw(f.ph, f.ts, f.name, f.cat, f.cname, f.pid, f.tid, f.dur, f.bytes, f.bindId, f.flowIn, f.flowOut, f.id, f.bpE);
    return end;
  }

  private contextOf(cat: unknown, name: unknown, cname: unknown): number {
    const prim = (v: unknown) => typeof v !== 'object' || v === null;
    // Only primitives are kept: an object or array would key one entry per event. By name, then
    // category and cname compared as they are (a number and its string key two entries of one context).
    const keyed = prim(cat) && prim(name) && prim(cname);
    const known = keyed ? this.ctxByName.get(name) : undefined;
    if (known) for (let k = 0; k < known.length; k += 3) if (known[k] === cat && known[k + 1] === cname) return known[k + 2] as number;
    const s = (v: unknown) => (v === undefined ? undefined : str(v));
    const c = this.asm.context([s(cat), undefined, s(name), s(cname), undefined]);
    if (keyed && this.ctxKeys < MAX_CONTEXT_KEYS) {
      this.ctxKeys++;
      if (known) known.push(cat, cname, c);
      else this.ctxByName.set(name, [cat, cname, c]);
    }
    return c;
  }

  /** A slice of the newer flow form: `bind_id` with `flow_in` (an arrow ends here) and/or `flow_out`. */
  private boundFlow(bindId: unknown, flowIn: boolean, flowOut: boolean, i: number, ts: number): void {
    if (flowIn) this.flows.slice(bindId, END, i, ts);
    if (flowOut) this.flows.slice(bindId, START, i, ts);
  }

  private async(o: Record<string, unknown>, ph: string, ts: number, name: number, ctx: number): void {
    const p = this.proc(o.pid);
    if (p.asyncTrack < 0) p.asyncTrack = this.asm.track(p.group, `\u0000a${p.key}`, -1);
    this.display.set(`\u0000a${p.key}`, 'Async');
    const key = `${p.key}\u0000${str(o.cat)}\u0000${eventId(o) ?? ''}\u0000${str(o.name)}`;
    if (ph === 'b') {
      this.asyncOpen.set(key, this.add(p.asyncTrack, ts, NaN, name, ctx, KIND.slice, 0));
      return;
    }
    const i = this.asyncOpen.get(key);
    if (i === undefined) {
      this.add(p.asyncTrack, ts, ts, name, ctx, KIND.marker, FLAG.instant | FLAG.unmatchedEnd);
      return;
    }
    this.asyncOpen.delete(key);
    this.close(i, ts);
  }

  private counter(o: Record<string, unknown>, ts: number): void {
    const args = o.args;
    if (typeof args !== 'object' || args === null) return;
    const p = this.proc(o.pid);
    const base = str(o.name);
    for (const [k, v] of Object.entries(args)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      // One row per series: "name" alone for the usual single `value`, "name.key" otherwise.
      const series = Object.keys(args).length === 1 ? base : `${base}.${k}`;
      let spec = p.counters.get(series);
      if (!spec && this.counterCount >= MAX_COUNTERS) continue;
      if (!spec) {
        this.counterCount++;
        spec = { mode: 'samples', sources: [], samples: { t: [], v: [] }, unit: k };
        p.counters.set(series, spec);
        this.asm.counter(p.group, series, UNSORTED * 2, spec);
      }
      spec.samples!.t.push(ts);
      spec.samples!.v.push(v);
    }
    this.asm.seen(ts);
  }

  private metadata(o: Record<string, unknown>): void {
    const args = (typeof o.args === 'object' && o.args !== null ? o.args : {}) as Record<string, unknown>;
    const pid = idKey(o.pid), tid = idKey(o.tid);
    switch (o.name) {
      case 'process_name':
        this.display.set(`\u0000p${pid}`, str(args.name));
        this.named.add(pid);
        break;
      case 'process_labels': this.labels.set(pid, str(args.labels)); break;
      case 'thread_name': this.display.set(`\u0000t${pid}\u0000${tid}`, str(args.name)); break;
      case 'process_sort_index': {
        const k = Number(args.sort_index) || 0;
        this.sortIndex.set(`p${pid}`, k);
        const p = this.procs.get(pid);
        if (p) this.asm.setOrder(p.group, k);
        break;
      }
      case 'thread_sort_index': {
        const k = Number(args.sort_index) || 0;
        this.sortIndex.set(`t${pid}\u0000${tid}`, k);
        const t = this.procs.get(pid)?.threads.get(tid);
        if (t) this.asm.setOrder(t.track, k);
        break;
      }
    }
  }
}

/** The bytes a copy or set moved: Kineto's `args.bytes` on `gpu_memcpy`/`gpu_memset` slices; 0 otherwise. */
function bytesOf(args: unknown): number {
  const b = typeof args === 'object' && args !== null ? (args as { bytes?: unknown }).bytes : undefined;
  return typeof b === 'number' && Number.isFinite(b) && b > 0 ? b : 0;
}

/** The index of the first line break (CR or LF) after `i` of `t`, for an event known to span lines. */
function firstBreak(t: string, i: number): number {
  let k = i;
  for (let c = t.charCodeAt(k); c !== 10 && c !== 13; c = t.charCodeAt(++k));
  return k;
}

/** The character after the event's text on its first line. */
function firstLineEnd(raw: RawEvent): number {
  return raw.character + (raw.lineStarts ? raw.lineStarts[0] - 1 : raw.text.length);
}

/** Whether an id is a name: a non-empty string that does not spell a number (the "(other …)" row is no name). */
function isName(v: unknown): v is string {
  return typeof v === 'string' && v !== '' && v !== OTHER && String(Number(v)) !== v;
}

/** Ids compared with their runs of digits as numbers ("CTA2" before "CTA10"); a cut prefix of long ones. */
export function naturalCompare(a: string, b: string): number {
  const ra = a.slice(0, 256).match(/\d+|\D+/g) ?? [], rb = b.slice(0, 256).match(/\d+|\D+/g) ?? [];
  for (let k = 0; k < Math.min(ra.length, rb.length); k++) {
    const x = ra[k], y = rb[k];
    if (x === y) continue;
    const dx = x.charCodeAt(0) <= 57 && x.charCodeAt(0) >= 48, dy = y.charCodeAt(0) <= 57 && y.charCodeAt(0) >= 48;
    if (dx && dy && x.length <= 15 && y.length <= 15 && Number(x) !== Number(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return ra.length - rb.length || (a < b ? -1 : a > b ? 1 : 0);
}
