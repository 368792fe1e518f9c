import { range, type Diagnostic } from '../core/common/diagnostic';
import { formatBytes } from '../core/common/lines';

// Problems of the file as a whole that only the command line meets: the editor gets its text
// already decompressed and decoded by VS Code.

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
