import type { Diagnostic } from './common/diagnostic';
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
  /** All diagnostics, unsorted and uncapped. */
  finish(): Diagnostic[];
  /**
   * Optional, preferred when present: the first `settings.maxProblems` diagnostics (capped while
   * they are produced, with the summary) and whether any problem, shown or not, is an error.
   */
  finishCapped?(settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean };
}

export interface FormatDefinition {
  /** The VS Code language id. */
  id: string;
  /** Whether a file belongs to this format, from its name and first line. */
  matches(fileName: string, firstLine: string): boolean;
  createChecker(): LineChecker;
}
