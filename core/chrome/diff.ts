import { GroupSet } from '../diff/groups';
import type { DiffLineCollector, DiffRun, DiffSupport } from '../diff/types';
import { readNumber, str } from './event';
import { ChromeReader } from './reader';
import type { RawEvent } from './stream';
import { GPU_CATS, STEP } from './summary';

/**
 * `npu-trace diff` of Chrome Trace JSON, read with the checker's and timeline's event reader (one
 * JSON.parse per event, streamed: no timeline is built). Complete events (`ph: "X"`, their `dur`,
 * in µs) are told apart as the Summary (summary.ts) tells them, by Kineto's categories: `kernel`
 * events by kernel name and, with the other GPU categories, by stream (`args.stream`, else the
 * tid); `cpu_op` by operator name; the host's `ProfilerStep#N` annotations as one group of steps,
 * each step one item.
 */
export class ChromeDiffCollector implements DiffLineCollector {
  private readonly kernel = new GroupSet('kernel');
  private readonly operator = new GroupSet('operator');
  private readonly stream = new GroupSet('stream');
  private readonly step = new GroupSet('step');
  private start = Infinity;
  private end = -Infinity;
  private readonly reader = new ChromeReader({ event: (o, raw) => this.event(o, raw) });

  add(line: string, lineNo: number): void {
    // The reader numbers lines from 0, as the editor does; a run's lines are 1-based.
    this.reader.addLine(line, lineNo - 1);
  }

  finish(): DiffRun {
    this.reader.stream.end();
    return {
      unit: 'us', span: this.end >= this.start ? this.end - this.start : null, metrics: [],
      groups: [...this.kernel.list(), ...this.operator.list(), ...this.stream.list(), ...this.step.list()],
    };
  }

  private event(o: Record<string, unknown>, raw: RawEvent): void {
    if (o.ph !== 'X') return;
    const ts = readNumber(o.ts)?.n;
    const dur = readNumber(o.dur)?.n;
    if (ts === undefined || dur === undefined || !(dur >= 0)) return;
    if (ts < this.start) this.start = ts;
    if (ts + dur > this.end) this.end = ts + dur;
    const line = raw.line + 1;
    const cat = str(o.cat);
    const name = str(o.name);
    if (GPU_CATS.has(cat)) {
      if (cat === 'kernel') this.kernel.add(name, dur, line);
      const args = o.args;
      const stream = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>).stream : undefined;
      this.stream.add(`stream ${stream === undefined ? str(o.tid) : str(stream)}`, dur, line);
    } else if (cat === 'cpu_op') this.operator.add(name, dur, line);
    // Kineto repeats each step's annotation on the GPU (gpu_user_annotation): the host's is the step.
    else if (cat !== 'gpu_user_annotation' && STEP.test(name)) this.step.add('ProfilerStep', dur, line);
  }
}

export const chromeDiff: DiffSupport = {
  kinds: ['kernel', 'operator', 'stream', 'step'],
  lines: () => new ChromeDiffCollector(),
  // Kernels and operators are grouped by their events' names, as the timeline names its slices.
  timeline: { kernel: { by: 'name' }, operator: { by: 'name' } },
  // Each step, `ProfilerStep#N` of both runs, at the host's annotation (the timeline's slot 0 is the
  // category: the GPU's copy of a step starts later, when its first kernel runs).
  markers: [{ label: 'step', key: 'name', prefix: 'ProfilerStep#', where: [{ attr: 'phase', value: 'gpu_user_annotation', not: true }], group: 'step', groupAll: 'ProfilerStep' }],
};
