import type { Diagnostic, Severity } from './common/diagnostic';
import type { CodeDoc } from './common/codeDoc';
import type { DiagnosticSettings } from './common/settings';

/** A checker fed one line at a time, so files of any size can be streamed through it. */
export interface LineChecker {
  add(line: string, lineNo: number): void;
  /**
   * Optional fast path for streamed files: the line's UTF-8 bytes `[s, e)` (no terminator), and a
   * decoder to fall back on. The bytes are only valid during the call.
   */
  addBytes?(bytes: Uint8Array, s: number, e: number, lineNo: number, decode: (b: Uint8Array, s: number, e: number) => string): void;
  /**
   * Optional fast path for streamed files: the line `[start, end)` of a decoded chunk; `chunk`
   * numbers the chunk (-1: a text made for this line alone). Used when there is no `addBytes`.
   */
  addIn?(text: string, start: number, end: number, lineNo: number, chunk: number): void;
  /** All diagnostics, unsorted; uncapped unless the checker was made with `maxProblems`. */
  finish(): Diagnostic[];
  /**
   * What a check shows, instead of `finish`: with `extra` (the reader's own problems), the first
   * `settings.maxProblems` diagnostics after one summary of the rest, and whether any problem,
   * shown or not, is an error. A checker that can caps while it produces (see `checkResult`).
   */
  finishCapped(settings: DiagnosticSettings, extra: readonly Diagnostic[]): CheckResult;
}

/** The problems a check shows and its exit status. */
export interface CheckResult {
  diagnostics: Diagnostic[];
  hasError: boolean;
}

export interface CheckerOptions {
  /** Keep only the first this many diagnostics by position, counting the rest, where the checker can. */
  maxProblems?: number;
}

export interface FormatDefinition {
  /** The VS Code language id. */
  id: string;
  /** The format's name for people (SARIF rule descriptions, the manual). */
  displayName: string;
  /** Every diagnostic code the format reports, with an example (the manual's table, SARIF rules). */
  codes: readonly CodeDoc[];
  /** Whether a file belongs to this format, from its name and first line. */
  matches(fileName: string, firstLine: string): boolean;
  createChecker(opts?: CheckerOptions): LineChecker;
  /**
   * The diagnostic on a line over the line limit, for line-based formats; a format read as one
   * document has none and bounds its size instead.
   */
  lineTooLong?: { code: string; severity: Severity };
  /** For JSON lines: the diagnostic on a line nesting deeper than `MAX_JSON_DEPTH`, which is skipped. */
  lineTooDeep?: { code: string; severity: Severity };
  /**
   * For a format read as one document: its problems from the whole text at once (capped while they
   * are produced), which costs less than feeding a million lines of a pretty-printed file one by one.
   */
  checkDocument?(text: string, settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean };
  /** For a format read as one document: the largest file the CLI reads whole, when not its default. */
  maxDocumentBytes?: number;
  /**
   * For a document whose checker streams it (Chrome JSON: events split as they come): the CLI reads
   * it at any size, each line (a one-line file is one line) up to this many bytes; a longer one
   * gives `file.too-large`.
   */
  streamedLineBytes?: number;
  /**
   * For a document format past `maxDocumentBytes`: a checker fed the decoded text in pieces of any
   * size, not in lines, so the CLI reads a one-line (compact) file of any size too.
   */
  createChunkChecker?(): ChunkChecker;
}

/** See `FormatDefinition.createChunkChecker`. */
export interface ChunkChecker {
  feed(chunk: string): void;
  finish(settings: DiagnosticSettings): CheckResult;
}
