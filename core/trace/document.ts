import type { Diagnostic } from '../common/diagnostic';
import { spliceLines, splitLines, type LineEdit } from '../common/lines';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import { TraceChecker } from './checker';
import { TraceIndex } from './index';
import type { TraceLine } from './line';
import { parseTraceLine } from './parseLine';

/**
 * A trace held in the editor: one parsed record per line. Edits re-parse only the lines they
 * touched; the cross-line checks and the index are recomputed from the records when asked.
 */
export class TraceDocument {
  private _index: TraceIndex | undefined;
  private _diagnostics: Diagnostic[] | undefined;

  private constructor(public lines: TraceLine[]) {}

  static parse(text: string): TraceDocument {
    return new TraceDocument(splitLines(text).map(parseTraceLine));
  }

  /** `lineText(i)` reads line `i` of the new version. */
  update(edits: readonly LineEdit[], lineText: (i: number) => string): this {
    const { items, todo } = spliceLines(this.lines, edits);
    for (const i of todo) items[i] = parseTraceLine(lineText(i));
    this.lines = items as TraceLine[];
    this._index = undefined;
    this._diagnostics = undefined;
    return this;
  }

  /** All diagnostics, unsorted and uncapped. */
  allDiagnostics(): Diagnostic[] {
    if (!this._diagnostics) {
      const lines = this.lines;
      const c = new TraceChecker((i) => lines[i]?.text);
      for (let i = 0; i < lines.length; i++) c.add(lines[i], i);
      this._diagnostics = c.finish();
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
