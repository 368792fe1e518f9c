import type { Diagnostic } from '../core/common/diagnostic';
import { gzipEndProblems } from '../core/common/fileProblems';
import { checkResult, defaultDiagnosticSettings } from '../core/common/settings';
import type { CheckResult, FormatDescriptor } from '../core/formatDescriptor';
import { BYTE_READ_OPTIONS, eachPiece } from '../node/io/byteFiles';
import type { GzipEnd } from '../node/io/gunzip';

/**
 * `npu-trace check` of a binary format (a Perfetto trace): its problems, capped, and whether one is
 * an error; the problems of the file itself (a cut gzip stream: at its start, a binary file has no
 * lines) go to `fileProblems`.
 */
export async function checkBytes(file: string, fmt: FormatDescriptor, maxProblems: number, fileProblems: Diagnostic[]): Promise<CheckResult> {
  const settings = { ...defaultDiagnosticSettings, maxProblems };
  const checker = fmt.createByteChecker?.({ maxProblems, ...BYTE_READ_OPTIONS });
  if (!checker) return checkResult([], settings);
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  await eachPiece(file, (b) => checker.feed(b), gzip);
  fileProblems.push(...gzipEndProblems(gzip, 0));
  return checker.finish(settings);
}
