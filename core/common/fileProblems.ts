import { compareDiagnostics, range, type Diagnostic } from './diagnostic';
import { formatBytes } from './lines';
import { finalizeDiagnostics, type DiagnosticSettings } from './settings';

// Problems of the file as a whole (FILE_CODES, fileCodes.ts) that only the command line meets: the
// editor gets its text already decompressed and decoded by VS Code. Every format's check gets them
// the same way: found by the reader, merged into its result once, by `withFileProblems`.

export const gzipTruncated = (line: number): Diagnostic => ({
  range: range(line, 0, 0), severity: 'error', code: 'file.truncated',
  message: `The gzip data ends in the middle of the file (cut off or corrupt): line ${line + 1} and anything after it are missing; the lines before it were checked`,
});

export const gzipGarbage = (line: number, offset: number): Diagnostic => ({
  range: range(line, 0, 0), severity: 'warning', code: 'file.trailing-garbage',
  message: `Bytes after the end of the gzip data (from byte ${offset} of the file) are not gzip and were ignored, as gzip -d does`,
});

export const fileTooLarge = (lines: number, size: number, limit: number): Diagnostic => ({
  range: range(0, 0, 0), severity: 'error', code: 'file.too-large',
  message: `The file is ${formatBytes(size)} (${lines} lines), over the ${formatBytes(limit)} a document read whole may have: it is not checked`,
});

/** How a gzip stream ended (node/io/gunzip.ts `GzipEnd`). */
export interface GzipEndState {
  truncated: boolean;
  garbageAt: number | undefined;
}

/** The problems of how a `.gz` ended, on `line` (where the data stops; 0 for a binary file). */
export function gzipEndProblems(end: GzipEndState, line: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (end.truncated) out.push(gzipTruncated(line));
  if (end.garbageAt !== undefined) out.push(gzipGarbage(line, end.garbageAt));
  return out;
}

/**
 * A format's check result with the problems of the file itself: always shown (there are at most
 * three, and a cap must never hide that half the file is missing), in position order after the
 * summary of a capped list, with the settings' severity overrides, and counted in the exit status.
 */
export function withFileProblems(r: { diagnostics: Diagnostic[]; hasError: boolean }, problems: readonly Diagnostic[], settings: DiagnosticSettings): { diagnostics: Diagnostic[]; hasError: boolean } {
  const own = finalizeDiagnostics([...problems], { ...settings, maxProblems: Infinity });
  if (!own.length) return r;
  const summary = r.diagnostics[0]?.code === 'too-many-problems' ? r.diagnostics.slice(0, 1) : [];
  const rest = r.diagnostics.slice(summary.length).concat(own).sort(compareDiagnostics);
  return { diagnostics: [...summary, ...rest], hasError: r.hasError || own.some((d) => d.severity === 'error') };
}
