import type { Diagnostic } from '../common/diagnostic';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import { checkCycles, checkDeps, checkEnd, checkIds } from './checks';
import { metadataField } from './fields';
import { CmdqGraph } from './graph';
import type { ParsedCmdq } from './model';
import { parseCmdq } from './parser';
import { reparseEdit } from './incremental';
import type { LineEdit } from '../common/lines';
import { offsetAt, positionAt } from './positions';
import { reporter, type Report } from './report';
import { describeValue, entrySchemaDiagnostics, pointer, typeName } from './schemaDiagnostics';
import { checkSpm } from './spm';
import { validateMetadata } from './validator';
import type { Position } from '../common/diagnostic';

function rootDiagnostics(doc: ParsedCmdq, report: Report): boolean {
  if (doc.rootKind === undefined) {
    if (doc.syntax.length === 0) report(0, 0, 'error', 'cmdq.invalid-json', 'Empty document: expected { "cmdq": [ ... ] }');
    return false;
  }
  if (doc.rootKind !== 'object') {
    report(doc.rootSpan.start, doc.rootSpan.end, 'error', 'cmdq.wrong-type', `A CMDQ file must be a JSON object with a "cmdq" array; this is ${doc.rootKind === 'array' ? 'an array' : `a ${doc.rootKind}`}`);
    return false;
  }
  if (!doc.cmdqKey) {
    if (doc.syntax.length === 0) report(doc.rootSpan.start, doc.rootSpan.start + 1, 'error', 'cmdq.missing-field', 'Missing required field "cmdq" (an array of entries)');
    return false;
  }
  if (doc.cmdqKind !== 'array') {
    const v = doc.cmdqValue!;
    report(v.start, v.end, 'error', 'cmdq.wrong-type', `"cmdq" must be an array of entries, got ${doc.cmdqKind === 'object' ? 'an object' : `a ${doc.cmdqKind}`}`);
    return false;
  }
  return true;
}

function metadataDiagnostics(doc: ParsedCmdq, report: Report): void {
  const m = doc.metadata;
  if (!m) return;
  const errors = validateMetadata(m.value);
  for (const err of errors ?? []) {
    const key = pointer(err.instancePath)[0];
    const f = key ? metadataField(doc, key) : undefined;
    const [a, b] = f ? [f.valueStart, f.valueEnd] : [m.valueStart, m.valueEnd];
    if (err.keyword === 'type') {
      const v = key ? (m.value as Record<string, unknown>)[key] : m.value;
      report(a, b, 'error', 'cmdq.wrong-type', `"metadata${key ? '.' + key : ''}" must be ${typeName((err.params as { type: string }).type)}, got ${describeValue(v, typeof v === 'number' ? doc.text.slice(a, b) : undefined)}`);
    } else report(a, b, 'error', 'cmdq.invalid-value', `"metadata${key ? '.' + key : ''}" ${err.message ?? 'is invalid'}`);
  }
}

/** Every diagnostic of a parsed CMDQ, unsorted and uncapped. */
export function checkCmdq(doc: ParsedCmdq, graph: () => CmdqGraph): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = reporter(doc, out);
  for (const s of doc.syntax) report(s.start, s.end, 'error', 'cmdq.invalid-json', `Invalid JSON: ${s.message}`);
  const ok = rootDiagnostics(doc, report);
  metadataDiagnostics(doc, report);
  if (!ok) return out;
  for (const e of doc.entries) {
    if (e.broken) continue;
    if (e.kind !== 'object') {
      report(e.start, e.end, 'error', 'cmdq.wrong-type', `Each cmdq entry must be an object, got ${e.kind === 'array' ? 'an array' : `a ${e.kind}`}`);
      continue;
    }
    if (e.schemaValid) continue;
    const before = out.length;
    entrySchemaDiagnostics(doc, e, report);
    // Entries an edit did not touch are shared with the next version (incremental.ts).
    if (out.length === before) e.schemaValid = true;
  }
  const whole = doc.syntax.length === 0;
  const g = graph();
  checkIds(doc, g, report);
  // Every cycle contains a forward dependency: without one there is nothing to search for.
  if (checkDeps(doc, g, whole, report)) checkCycles(doc, g, report);
  // END and SPM lifetimes need the whole queue: while part of it does not parse they would only add noise.
  if (whole) {
    checkEnd(doc, g, report);
    checkSpm(doc, g, report);
  }
  return out;
}

/**
 * A CMDQ held in the editor or the CLI: parsed once per text version; the graph and the
 * diagnostics are computed on first use and cached with it.
 */
export class CmdqDocument {
  private _graph: CmdqGraph | undefined;
  private _diagnostics: Diagnostic[] | undefined;

  constructor(readonly parsed: ParsedCmdq) {}

  static parse(text: string): CmdqDocument {
    return new CmdqDocument(parseCmdq(text));
  }

  /**
   * The next version after `edits` (as the server reports them). One edit inside the cmdq array
   * re-parses only the entries it touched; anything else parses the text again. The graph and
   * diagnostics are then recomputed once for the new version, on first use.
   */
  update(edits: readonly LineEdit[], text: string): CmdqDocument {
    const p = edits.length === 1 ? reparseEdit(this.parsed, text, edits[0]) : undefined;
    return new CmdqDocument(p ?? parseCmdq(text));
  }

  get graph(): CmdqGraph {
    return (this._graph ??= new CmdqGraph(this.parsed.entries));
  }

  allDiagnostics(): Diagnostic[] {
    return (this._diagnostics ??= checkCmdq(this.parsed, () => this.graph));
  }

  diagnostics(settings: DiagnosticSettings): Diagnostic[] {
    return finalizeDiagnostics(this.allDiagnostics(), settings);
  }

  positionAt(offset: number): Position {
    return positionAt(this.parsed.lineStarts, offset);
  }

  offsetAt(p: Position): number {
    return offsetAt(this.parsed.lineStarts, this.parsed.text.length, p);
  }

  /** The entry whose text contains `offset` (binary search over the entries), or undefined. */
  entryAt(offset: number): number | undefined {
    const es = this.parsed.entries;
    let lo = 0;
    let hi = es.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = es[mid];
      if (offset < e.start) hi = mid - 1;
      else if (offset > e.end) lo = mid + 1;
      else return mid;
    }
    return undefined;
  }
}
