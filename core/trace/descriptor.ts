import { checkResult } from '../common/settings';
import { TRACE_CODES } from './codes';
import { COMPRESSED_TIMELINE_EDITOR, type FormatDescriptor, LineChecker } from '../formatDescriptor';
import { TraceChecker } from './checker';
import { ByteLine, fastTraceBytes } from './fastBytes';
import type { TraceLine } from './line';
import { parseTraceLine } from './parseLine';
import { NpuTimelineBuilder } from './timeline';
import { traceDiff } from './diff';

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

export const traceFormat: FormatDescriptor = {
  id: 'npu-trace',
  displayName: 'NPU trace',
  codes: TRACE_CODES,
  language: { aliases: ['NPU Trace', 'npu-trace'], extensions: ['.trace.jsonl'] },
  names: ['*.jsonl', '*.jsonl.gz'],
  customEditors: [COMPRESSED_TIMELINE_EDITOR],
  // Another name (untitled, `.log` …) by a first line that is an NPU trace event; never a .json (or
  // a gzipped one): a one-line Chrome trace exported from an NPU trace (jq -c, any re-save) holds
  // "event_type" in its first events' args.
  detect: (name, head) => !/\.json(?:\.gz)?$/i.test(name) && /^\s*\{.*"event_type"\s*:/.test(head.firstLine),
  lineTooLong: { code: 'trace.line-too-long', severity: 'error' },
  lineTooDeep: { code: 'trace.too-deep', severity: 'error' },
  createChecker: (opts = {}) => createTraceChecker(opts.maxProblems).lines,
  timeline: (opts) => new NpuTimelineBuilder(opts),
  parquetTables: 'npu',
  exportsChrome: true,
  summary: true,
  diff: traceDiff,
};
