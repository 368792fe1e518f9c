import { clip } from '../common/clip';
import { escapeControl } from '../common/escape';
import { KeyIndex } from '../common/keyIndex';
import { eventIdOf, I32Column } from './columns';
import { num, type Element, type ParsedInferscope } from './model';
import { locate } from './parser';
import type { Report } from '../json/report';
import { fmtUs, timesOf, wallClockUs, type Times, type TimesReader } from './times';
import { PackedColumn } from './packedColumn';

/** Range of a field's value in an element, else the element's opening brace. */
export function valueAt(doc: ParsedInferscope, e: Element, path: readonly (string | number)[]): [number, number] {
  const at = locate(doc.text, e.start, path);
  return at ? [at.valueStart, at.valueEnd] : [e.start, e.start + 1];
}

export function keyAt(doc: ParsedInferscope, e: Element, key: string): [number, number] {
  const at = locate(doc.text, e.start, [key]);
  return at ? [at.keyStart, at.keyEnd] : [e.start, e.start + 1];
}

/**
 * A number quoted as the file writes it: `2^64` is 18446744073709551616 there, where JavaScript
 * prints the double it became, 18446744073709552000. The value's own text when [a, b) holds it (a
 * document read streamed keeps no text), else the number.
 */
export function writtenNumber(doc: ParsedInferscope, a: number, b: number, v: number): string {
  const t = doc.text ? doc.text.slice(a, Math.min(b, a + 100)) : '';
  return t && Number(t) === v ? escapeControl(clip(t, 40)) : String(v);
}

/** How a message names an event: its index and name, cut and with controls visible. */
export function eventLabel(e: Element): string {
  return labelOf(e.index, e.obj?.name);
}

/** `eventLabel` of event `index` named `name`. */
export function labelOf(index: number, name: unknown): string {
  return `event ${index}${typeof name === 'string' ? ` "${escapeControl(clip(name, 60))}"` : ''}`;
}

/** An id as `duplicate-id` quotes it: its text in the file when there is one, else its JSON. */
export function duplicateMessage(what: string, idText: string, first: number): string {
  return `Duplicate ${what} id ${escapeControl(clip(idText, 80))}: ${what} ${first} has it already`;
}

export function duplicateIds(doc: ParsedInferscope, elements: readonly Element[], what: string, report: Report): void {
  // Events read streamed give their ids straight from the columns: no event is built to be hashed.
  const idOf = eventIdOf(elements);
  // The ids are keys as they are: the string "1" and the number 1 are two ids.
  const first = new KeyIndex((i) => {
    const k = idOf(i);
    return typeof k === 'string' || (typeof k === 'number' && Number.isFinite(k)) ? k : undefined;
  }, elements.length);
  for (let i = 0; i < elements.length; i++) {
    const f = first.add(i);
    if (f < 0) continue;
    const e = elements[i];
    if (!report.wants(e.start)) {
      report.count('error', 'inferscope.duplicate-id');
      continue;
    }
    const [a, b] = valueAt(doc, e, ['id']);
    const [c, d] = valueAt(doc, elements[f], ['id']);
    report(a, b, 'error', 'inferscope.duplicate-id', duplicateMessage(what, doc.text ? doc.text.slice(a, b) : JSON.stringify(idOf(i)), f),
      [[c, d, `first ${what} with this id`]]);
  }
}

/** Start before end, and `duration_us` agreeing with them within 1 µs. */
export function timeChecks(doc: ParsedInferscope, report: Report): void {
  for (const e of doc.events) timeCheck(doc, e, timesOf(e), report);
}

