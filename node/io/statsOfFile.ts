import { DEFAULT_MAX_LINE_BYTES } from '../../core/common/lines';
import { MetricsCollector, type StatsOptions } from '../../core/trace/metrics/collector';
import type { TraceStats } from '../../core/trace/metrics/types';
import { forEachLineBytes } from './lines';

/**
 * The metrics of a trace file (`npu-trace stats`, the timeline's range Summary), read as bytes: the
 * collector reads the fields it needs from them and parses only the lines it cannot read that way,
 * with the same result as `addLine` on every line `forEachLine` gives (the one splitter drops the
 * same lines over DEFAULT_MAX_LINE_BYTES bytes for both).
 */
export async function statsOfFile(file: string, opts: StatsOptions = {}, onProgress?: (bytesRead: number) => void, onTooLong?: (lineNo: number) => void): Promise<TraceStats> {
  const collector = new MetricsCollector(opts);
  await forEachLineBytes(file, (b, s, e, _n, decode) => collector.addBytes(b, s, e, decode), () => {}, { maxLineBytes: DEFAULT_MAX_LINE_BYTES, onProgress, onTooLong });
  return collector.finish();
}
