import { TimelineAssembler } from '../timeline/assembler';
import { GrowColumn } from '../timeline/columns';
import type { CounterSpec } from '../timeline/counters';
import { FLAG, KIND, type ItemArgs, type TimelineModel } from '../timeline/model';
import { PerfettoFile } from './file';
import { PerfettoFlows } from './flows';
import type { Args, Flows, PerfettoReader, PerfettoSink, ReaderOptions } from './reader';
import { perfettoSummaryTables, SliceTally } from './summaryTables';

/** Samples kept per counter: beyond, a counter row would not show more (it is drawn in ~2000 buckets). */
const MAX_SAMPLES = 1_000_000;
const GLOBAL = -1;

/**
 * The timeline of a protobuf trace on the format-neutral model: a group per process (its name from
 * process_tree or a descriptor), a track per thread with its atrace and SDK slices nested into
 * lanes, async and SDK tracks beside them, counters as counter rows; tracks of no process under
 * "Tracks". Times are ns from the first event of their clock (see Clocks). A binary file has no
 * lines: every item is on line 0, and `chars` hold the byte offsets of its begin and end packets
 * (ftrace events), which is where a click leads and what a diagnostic names.
 */
export class PerfettoTimelineBuilder implements PerfettoSink {
  private readonly asm = new TimelineAssembler('perfetto');
  readonly file: PerfettoFile;
  private readonly node = new Map<number, number>();
  private readonly groups = new Map<number, number>();
  private readonly counters = new Map<number, { t: number[]; v: number[] }>();
  private readonly char = new GrowColumn(Uint32Array);
  private readonly charEnd = new GrowColumn(Uint32Array);
  private readonly endChar = new GrowColumn(Uint32Array);
  private readonly endCharEnd = new GrowColumn(Uint32Array);
  private readonly ctxByCat = new Map<string, number>();
  private readonly tally = new SliceTally();
  private readonly flows = new PerfettoFlows();
  /** Arguments by the index an item was added at (reordered by the assembler's order at the end). */
  private readonly args = new Map<number, string>();

  constructor(opts: Pick<ReaderOptions, 'inflate'> = {}) {
    this.file = new PerfettoFile(this, opts);
  }

  private get reader(): PerfettoReader {
    return this.file.reader;
  }

  feed(chunk: Uint8Array): void {
    this.file.feed(chunk);
  }

  /** A group per process; internal names, replaced by display names at the end (names may come late). */
  private group(pid: number | undefined): number {
    const key = pid ?? GLOBAL;
    let g = this.groups.get(key);
    if (g === undefined) {
      g = this.asm.group(-1, `\u0000p${key}`, pid === undefined ? 1e12 : pid);
      this.groups.set(key, g);
    }
    return g;
  }

  private track(track: number): number {
    let n = this.node.get(track);
    if (n !== undefined) return n;
    const t = this.reader.tracks[track];
    const parent = this.group(t.pid);
    if (t.kind === 'counter') {
      const samples = { t: [] as number[], v: [] as number[] };
      this.counters.set(track, samples);
      const spec: CounterSpec = { mode: 'samples', sources: [], samples, unit: t.unit ?? 'value' };
      n = this.asm.counter(parent, `\u0000t${track}`, 2e9 + track, spec);
    } else {
      n = this.asm.track(parent, `\u0000t${track}`, t.kind === 'thread' ? t.tid! : t.kind === 'process' ? -1 : 1e9 + track);
    }
    this.node.set(track, n);
    return n;
  }

  private ctx(category: string): number {
    let c = this.ctxByCat.get(category);
    if (c === undefined) {
      c = this.asm.context([category || undefined]);
      this.ctxByCat.set(category, c);
    }
    return c;
  }

  private chars(at: number, endAt: number): void {
    // Uint32 columns: offsets past 4 GiB are clamped (the item still opens at its slice).
    const a = Math.min(at, 0xfffffffe), b = Math.min(endAt, 0xfffffffe);
    this.char.push(a);
    this.charEnd.push(a + 1);
    this.endChar.push(b);
    this.endCharEnd.push(b + 1);
  }

  slice(track: number, start: number, end: number, name: string, category: string, at: number, endAt: number, args: Args | undefined, flows?: Flows): void {
    const i = this.asm.add(this.track(track), start, NaN, 0, this.asm.intern(name), NaN, this.ctx(category), 0, KIND.slice, 0);
    if (end === end) {
      this.asm.close(i, end, 0);
      this.tally.add(track, name, end - start);
    }
    this.chars(at, end === end ? endAt : 0);
    if (args !== undefined) this.args.set(i, args);
    if (flows) this.flows.add(i, start, flows);
  }

