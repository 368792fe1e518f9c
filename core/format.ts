import type { Diagnostic } from './common/diagnostic';

/** A checker fed one line at a time, so files of any size can be streamed through it. */
export interface LineChecker {
  add(line: string, lineNo: number): void;
  /** All diagnostics, unsorted and uncapped. */
  finish(): Diagnostic[];
}

export interface FormatDefinition {
  /** The VS Code language id. */
  id: string;
  /** Whether a file belongs to this format, from its name and first line. */
  matches(fileName: string, firstLine: string): boolean;
  createChecker(): LineChecker;
}
