import type { FormatDefinition, LineChecker } from '../format';
import { TraceChecker } from './checker';
import { fastTraceBytes } from './fastBytes';
import { parseTraceLine } from './parseLine';

export const traceFormat: FormatDefinition = {
  id: 'npu-trace',
  matches: (name, first) => /\.jsonl(\.gz)?$/i.test(name) || (!/\.json$/i.test(name) && /"event_type"/.test(first)),
  lineTooLong: { code: 'trace.line-too-long', severity: 'error' },
  lineTooDeep: { code: 'trace.too-deep', severity: 'error' },
  createChecker(opts = {}): LineChecker {
    const c = new TraceChecker(undefined, opts.maxProblems);
    return {
      add: (line, n) => c.add(parseTraceLine(line), n),
      // Streaming keeps no objects: the byte scanner certifies clean lines, the full parser explains the rest.
      addBytes: (b, s, e, n, decode) => c.add(fastTraceBytes(b, s, e, decode) ?? parseTraceLine(decode(b, s, e)), n),
      finish: () => c.finish(),
      dropped: () => c.dropped,
    };
  },
};
