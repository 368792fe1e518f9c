import { analyze } from './analysis';
import { SystraceStream } from './collect';
import { nnapiSummaryTables } from './summaryTables';
import { readBeginMark } from './mark';
import { parseRowLine } from './row';
import { TimelineAssembler } from '../timeline/assembler';
import type { BuilderOptions, TimelineBuilder } from '../timeline/builder';
import { FLAG, KIND, type TimelineModel } from '../timeline/model';

/** Times are kept in microseconds: systrace prints seconds with µs digits. */
const US = 1e6;

/**
 * Builds the timeline of an NNAPI systrace: one track per thread grouped by process, each `B`
 * opening a slice that its `E` closes (nested scopes stack into lanes below their parent), slices
 * coloured by layer. The format's own checker runs alongside, so a slice whose `B` or `E` row has a
 * violation (bad nesting, unknown tag...) is drawn marked. Clicking a slice reveals its `B` row.
 */
export class NnapiTimelineBuilder implements TimelineBuilder {
  private readonly asm = new TimelineAssembler('nnapi-systrace');
  /** The format's first pass (the checker's and `nnapi-stats`'s), analysed once at the end. */
  private readonly stream = new SystraceStream();
  /** Open slices per thread (pid), innermost last. */
  private readonly stacks = new Map<string, number[]>();
  private readonly threads = new Map<string, number>();
  private lineCount = 0;
  private undrawable = 0;

  /** `metrics: false` (an export): no Summary tables. */
  constructor(private readonly opts: BuilderOptions = {}) {}

  addLine(text: string, lineNo: number): void {
    this.lineCount = lineNo + 1;
    this.stream.line(text, lineNo);
    const r = parseRowLine(text);
    if (!r || r.kind !== 'row') {
      // Rows that mention NNAPI marks but cannot be read are input errors; other lines are not ours.
      if (r?.kind === 'unparsed') this.undrawable++;
      return;
    }
    const t = r.time * US;
    const asm = this.asm;
    const stack = this.stacks.get(r.pid) ?? [];
    this.stacks.set(r.pid, stack);
    if (r.mark.startsWith('B')) {
      const tgid = /^B\|(\d+)\|/.exec(r.mark)?.[1] ?? (r.tgidColumn?.trim() || r.pid);
      const bm = readBeginMark(r.mark);
      const track = this.thread(tgid, r.pid, r.task.trim());
      const name = asm.intern(bm.fn || bm.text);
      const ctx = asm.context([bm.phase || undefined, bm.layer || undefined, undefined, tgid, undefined]);
      const i = asm.add(track, t, NaN, lineNo, name, NaN, ctx, 0, KIND.slice, bm.problem ? FLAG.invalid : 0);
      stack.push(i);
      return;
    }
    const i = stack.pop();
    if (i !== undefined) asm.close(i, t, lineNo);
    else {
      const track = this.thread(/^E\|(\d+)/.exec(r.mark)?.[1] ?? r.pid, r.pid, r.task.trim());
      asm.add(track, t, t, lineNo, asm.intern('E'), NaN, 0, 0, KIND.marker, FLAG.instant | FLAG.unmatchedEnd);
    }
  }

  finish(preview = false): TimelineModel {
    // The trace is analysed once, at the end: a preview shows the slices unmarked and no summary.
    let summaryTables;
    if (!preview) {
      const analysis = analyze(this.stream.collector);
      if (this.opts.metrics !== false) summaryTables = nnapiSummaryTables(analysis);
      const bad = new Set<number>();
      for (const d of analysis.diagnostics) if (d.severity === 'error' || d.severity === 'warning') bad.add(d.range.start.line);
      const it = this.asm.items;
      for (let i = 0; i < it.length; i++) {
        if (bad.has(it.line.data[i]) || bad.has(it.endLine.data[i])) it.flags.data[i] |= FLAG.invalid;
      }
    }
    return { ...this.asm.finish({ lineCount: this.lineCount, undrawable: this.undrawable, nsPerCycle: 1000 }), unit: 'µs', colourBy: 'layer_id', attrNames: ['phase', 'layer', '', 'pid', ''], ...(summaryTables ? { summaryTables } : {}) };
  }

  private thread(tgid: string, pid: string, task: string): number {
    const key = `${tgid}/${pid}`;
    let t = this.threads.get(key);
    if (t === undefined) {
      const group = this.asm.group(-1, `Process ${tgid}`, Number(tgid) || 0);
      t = this.asm.track(group, `${task} ${pid}`, Number(pid) || 0);
      this.threads.set(key, t);
    }
    return t;
  }
}
