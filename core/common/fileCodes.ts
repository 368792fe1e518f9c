// The diagnostic codes of the file itself (every format), each with an example and its message. The manual's table
// (docs/cli.md) and the SARIF rules of `npu-trace check` are made from this list (npm run gen:docs).
import type { CodeDoc } from './codeDoc';

export const FILE_CODES: readonly CodeDoc[] = [
  { code: "too-many-problems", severity: "information", example: "more than `maxProblems` diagnostics → *N further problems not shown* (on line 1)" },
  { code: "file.truncated", severity: "error", example: "a `.gz` cut off in the middle → *The gzip data ends in the middle of the file (cut off or corrupt): line 88424 and anything after it are missing; the lines before it were checked* (on the cut line; every problem of the lines before it is reported too)" },
  { code: "file.trailing-garbage", severity: "warning", example: "bytes after the last member that are not gzip → *Bytes after the end of the gzip data (from byte 1210 of the file) are not gzip and were ignored, as gzip -d does* (on the last line; all decoded lines are checked)" },
  { code: "file.too-large", severity: "error", example: "a CMDQ file over 64 MB → *The file is 80 MB (3 lines), over the 64 MB a document read whole may have: it is not checked*" },
];
