import type { Diagnostic } from '../common/diagnostic';
import { spliceLines, splitLines, type LineEdit } from '../common/lines';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import { TraceChecker } from './checker';
import { TraceChecks } from './incrementalChecks';
import { TraceIndex } from './index';
import type { TraceLine } from './line';
import { parseTraceLine } from './parseLine';

/**
 * A trace held in the editor: one parsed record per line. Edits re-parse only the lines they
 * touched. The cross-line checks of a document only read are one pass (`TraceChecker`); once it
 * is edited they are kept per id (`TraceChecks`, about three times the cost to build) and an
 * edit re-checks only the ids its lines held and hold. The index is rebuilt when asked.
 */
export class TraceDocument {
  private _index: TraceIndex | undefined;
  private _diagnostics: Diagnostic[] | undefined;
  private checks: TraceChecks | undefined;
  private edited = false;

  private constructor(public lines: TraceLine[]) {}

  static parse(text: string): TraceDocument {
    return new TraceDocument(splitLines(text).map(parseTraceLine));
  }

  /** `lineText(i)` reads line `i` of the new version. */
  update(edits: readonly LineEdit[], lineText: (i: number) => string): this {
    // One edit (typing, a paste, a deleted block) updates the checks; several at once (multiple
    // cursors) rebuild them.
    const one = edits.length === 1 ? edits[0] : undefined;
    const old = one && this.checks ? this.lines.slice(one.start, one.end) : undefined;
    const { items, todo } = spliceLines(this.lines, edits);
    for (const i of todo) items[i] = parseTraceLine(lineText(i));
    this.lines = items as TraceLine[];
    if (one && old && this.checks) this.checks.edited(this.lines, one.start, one.end, one.newCount, old);
    else this.checks = undefined;
    this.edited = true;
    this._index = undefined;
    this._diagnostics = undefined;
    return this;
  }

  /** All diagnostics, unsorted and uncapped. */
  allDiagnostics(): Diagnostic[] {
    if (!this._diagnostics) {
      if (this.edited) this.checks ??= new TraceChecks(this.lines);
      this._diagnostics = this.checks ? this.checks.diagnostics() : onePass(this.lines);
    }
    return this._diagnostics;
  }

  diagnostics(settings: DiagnosticSettings): Diagnostic[] {
    return finalizeDiagnostics(this.allDiagnostics(), settings);
  }

  get index(): TraceIndex {
    return (this._index ??= new TraceIndex(this.lines));
  }
}

function onePass(lines: readonly TraceLine[]): Diagnostic[] {
  const c = new TraceChecker((i) => lines[i]?.text);
  for (let i = 0; i < lines.length; i++) c.add(lines[i], i);
  return c.finish();
}
