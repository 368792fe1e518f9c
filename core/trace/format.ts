import { checkResult } from '../common/settings';
import { TRACE_CODES } from './codes';
import type { FormatDefinition, LineChecker } from '../format';
import { TraceChecker } from './checker';
import { ByteLine, fastTraceBytes } from './fastBytes';
import type { TraceLine } from './line';
import { parseTraceLine } from './parseLine';

/** A streamed trace's lines, parsed and handed to `onLine` (the checker, or a worker's recorder). */
export function parsedLines(onLine: (l: TraceLine, lineNo: number) => void, opts: { reuse?: boolean } = {}): Required<Pick<LineChecker, 'add' | 'addBytes'>> {
  // With `reuse`, `onLine` keeps no line: the byte scanner's lines are one object, remade each line.
  const into = opts.reuse ? new ByteLine(new Uint8Array(0), 0, 0, () => '', '', undefined, undefined, undefined, undefined, undefined, -1, -1, -1, -1, -1) : undefined;
  return {
    add: (line, n) => onLine(parseTraceLine(line), n),
    // Streaming keeps no objects: the byte scanner certifies clean lines, the full parser explains the rest.
    addBytes: (b, s, e, n, decode) => onLine(fastTraceBytes(b, s, e, decode, into) ?? parseTraceLine(decode(b, s, e)), n),
  };
}

/** The streaming checker of a trace, with its cross-line checker (the parallel CLI check feeds it a worker's records too). */
export function createTraceChecker(maxProblems?: number): { lines: LineChecker; checker: TraceChecker } {
  const c = new TraceChecker(undefined, maxProblems);
  const lines: LineChecker = {
    ...parsedLines((l, n) => c.add(l, n)),
    finish: () => c.finish(),
    finishCapped: (settings, extra) => checkResult(c.finish().concat(extra), settings, c.dropped),
  };
  return { checker: c, lines };
}

export const traceFormat: FormatDefinition = {
  id: 'npu-trace',
  displayName: 'NPU trace',
  codes: TRACE_CODES,
  matches: (name, first) => /\.jsonl(\.gz)?$/i.test(name) || (!/\.json$/i.test(name) && /"event_type"/.test(first)),
  lineTooLong: { code: 'trace.line-too-long', severity: 'error' },
  lineTooDeep: { code: 'trace.too-deep', severity: 'error' },
  createChecker: (opts = {}) => createTraceChecker(opts.maxProblems).lines,
};
