import { clip } from '../common/clip';
import type { Diagnostic } from '../common/diagnostic';
import { escapeControl } from '../common/escape';
import { defaultDiagnosticSettings, type DiagnosticSettings } from '../common/settings';
import { checkCycles, checkDeps, checkEnd, checkIds } from './checks';
import { metadataField } from './fields';
import { CmdqGraph } from './graph';
import type { CmdqEntry, ParsedCmdq } from './model';
import { parseCmdq } from './parser';
import { reparseEdit } from './incremental';
import type { LineEdit } from '../common/lines';
import { offsetAt, positionAt } from '../json/positions';
import { BoundedDiagnostics, reporter, type Report } from '../json/report';
import { describeValue, entrySchemaDiagnostics, pointer, typeName } from './schemaDiagnostics';
import { checkSpm } from './spm';
import { opcodeSchema } from './opcodes';
import { validateEntry, validateMetadata } from './validator';
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
    // The key is the file's: one short line in the message.
    const name = `metadata${key ? '.' + escapeControl(clip(key)) : ''}`;
    if (err.keyword === 'type') {
      const v = key ? (m.value as Record<string, unknown>)[key] : m.value;
      report(a, b, 'error', 'cmdq.wrong-type', `"${name}" must be ${typeName((err.params as { type: string }).type)}, got ${describeValue(v, typeof v === 'number' ? doc.text.slice(a, b) : undefined)}`);
    } else report(a, b, 'error', 'cmdq.invalid-value', `"${name}" ${err.message ?? 'is invalid'}`);
  }
}

/** The codes the schema translation can give an entry (all errors). */
const SCHEMA_CODES = ['cmdq.missing-field', 'cmdq.wrong-type', 'cmdq.invalid-value', 'cmdq.unknown-opcode'] as const;

/** Whether an entry has a schema problem, without translating it (cached: the entry is shared with later versions). */
function schemaFails(e: CmdqEntry): boolean {
  return (e.schemaFails ??= (e.opcode !== undefined && !opcodeSchema(e.opcode)) || validateEntry(e.obj!, e.opcode) !== undefined);
}

/**
 * The diagnostics of a parsed CMDQ into `out`, which keeps the first `maxProblems` by position and
 * counts the rest: the checks locate and word a problem only when it can still be shown.
 */
export function checkCmdq(doc: ParsedCmdq, graph: () => CmdqGraph, out: BoundedDiagnostics): void {
  const report = reporter(doc, out);
  diagnose(doc, graph, report);
}

function diagnose(doc: ParsedCmdq, graph: () => CmdqGraph, report: Report): void {
  for (const s of doc.syntax) report(s.start, s.end, 'error', 'cmdq.invalid-json', `Invalid JSON: ${s.message}`);
  const ok = rootDiagnostics(doc, report);
  metadataDiagnostics(doc, report);
  if (!ok) return;
  for (const e of doc.entries) {
    if (e.broken) continue;
    if (e.kind !== 'object') {
      report(e.start, e.end, 'error', 'cmdq.wrong-type', `Each cmdq entry must be an object, got ${e.kind === 'array' ? 'an array' : `a ${e.kind}`}`);
      continue;
    }
    if (e.schemaValid) continue;
    // Entries an edit did not touch are shared with the next version (incremental.ts). A valid
    // entry is not asked where it is: its offsets may not have been found yet (parser.ts LazySpans).
    if (!schemaFails(e)) {
      e.schemaValid = true;
      continue;
    }
    // Past the cap an entry's schema problems are only counted (at least one per failing entry).
    if (!report.wants(e.start) && report.countAtLeastOne('error', SCHEMA_CODES)) continue;
    entrySchemaDiagnostics(doc, e, report);
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
}

/**
 * A CMDQ held in the editor or the CLI: parsed once per text version; the graph and the
 * diagnostics are computed on first use and cached with it.
 */
export class CmdqDocument {
  private _graph: CmdqGraph | undefined;
  private _diagnostics: { key: string; list: Diagnostic[]; hasError: boolean } | undefined;

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

  /** Every diagnostic, uncapped, in position order (tests and tools; the editor and the CLI use `capped`). */
  allDiagnostics(): Diagnostic[] {
    return this.capped({ ...defaultDiagnosticSettings, maxProblems: Infinity }).diagnostics;
  }

  /**
   * The first `maxProblems` diagnostics by position, after a summary of the rest, and whether any
   * problem (shown or not) is an error. Computed once per version and settings.
   */
  capped(settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean } {
    const key = JSON.stringify(settings);
    if (this._diagnostics?.key !== key) {
      const out = new BoundedDiagnostics(settings);
      checkCmdq(this.parsed, () => this.graph, out);
      this._diagnostics = { key, list: out.result(), hasError: out.hasError };
    }
    return { diagnostics: this._diagnostics.list, hasError: this._diagnostics.hasError };
  }

  diagnostics(settings: DiagnosticSettings): Diagnostic[] {
    return this.capped(settings).diagnostics;
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
