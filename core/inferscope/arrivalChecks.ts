/**
 * The streamed check of a data-model trace, run on each event as it is read (`EventSink`), so that
 * no event is kept: ten million events on one line held as columns were 1.6–2.1 GB and most of the
 * time went to rebuilding them for each check. What is kept is what the checks still need once the
 * event is gone:
 * - for `duplicate-id`, a 64-bit fingerprint of each id with its event and place (`idFingerprints.ts`);
 * - for `kernel-overlap`, each kernel's group, event, place and name, each distinct name held
 *   once (`KernelOverlaps`, which reads the times below);
 * - for the scope checks, each event's start and end (the time index over `event_range`s).
 * Times and places take 4 bytes each where they are whole numbers (`packedColumn.ts`). Each
 * problem is the one the checks of `eventChecks.ts` find with the events kept, at the same place.
 */
import { StringTable } from '../common/stringTable';
import type { Report } from '../json/report';
import { I32Column } from './columns';
import { duplicateMessage, KernelOverlaps, labelOf, timeCheck } from './eventChecks';
import { IdFingerprints } from './idFingerprints';
import type { Element, ParsedInferscope } from './model';
import { PackedColumn } from './packedColumn';
import type { EventSink } from './stream';
import { TimeIndex, timesOf } from './times';

export class ArrivalChecks implements EventSink {
  private readonly starts = new PackedColumn();
  private readonly ends = new PackedColumn();
  private readonly ids = new IdFingerprints();
  private readonly kernels = new KernelOverlaps('stream', (i, out) => {
    out[0] = this.starts.get(i);
    out[1] = this.ends.get(i);
  });
  /** Of each kernel: where its event starts and its name (-1: not a string). */
  private readonly kernelAt = new PackedColumn();
  private readonly kernelName = new I32Column();
  private readonly names = new StringTable();

  constructor(private readonly doc: ParsedInferscope, private readonly report: Report) {}

  take(e: Element): void {
    const t = timesOf(e);
    this.starts.set(e.index, t.start);
    this.ends.set(e.index, t.end);
    this.duplicate(e);
    timeCheck(this.doc, e, t, this.report);
    const k = this.kernels.add(e, t);
    if (k >= 0) {
      this.kernelAt.set(k, e.start);
      this.kernelName.set(k, this.name(e.obj?.name));
    }
  }

  /** The kernel overlaps, once every event is read. */
  finish(): void {
    this.kernels.finish(this.report, (k, i) => {
      const at = this.kernelAt.get(k);
      const name = this.kernelName.get(k);
      return { start: at, at: [at, at + 1], label: labelOf(i, name >= 0 ? this.names.list[name] : undefined) };
    });
  }

  /** Earliest start and latest end over ranges of the `n` events taken. */
  timeIndex(n: number): TimeIndex {
    return new TimeIndex(n, (i, out) => {
      out[0] = this.starts.get(i);
      out[1] = this.ends.get(i);
    });
  }

  private duplicate(e: Element): void {
    const id = e.obj?.id;
    // The ids are keys as they are: the string "1" and the number 1 are two ids.
    if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return;
    const f = this.ids.add(id, e.index, e.start);
    if (f < 0) return;
    const report = this.report;
    if (!report.wants(e.start)) {
      report.count('error', 'inferscope.duplicate-id');
      return;
    }
    const at = this.ids.offsetOf(f);
    report(e.start, e.start + 1, 'error', 'inferscope.duplicate-id', duplicateMessage('event', JSON.stringify(id), this.ids.eventOf(f)), [[at, at + 1, 'first event with this id']]);
  }

  private name(n: unknown): number {
    return typeof n === 'string' ? this.names.id(n) : -1;
  }
}