/** `timeChecks` of one event, its times `t` (`timesOf`). */
export function timeCheck(doc: ParsedInferscope, e: Element, t: Times, report: Report): void {
  const o = e.obj;
  if (!o || o.type === 'instant') return;
  const { start, end } = t;
  if (start !== start || end !== end) return;
  if (start >= end) {
    if (!report.wants(e.start)) report.count('error', 'inferscope.end-before-start');
    else {
      const [a, b] = valueAt(doc, e, ['timestamp_end_us']);
      const [c, d] = valueAt(doc, e, ['timestamp_start_us']);
      report(a, b, 'error', 'inferscope.end-before-start',
        `${start === end ? 'Zero-length' : 'End before start of'} ${eventLabel(e)}: timestamp_end_us ${writtenNumber(doc, a, b, end)} ${start === end ? '=' : '<'} timestamp_start_us ${writtenNumber(doc, c, d, start)}; only an instant has no duration`,
        [[c, d, 'timestamp_start_us']]);
    }
    return;
  }
  const dur = num(o.duration_us);
  if (dur === undefined || Math.abs(dur - (end - start)) <= 1) return;
  if (!report.wants(e.start)) {
    report.count('warning', 'inferscope.duration-mismatch');
    return;
  }
  const [a, b] = valueAt(doc, e, ['duration_us']);
  report(a, b, 'warning', 'inferscope.duration-mismatch', `duration_us ${writtenNumber(doc, a, b, dur)} of ${eventLabel(e)} disagrees with its timestamps: end − start = ${end - start} µs`);
}

/** How kernels are grouped for `kernel-overlap`: one queue per stream (default) or per device. */
export type OverlapScope = 'stream' | 'device';

/**
 * Kernels of one device and stream (or device, by setting) that overlap: each kernel is compared
 * with the one reaching furthest among those that started before it, on the later-starting one.
 */
export function kernelOverlaps(doc: ParsedInferscope, scope: OverlapScope, report: Report): void {
  const k = new KernelOverlaps(scope);
  for (const e of doc.events) k.add(e, timesOf(e));
  k.finish(report, (_, i) => {
    const e = doc.events[i];
    return { start: e.start, at: valueAt(doc, e, ['timestamp_start_us']), label: eventLabel(e) };
  });
}

/** Where `kernel-overlap` puts a kernel: where its event starts, the range of its start time, its label. */
export interface KernelPlace {
  start: number;
  at: [number, number];
  label: string;
}

/**
 * The kernels of `kernelOverlaps`, taken one event at a time (a streamed check keeps no events) and
 * compared at the end. They are held as columns (group, event index, start, end): a quarter
 * million objects of four numbers were ~35 MB of a streamed check's peak, and arrays grown by push
 * left ~35 MB more of copies behind them; typed blocks are never copied.
 */
export class KernelOverlaps {
  private readonly groupOf = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly group = new I32Column();
  private readonly index = new I32Column();
  /** Start and end of each kernel, unless `times` gives them by event. */
  private readonly starts: { get(k: number): number };
  private readonly ends: { get(k: number): number };
  private readonly kept: [PackedColumn, PackedColumn] | undefined;
  /** The latest start of each group so far, and whether each group's kernels came in order of start. */
  private readonly lastStart: number[] = [];
  private inOrder = true;
  private n = 0;

  /** `times`: each event's start and end, when they are held anyway (no second copy is kept here). */
  constructor(private readonly scope: OverlapScope, times?: TimesReader) {
    if (times) {
      const out = new Float64Array(2);
      const index = this.index;
      this.starts = { get: (k) => (times(index.get(k), out), out[0]) };
      this.ends = { get: (k) => (times(index.get(k), out), out[1]) };
    } else {
      this.kept = [new PackedColumn(), new PackedColumn()];
      [this.starts, this.ends] = this.kept;
    }
  }

  /** Takes event `e` (its times `t`) when it is a kernel compared: its number among them, else -1. */
  add(e: Element, t: Times): number {
    const o = e.obj;
    if (!o || o.type !== 'gpu_kernel') return -1;
    const m = o.metadata as Record<string, unknown> | undefined;
    const dev = num(m?.device_id);
    if (dev === undefined) return -1;
    const { start, end } = t;
    if (!(start < end)) return -1;
    const key = this.scope === 'device' ? `${dev}` : `${dev}/${num(m?.stream_id) ?? ''}`;
    let g = this.groupOf.get(key);
    if (g === undefined) {
      g = this.keys.length;
      this.keys.push(key);
      this.groupOf.set(key, g);
      this.lastStart.push(start);
    }
    if (start < this.lastStart[g]) this.inOrder = false;
    this.lastStart[g] = start;
    const k = this.n++;
    this.group.set(k, g);
    this.index.set(k, e.index);
    this.kept?.[0].set(k, start);
    this.kept?.[1].set(k, end);
    return k;
  }

