import type { Diagnostic } from '../common/diagnostic';
import type { DiagnosticSettings } from '../common/settings';
import { BoundedDiagnostics, type Report } from '../json/report';
import { InferscopeDocument } from './document';
import { duplicateIds, kernelOverlaps, timeChecks } from './eventChecks';
import { scopeChecks } from './scopeChecks';
import { profilerChecks } from './profilerChecks';
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
 */
export class StreamedCheck {
  private readonly stream = new InferscopeStream(true, CHECK_FIELDS);

  feed(chunk: string): void {
    this.stream.feed(chunk);
  }

  finish(settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean } {
    const p = this.stream.end();
    const doc = new InferscopeDocument(p);
    const pos = (offset: number) => this.stream.positions.at(offset);
    const out = new BoundedDiagnostics(settings);
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
    for (const s of p.syntax) report(s.start, s.end, 'error', 'inferscope.invalid-json', `Invalid JSON: ${s.message}`);
    if (p.rootKind === 'object' && doc.layout === 'profiler') profilerChecks(p, report);
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
