import type { Diagnostic } from '../common/diagnostic';
import type { DiagnosticSettings } from '../common/settings';
import { BoundedDiagnostics, type Report } from '../json/report';
import { ArrivalChecks } from './arrivalChecks';
import { InferscopeDocument } from './document';
import { duplicateIds, kernelOverlaps, timeChecks } from './eventChecks';
import { scopeChecks } from './scopeChecks';
import { profilerChecks } from './profilerChecks';
import { firstEventsSayProfiler, SNIFF } from './profilerLayout';
import { KEPT_FIELDS, type KeptFields } from './keptFields';
import { InferscopeStream } from './stream';

/** The checks read of an event's metadata only what places a kernel (each field left out is a column not held). */
const CHECK_FIELDS: KeptFields = { ...KEPT_FIELDS, meta: ['device_id', 'stream_id'] };

/**
 * The checks of a trace read streamed (past what is read whole): no text is held, so each problem
 * is placed at the start of its event or scope (or the top-level key, or where the reader
 * stopped), not on its exact token. Run: invalid JSON, duplicate ids, end-before-start and
 * duration, kernel overlap, the scope checks. Not run: the schemas and the wall-clock check, which
 * need fields the streamed reader does not keep. A trace in the Profiler's layout gets its own
 * checks (`profilerChecks.ts`), the same as read whole.
 *
 * Given its settings at the start, the check runs on each event as it is read once the first
 * `SNIFF` events say the trace is not in the Profiler's layout (`arrivalChecks.ts`): what a
 * data-model trace costs is then what the checks keep, not the events. Without them, or for the
 * Profiler's layout, the events are kept (as columns) and checked at the end.
 */
export class StreamedCheck {
  private readonly stream = new InferscopeStream(true, CHECK_FIELDS);
  /** Problems capped as they come, with the settings given at the start. */
  private readonly out: BoundedDiagnostics | undefined;
  private readonly report: Report | undefined;
  /** Set once the events go to the checks as they come. */
  private arrival: ArrivalChecks | undefined;
  private decided = false;

  /** `settings`: those `finish` will be given, which lets the checks run as the events come. */
  constructor(settings?: DiagnosticSettings) {
    if (!settings) {
      this.decided = true;
      return;
    }
    this.out = new BoundedDiagnostics(settings);
    this.report = this.reporter(this.out);
  }

  feed(chunk: string): void {
    this.stream.feed(chunk);
    if (!this.decided && this.stream.parsed.events.length >= SNIFF) this.decide();
  }

  /**
   * The first events settle the layout: not the Profiler's, the events read so far are checked
   * and every later one as it comes.
   */
  private decide(): void {
    this.decided = true;
    const p = this.stream.parsed;
    if (firstEventsSayProfiler(p.events)) return;
    this.stream.handTo((this.arrival = new ArrivalChecks(p, this.report!)));
  }

  private reporter(out: BoundedDiagnostics): Report {
    const pos = (offset: number) => this.stream.positions.at(offset);
    const report = ((start: number, _end: number, severity, code, message, related) => {
      if (!out.wants(start)) {
        out.count(severity, code);
        return;
      }
      const at = pos(start);
      const rel = related?.slice(0, 20).map(([a, , m]) => ({ range: { start: pos(a), end: { ...pos(a), character: pos(a).character + 1 } }, message: m }));
      out.add(start, { range: { start: at, end: { line: at.line, character: at.character + 1 } }, severity, code, message, ...(rel?.length ? { related: rel } : {}) });
    }) as Report;
    report.wants = (offset) => out.wants(offset);
    report.count = (severity, code, n) => out.count(severity, code, n);
    report.countAtLeastOne = (severity, codes) => out.countAtLeastOne(severity, codes);
    report.unlisted = (severity, code) => out.unlisted(severity, code);
    return report;
  }

  /** `settings`: those given at the start, when they were. */
  finish(settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean } {
    const p = this.stream.end();
    const doc = new InferscopeDocument(p);
    const out = this.out ?? new BoundedDiagnostics(settings);
    const report = this.report ?? this.reporter(out);
    for (const s of p.syntax) report(s.start, s.end, 'error', 'inferscope.invalid-json', `Invalid JSON: ${s.message}`);
    const a = this.arrival;
    if (a) {
      a.finish();
      duplicateIds(p, p.scopes, 'scope', report);
      scopeChecks(p, () => a.timeIndex(p.events.length), report);
    } else if (p.rootKind === 'object' && doc.layout === 'profiler') profilerChecks(p, report);
    else if (p.rootKind === 'object') {
      duplicateIds(p, p.events, 'event', report);
      duplicateIds(p, p.scopes, 'scope', report);
      timeChecks(p, report);
      kernelOverlaps(p, 'stream', report);
      scopeChecks(p, () => doc.times, report);
    }
    return { diagnostics: out.result(), hasError: out.hasError };
  }
}