  instant(track: number, t: number, name: string, category: string, at: number, args: Args | undefined, flows?: Flows): void {
    const i = this.asm.add(this.track(track), t, t, 0, this.asm.intern(name), NaN, this.ctx(category), 0, KIND.marker, FLAG.instant);
    this.chars(at, 0);
    if (args !== undefined) this.args.set(i, args);
    if (flows) this.flows.add(i, t, flows);
  }

  lonelyEnd(track: number, t: number, at: number): void {
    this.asm.add(this.track(track), t, t, 0, this.asm.intern('E'), NaN, 0, 0, KIND.marker, FLAG.instant | FLAG.unmatchedEnd);
    this.chars(at, 0);
  }

  counter(track: number, t: number, value: number): void {
    this.track(track);
    const s = this.counters.get(track);
    if (!s || s.t.length >= MAX_SAMPLES) return;
    s.t.push(t);
    s.v.push(value);
    this.asm.seen(t);
  }

  /** The model, after the last bytes (the reader is ended here: its diagnostics are the file's). */
  finish(): TimelineModel {
    const result = this.file.end();
    const m = this.asm.finish({ lineCount: 1, undrawable: 0, nsPerCycle: 1 });
    const order = this.asm.order;
    const r = this.reader;
    // Slices whose begin or end has a problem (an unmatched end, NNAPI nesting…) are drawn marked.
    const bad = new Set<number>();
    for (const d of result.diagnostics) if (d.severity === 'error' || d.severity === 'warning') bad.add(d.range.start.character);
    const chars = { char: this.char.take(order), charEnd: this.charEnd.take(order), endChar: this.endChar.take(order), endCharEnd: this.endCharEnd.take(order) };
    if (bad.size) {
      for (let k = 0; k < chars.char.length; k++) if (bad.has(chars.char[k]) || (m.items.endLine[k] === 0 && bad.has(chars.endChar[k]))) m.items.flags[k] |= FLAG.invalid;
    }
    for (const t of m.tracks) {
      if (t.name.startsWith('\u0000p')) t.name = this.processName(Number(t.name.slice(2)));
      else if (t.name.startsWith('\u0000t')) t.name = this.trackName(Number(t.name.slice(2)));
    }
    for (const c of m.counters) {
      if (c.name.startsWith('\u0000t')) c.name = r.tracks[Number(c.name.slice(2))].name ?? 'Counter';
    }
    const summaryTables = perfettoSummaryTables(this.tally, (k) => `${this.processName(r.tracks[k].pid ?? GLOBAL)} / ${this.trackName(k)}`, result.nnapi);
    const links = this.flows.links(order, m.items.start);
    const args = this.itemArgs(order);
    return { ...m, unit: 'ns', colourBy: 'phase', attrNames: ['category', '', '', '', ''], chars, summaryTables, ...(links && { links }), args };
  }

  /**
   * The arguments by model item (the assembler's `order`: model item k was added `order[k]`-th);
   * there even when empty, so an export writes every item's `args` as its own arguments.
   */
  private itemArgs(order: Uint32Array): ItemArgs {
    const item = new Uint32Array(this.args.size);
    let n = 0;
    for (let k = 0; k < order.length; k++) if (this.args.has(order[k])) item[n++] = k;
    const json = Array.from(item.subarray(0, n), (k) => this.args.get(order[k])!);
    this.args.clear();
    return { item: item.slice(0, n), json };
  }

  /** A process group's name as drawn (names may come after its first event: looked up at the end). */
  private processName(pid: number): string {
    return pid === GLOBAL ? 'Tracks' : `${this.reader.processNames.get(pid) ?? 'Process'} ${pid}`;
  }

  private trackName(track: number): string {
    const r = this.reader, tr = r.tracks[track];
    return tr.kind === 'thread' ? `${r.threadNames.get(tr.tid!) ?? tr.name ?? 'Thread'} ${tr.tid}` : tr.kind === 'process' ? (tr.name ?? 'Process track') : tr.name ?? 'Track';
  }
}

/** The timeline of a trace already in memory (tests, the editor). */
export function perfettoTimeline(bytes: Uint8Array, opts: Pick<ReaderOptions, 'inflate'> = {}): TimelineModel {
  const b = new PerfettoTimelineBuilder(opts);
  b.feed(bytes);
  return b.finish();
}
