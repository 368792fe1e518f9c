/**
 * `npu-trace analyze` of a trace read streamed, run on each event as it is read (`EventSink`), so
 * that no event is kept: ten million events on one line held as columns to the end were 1.6–2.1 GB.
 * What is kept is what the figures still need once the event is gone:
 * - the window, the copies' and kernels' figures: sums and counts (`Tally`);
 * - the sweep that shares the time out by category, the unions of each category and of every
 *   event that runs: the spans still to come or still running, and the runs of the unions
 *   (`orderedSweep.ts`);
 * - for the time inside scopes (`framework_overhead_us`), each event's start and end (the time
 *   index over `event_range`s), 4 bytes each where they are whole numbers (`packedColumn.ts`).
 * The result is the one `analyze` gives with the events kept, to the last bit, or none when the
 * events come too far out of order for the sweep (the caller reads them again, kept).
 */
import { MAX_QUOTED } from '../common/escape';
import { analysisOf, analyze, metadataOf, scopedRuns, Tally, uncovered } from './analyze';
import type { AnalysisResult } from './analysisResult';
import { InferscopeDocument } from './document';
import { str, type Element, type ParsedInferscope } from './model';
import { OrderedSweep, SWEEP_BLOCK } from './orderedSweep';
import { PackedColumn } from './packedColumn';
import { firstEventsSayProfiler, SNIFF } from './profilerLayout';
import { InferscopeStream, type EventSink } from './stream';
import { TimeIndex, timesOf } from './times';

class ArrivalAnalysis implements EventSink {
  private readonly starts = new PackedColumn();
  private readonly ends = new PackedColumn();
  private readonly tally = new Tally();
  private readonly sweep: OrderedSweep;
  broken = 0;

  constructor(block: number) {
    this.sweep = new OrderedSweep(block);
  }

  take(e: Element): void {
    if (e.broken) this.broken++;
    const t = timesOf(e);
    this.starts.set(e.index, t.start);
    this.ends.set(e.index, t.end);
    if (t.start !== t.start || t.end !== t.end || t.end < t.start) return;
    const cat = this.tally.add(t.start, t.end, str(e.obj?.type), str(e.obj?.name), metadataOf(e));
    const id = str(e.obj?.id);
    this.sweep.add(t.start, t.end, cat, cat < 0 ? '' : this.tally.name, id !== undefined && id.length <= MAX_QUOTED ? id : undefined);
  }

  /** The result, once every event is read; undefined when they came out of order. */
  finish(p: ParsedInferscope): AnalysisResult | undefined {
    const { t0, t1 } = this.tally;
    const s = this.sweep.finish(t1);
    if (!s) return undefined;
    const n = p.events.length;
    const times = new TimeIndex(n, (i, out) => {
      out[0] = this.starts.get(i);
      out[1] = this.ends.get(i);
    });
    const overhead = uncovered(scopedRuns(p.scopes, n, times, t0, t1), s.running);
    return analysisOf('data-model', { tally: this.tally, busy: s.busy, totals: s.totals, exclusive: s.exclusive, examples: s.examples, cited: s.cited, overhead });
  }
}

/**
 * A trace fed in pieces and analyzed: once the first `SNIFF` events say it is not in the Profiler's
 * layout, each event as it comes (the Profiler's layout pairs calls across the whole file: its
 * events are kept, and analyzed at the end as before).
 */
export class StreamedAnalysis {
  private readonly stream = new InferscopeStream();
  private arrival: ArrivalAnalysis | undefined;
  private decided = false;

  /** `block`: the sweep's step (`orderedSweep.ts`), smaller in tests. */
  constructor(private readonly block = SWEEP_BLOCK) {}

  feed(chunk: string): void {
    this.stream.feed(chunk);
    if (!this.decided && this.stream.parsed.events.length >= SNIFF) this.decide();
  }

  private decide(): void {
    this.decided = true;
    const p = this.stream.parsed;
    if (firstEventsSayProfiler(p.events)) return;
    this.stream.handTo((this.arrival = new ArrivalAnalysis(this.block)));
  }

  /** After the last piece: the document (its events not kept when they are analyzed as they come), and whether an event is broken. */
  end(): { doc: InferscopeDocument; broken: boolean } {
    const p = this.stream.end();
    return { doc: new InferscopeDocument(p), broken: this.arrival ? this.arrival.broken > 0 : p.events.some((e) => e.broken) };
  }

  /**
   * The analysis of the trace `end` gave; undefined when its events came out of order for the
   * sweep, and must be read again, kept, for it.
   */
  result(doc: InferscopeDocument): AnalysisResult | undefined {
    return this.arrival ? this.arrival.finish(doc.parsed) : analyze(doc);
  }
}