  /** Reports the overlaps; `place(k, index)` says where kernel k (event `index`) is. */
  finish(report: Report, place: (k: number, index: number) => KernelPlace): void {
    const { group, index, starts, ends } = this;
    // Each kernel against the furthest-reaching one before it in its group, the group's order being
    // by start (then by position in the file). When every group came in that order, it is the
    // order read, each group its own reach: no order of millions is built or sorted. Else the
    // kernels are sorted by group, start, position and swept once.
    const reachOf = new Int32Array(this.keys.length).fill(-1);
    const order = this.inOrder ? undefined : new Uint32Array(this.n).map((_, i) => i).sort((x, y) => group.get(x) - group.get(y) || starts.get(x) - starts.get(y) || index.get(x) - index.get(y));
    for (let j = 0; j < this.n; j++) {
      const k = order ? order[j] : j;
      const g = group.get(k);
      const reach = reachOf[g];
      if (reach < 0) {
        reachOf[g] = k;
        continue;
      }
      if (starts.get(k) < ends.get(reach)) {
        const ke = place(k, index.get(k));
        if (!report.wants(ke.start)) report.count('warning', 'inferscope.kernel-overlap');
        else {
          const re = place(reach, index.get(reach));
          const [dev, stream] = this.keys[g].split('/');
          const where = this.scope === 'device' ? `device ${dev}` : `device ${dev}, stream ${stream || '(none)'}`;
          report(ke.at[0], ke.at[1], 'warning', 'inferscope.kernel-overlap',
            `Kernel ${ke.label} starts at ${starts.get(k)} µs, before ${re.label} on the same ${where} ends (${ends.get(reach)} µs): ${fmtUs(Math.min(ends.get(k), ends.get(reach)) - starts.get(k))} overlap`,
            [[re.at[0], re.at[1], `the other kernel (${re.label})`]]);
        }
      }
      if (ends.get(k) > ends.get(reach)) reachOf[g] = k;
    }
  }
}

/**
 * The `*_us` clock is monotonic, not Unix time: the trace's own first event with both clocks fixes
 * the offset, and an event whose wall-clock disagrees with it by more than 1 ms is flagged.
 */
export function wallClock(doc: ParsedInferscope, report: Report): void {
  let offset: number | undefined;
  let anchor: Element | undefined;
  for (const e of doc.events) {
    const o = e.obj;
    if (!o) continue;
    for (const [wk, tk] of [['wall_clock_start', 'timestamp_start_us'], ['wall_clock_end', 'timestamp_end_us']] as const) {
      const w = wallClockUs(o[wk]);
      const t = num(o[tk]);
      if (w === undefined || t === undefined) continue;
      if (offset === undefined) {
        offset = w - t;
        anchor = e;
        continue;
      }
      const diff = w - (t + offset);
      if (Math.abs(diff) <= 1000) continue;
      if (!report.wants(e.start)) {
        report.count('warning', 'inferscope.wall-clock-mismatch');
        continue;
      }
      const [a, b] = valueAt(doc, e, [wk]);
      const [c, d] = valueAt(doc, anchor!, ['wall_clock_start']);
      report(a, b, 'warning', 'inferscope.wall-clock-mismatch',
        `${wk} of ${eventLabel(e)} is ${fmtUs(Math.abs(diff))} ${diff > 0 ? 'later' : 'earlier'} than ${tk} says, by the clock offset of ${eventLabel(anchor!)} (allowed: 1 ms)`,
        [[c, d, 'the event that fixes the wall-clock offset']]);
    }
  }
}
