import type { Diagnostic, Position } from '../common/diagnostic';
import type { LineEdit } from '../common/lines';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../common/settings';
import { offsetAt, positionAt } from '../json/positions';
import { analysisChecks } from './analysisChecks';
import { duplicateIds, kernelOverlaps, timeChecks, wallClock, type OverlapScope } from './eventChecks';
import { kindOf, type Element, type InferscopeKind, type ParsedInferscope } from './model';
import { reparseEdit } from './incremental';
import { parseInferscope } from './parser';
import { profilerChecks } from './profilerChecks';
import { isProfilerLayout, readProfiler, type ProfilerSpans } from './profilerLayout';
import { BoundedDiagnostics, reporter, type Report } from '../json/report';
import { eventSchemas, resultRoot, scopeSchemas, traceRoot } from './schemaChecks';
import { scopeChecks, scopeIndex } from './scopeChecks';
import { timeIndexOf, type TimeIndex } from './times';

/** The two trace layouts read (docs/formats/inferscope.md). */
export type TraceLayout = 'data-model' | 'profiler';

export interface InferscopeOptions {
  /** `kernel-overlap` per stream of a device (default) or per device. */
  kernelOverlap?: OverlapScope;
}

function diagnose(doc: InferscopeDocument, opts: InferscopeOptions, report: Report): void {
  const p = doc.parsed;
  for (const s of p.syntax) report(s.start, s.end, 'error', 'inferscope.invalid-json', `Invalid JSON: ${s.message}`);
  if (p.rootKind === undefined) {
    if (p.syntax.length === 0) report(0, 0, 'error', 'inferscope.invalid-json', 'Empty document: expected an InferScope trace, analysis result or report (a JSON object)');
    return;
  }
  if (p.rootKind !== 'object') {
    report(p.rootSpan.start, p.rootSpan.end, 'error', 'inferscope.schema', `An InferScope file must be a JSON object, got ${p.rootKind === 'array' ? 'an array' : `a ${p.rootKind}`}`);
    return;
  }
  const kind = doc.kind;
  if (kind !== 'trace') {
    // A truncated result would only add noise about the fields not yet read.
    if (p.syntax.length) return;
    resultRoot(p, report);
    const a = kind === 'report' ? p.fields.get('analysis') : undefined;
    const root: Record<string, unknown> = {};
    for (const [k, f] of p.fields) if (k !== '__proto__') root[k] = f.value;
    if (kind === 'analysis') analysisChecks(p, root, p.rootSpan.start, report);
    else if (a?.kind === 'object') analysisChecks(p, a.value as Record<string, unknown>, a.valueStart, report);
    return;
  }
  if (doc.layout === 'profiler') {
    profilerChecks(p, report);
    return;
  }
  traceRoot(p, report);
  eventSchemas(p, report);
  scopeSchemas(p, report);
  duplicateIds(p, p.events, 'event', report);
  duplicateIds(p, p.scopes, 'scope', report);
  timeChecks(p, report);
  kernelOverlaps(p, opts.kernelOverlap ?? 'stream', report);
  wallClock(p, report);
  scopeChecks(p, () => doc.times, report);
}

/** An InferScope file held in the editor or the CLI: parsed once per version, checked on first use. */
export class InferscopeDocument {
  private _diagnostics: { key: string; list: Diagnostic[]; hasError: boolean } | undefined;
  private _times: TimeIndex | undefined;
  private _scopes: Map<string, number> | undefined;
  private _layout: TraceLayout | undefined;
  private _profiler: ProfilerSpans | undefined;

  constructor(readonly parsed: ParsedInferscope, private readonly nameKind?: InferscopeKind) {}

  static parse(text: string, fileName = ''): InferscopeDocument {
    return new InferscopeDocument(parseInferscope(text), /\.analysis\.json$/i.test(fileName) ? 'analysis' : undefined);
  }

  /** The next version after `edits`: only the events an edit touched are parsed again when it can be done (`incremental.ts`). */
  update(edits: readonly LineEdit[], text: string): InferscopeDocument {
    const p = edits.length === 1 ? reparseEdit(this.parsed, text, edits[0]) : undefined;
    return new InferscopeDocument(p ?? parseInferscope(text), this.nameKind);
  }

  /** What the top-level keys say; else what the name says; else a trace. */
  get kind(): InferscopeKind {
    return kindOf(this.parsed) ?? this.nameKind ?? 'trace';
  }

  /**
   * Which layout a trace is in: the data model document's (`format_version`, ids, scopes in
   * `relationships`), or the one InferScope's own Profiler writes (`profilerLayout.ts`).
   */
  get layout(): TraceLayout {
    return (this._layout ??= isProfilerLayout(this.parsed) ? 'profiler' : 'data-model');
  }

  /** The spans of a trace in the Profiler's layout (calls paired, scopes paired, kernels and copies placed). */
  get profiler(): ProfilerSpans {
    return (this._profiler ??= readProfiler(this.parsed.events));
  }

  /** Earliest start / latest end over ranges of events. */
  get times(): TimeIndex {
    this._times ??= timeIndexOf(this.parsed.events);
    return this._times;
  }

  /** Scope index by id (the first scope with it). */
  get scopeIds(): Map<string, number> {
    return (this._scopes ??= scopeIndex(this.parsed.scopes));
  }

  allDiagnostics(opts: InferscopeOptions = {}): Diagnostic[] {
    return this.capped({ ...defaultDiagnosticSettings, maxProblems: Infinity }, opts).diagnostics;
  }

  /** The first `maxProblems` diagnostics by position, and whether any problem is an error. Cached per settings. */
  capped(settings: DiagnosticSettings, opts: InferscopeOptions = {}): { diagnostics: Diagnostic[]; hasError: boolean } {
    const key = JSON.stringify([settings, opts]);
    if (this._diagnostics?.key !== key) {
      const out = new BoundedDiagnostics(settings);
      diagnose(this, opts, reporter(this.parsed, out));
      this._diagnostics = { key, list: out.result(), hasError: out.hasError };
    }
    return { diagnostics: this._diagnostics.list, hasError: this._diagnostics.hasError };
  }

  positionAt(offset: number): Position {
    return positionAt(this.parsed.lineStarts, offset);
  }

  offsetAt(p: Position): number {
    return offsetAt(this.parsed.lineStarts, this.parsed.text.length, p);
  }

  /** The event or scope whose text contains `offset`. */
  elementAt(offset: number): { what: 'event' | 'scope'; e: Element } | undefined {
    const ev = find(this.parsed.events, offset);
    if (ev) return { what: 'event', e: ev };
    const sc = find(this.parsed.scopes, offset);
    return sc ? { what: 'scope', e: sc } : undefined;
  }
}

/** Binary search over elements in document order. */
function find(list: readonly Element[], offset: number): Element | undefined {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = list[mid];
    if (offset < e.start) hi = mid - 1;
    else if (offset >= e.end) lo = mid + 1;
    else return e;
  }
  return undefined;
}
