import type { Diagnostic } from '../common/diagnostic';
import { spliceLines, splitLines, type LineEdit } from '../common/lines';
import { finalizeDiagnostics, type DiagnosticSettings } from '../common/settings';
import type { Analysis } from './analysis';
import { IncrementalAnalysis } from './incremental';
import { looksLikeHtml, parseRowLine, type RowLine } from './row';

/** Lines that are not trace rows share this marker so the per-line cache stays small. */
const NOTHING = { kind: 'nothing' } as const;
type Cached = RowLine | typeof NOTHING;

/**
 * A systrace held in the editor: one parsed row per line. Edits re-parse only the lines they
 * touched; when asked, the trees, diagnostics and numbers are rebuilt only for the runs whose
 * rows changed (see `IncrementalAnalysis`).
 */
export class NnapiDocument {
  private _analysis: Analysis | undefined;
  private readonly incremental = new IncrementalAnalysis();

  private constructor(private rows: Cached[], private html: boolean) {}

  static parse(text: string): NnapiDocument {
    const lines = splitLines(text);
    return new NnapiDocument(lines.map(read), looksLikeHtml(lines[0] ?? ''));
  }

  /** From an editor's lines, without joining them into one string. */
  static fromLines(count: number, lineText: (i: number) => string): NnapiDocument {
    const rows = new Array<Cached>(count);
    for (let i = 0; i < count; i++) rows[i] = read(lineText(i));
    return new NnapiDocument(rows, count > 0 && looksLikeHtml(lineText(0)));
  }

  update(edits: readonly LineEdit[], lineText: (i: number) => string): this {
    const { items, todo } = spliceLines(this.rows, edits);
    for (const i of todo) items[i] = read(lineText(i));
    this.rows = items as Cached[];
    if (todo.includes(0)) this.html = looksLikeHtml(lineText(0));
    this._analysis = undefined;
    return this;
  }

  get lineCount(): number {
    return this.rows.length;
  }

  row(line: number): RowLine | undefined {
    const r = this.rows[line];
    return r === undefined || r.kind === 'nothing' ? undefined : r;
  }

  get analysis(): Analysis {
    this._analysis ??= this.incremental.analyze(this.rows.length, (i) => this.row(i), this.html);
    return this._analysis;
  }

  allDiagnostics(): Diagnostic[] {
    return this.analysis.diagnostics;
  }

  diagnostics(settings: DiagnosticSettings): Diagnostic[] {
    return finalizeDiagnostics(this.allDiagnostics(), settings);
  }
}

function read(line: string): Cached {
  return parseRowLine(line) ?? NOTHING;
}
