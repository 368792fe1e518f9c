import type { Diagnostic } from '../core/common/diagnostic';
import { checkResult, defaultDiagnosticSettings } from '../core/common/settings';
import type { CheckResult, FormatDescriptor } from '../core/formatDescriptor';
import { eachPiece } from '../node/io/byteFiles';
import type { GzipEnd } from '../node/io/gunzip';
import { gzipGarbage, gzipTruncated } from './fileProblems';

/** A gzip stream cut short or followed by garbage: at the start of the file (a binary file has no lines). */
export function gzipProblems(gzip: GzipEnd): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (gzip.truncated) out.push(gzipTruncated(0));
  if (gzip.garbageAt !== undefined) out.push(gzipGarbage(0, gzip.garbageAt));
  return out;
}

/** `npu-trace check` of a binary format (a Perfetto trace): its problems, capped, and whether one is an error. */
export async function checkBytes(file: string, fmt: FormatDescriptor, maxProblems: number): Promise<CheckResult> {
  const settings = { ...defaultDiagnosticSettings, maxProblems };
  const checker = fmt.createByteChecker?.({ maxProblems });
  if (!checker) return checkResult([], settings);
  const gzip: GzipEnd = { truncated: false, garbageAt: undefined };
  await eachPiece(file, (b) => checker.feed(b), gzip);
  return checker.finish(settings, gzipProblems(gzip));
}
