import type { Position, Range, TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { nestsDeeperThan, splitLines, type LineEdit } from '../core/common/lines';

/**
 * A document kept as an array of lines. An incremental change rewrites only the lines it touches,
 * where a single string would be copied (and flattened) whole on every keystroke: on a 100k-line
 * trace that copy alone cost more than re-checking. The full text is joined lazily, for formats
 * that parse the whole file. Lines are joined with '\n' (VS Code keeps one EOL kind per document,
 * and positions are line/character, so the EOL kind never shows in results).
 */
export class LineDocument implements TextDocument {
  private text: string | undefined;
  private offsets: number[] | undefined;

  constructor(readonly uri: string, readonly languageId: string, public version: number, private lines: string[]) {}

  static create(uri: string, languageId: string, version: number, text: string): LineDocument {
    const d = new LineDocument(uri, languageId, version, splitLines(text));
    d.text = text.indexOf('\r') < 0 ? text : undefined;
    return d;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  line(i: number): string {
    return this.lines[i] ?? '';
  }

  getLineRange(line: number): Range {
    return { start: { line, character: 0 }, end: { line, character: this.line(line).length } };
  }

  getEOLCharacters(): string {
    return '\n';
  }

  getText(range?: Range): string {
    this.text ??= this.lines.join('\n');
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  offsetAt(p: Position): number {
    const o = this.lineOffsets();
    if (p.line >= this.lines.length) return this.getText().length;
    if (p.line < 0) return 0;
    return o[p.line] + Math.max(0, Math.min(p.character, this.lines[p.line].length + (p.line + 1 < this.lines.length ? 1 : 0)));
  }

  positionAt(offset: number): Position {
    const o = this.lineOffsets();
    offset = Math.max(0, Math.min(offset, this.getText().length));
    let lo = 0, hi = o.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (o[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - o[lo] };
  }

  private lineOffsets(): number[] {
    if (!this.offsets) {
      const o = new Array<number>(this.lines.length);
      let at = 0;
      for (let i = 0; i < this.lines.length; i++) {
        o[i] = at;
        at += this.lines[i].length + 1;
      }
      this.offsets = o;
    }
    return this.offsets;
  }

  /** Applies LSP changes in order; returns the line edits, or undefined after a full replacement. */
  apply(changes: readonly TextDocumentContentChangeEvent[], version: number): LineEdit[] | undefined {
    this.version = version;
    this.text = undefined;
    this.offsets = undefined;
    const edits: LineEdit[] = [];
    let full = false;
    for (const ch of changes) {
      // A malformed change (no text) from a client is ignored rather than breaking the document.
      if (typeof ch?.text !== 'string') continue;
      if (!('range' in ch) || !ch.range) {
        this.lines = splitLines(ch.text);
        full = true;
        continue;
      }
      const last = this.lines.length - 1;
      const s = clamp(ch.range.start, last, this.lines);
      const e = clamp(ch.range.end, last, this.lines);
      const head = this.lines[s.line].slice(0, s.character);
      const tail = this.lines[e.line].slice(e.character);
      const fresh = splitLines(head + ch.text + tail);
      // concat, not splice(...fresh): a pasted block of 100k lines would overflow the argument limit.
      this.lines = fresh.length > 1000
        ? this.lines.slice(0, s.line).concat(fresh, this.lines.slice(e.line + 1))
        : (this.lines.splice(s.line, e.line - s.line + 1, ...fresh), this.lines);
      edits.push({ start: s.line, end: e.line + 1, newCount: fresh.length });
    }
    return full ? undefined : edits;
  }
}

function clamp(p: Position, last: number, lines: string[]): Position {
  const line = Math.max(0, Math.min(p.line, last));
  return { line, character: Math.max(0, Math.min(p.character, lines[line].length)) };
}

/**
 * A line-based format's view of a document: lines longer than `limit` characters, and with
 * `depth` JSON lines nesting deeper than that, read as empty, so no parser ever holds or scans
 * them (a 20 MB line cost 2 GB and seconds per edit). The lines are the document's own; only the
 * whole text is joined anew, and only when a line is cut.
 */
export class LimitedLines extends LineDocument {
  constructor(private readonly source: LineDocument, readonly limit: number, readonly depth?: number) {
    super(source.uri, source.languageId, source.version, []);
  }

  override get lineCount(): number {
    return this.source.lineCount;
  }

  /** Why line `i` is not read: 'long', 'deep', or undefined when it is. */
  skipped(i: number): 'long' | 'deep' | undefined {
    const l = this.source.line(i);
    if (l.length > this.limit) return 'long';
    if (this.depth !== undefined && l.length > this.depth && nestsDeeperThan((k) => l.charCodeAt(k), 0, l.length, this.depth)) return 'deep';
    return undefined;
  }

  override line(i: number): string {
    return this.skipped(i) ? '' : this.source.line(i);
  }

  /** The lines not read, in order, at most `max` of them, and how many there are. */
  skippedLines(max: number): { lines: [number, 'long' | 'deep'][]; count: number } {
    const lines: [number, 'long' | 'deep'][] = [];
    let count = 0;
    for (let i = 0; i < this.source.lineCount; i++) {
      const why = this.skipped(i);
      if (!why) continue;
      if (lines.length < max) lines.push([i, why]);
      count++;
    }
    return { lines, count };
  }

  override getText(range?: Range): string {
    if (range || this.skippedLines(1).count === 0) return this.source.getText(range);
    const out: string[] = [];
    for (let i = 0; i < this.source.lineCount; i++) out.push(this.line(i));
    return out.join('\n');
  }
}
