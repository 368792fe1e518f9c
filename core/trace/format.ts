import type { FormatDefinition, LineChecker } from '../format';
import { TraceChecker } from './checker';
import { parseTraceLine } from './parseLine';

export const traceFormat: FormatDefinition = {
  id: 'npu-trace',
  matches: (name, first) => /\.jsonl(\.gz)?$/i.test(name) || (/\.json$/i.test(name) === false && /"event_type"/.test(first)),
  createChecker(): LineChecker {
    const c = new TraceChecker();
    return { add: (line, n) => c.add(parseTraceLine(line), n), finish: () => c.finish() };
  },
};
