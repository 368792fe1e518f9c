import { DEFAULT_MAX_LINE_BYTES } from '../core/common/lines';
import { MetricsCollector, type StatsOptions } from '../core/trace/metrics/collector';
import type { TraceStats } from '../core/trace/metrics/types';
import { forEachLineBytes } from './lines';

/**
 * The metrics of a trace file (`npu-trace stats`, the timeline's range Summary), read as bytes: the
 * collector reads the fields it needs from them and parses only the lines it cannot read that way,
 * with the same result as `addLine` on every line `forEachLine` gives. That reader drops lines
 * longer than DEFAULT_MAX_LINE_BYTES UTF-16 units; a line has at most 3 bytes per unit, so lines
 * longer than that in bytes are measured decoded.
 */
export async function statsOfFile(file: string, opts: StatsOptions = {}, onProgress?: (bytesRead: number) => void): Promise<TraceStats> {
  const collector = new MetricsCollector(opts);
  const limit = DEFAULT_MAX_LINE_BYTES;
  await forEachLineBytes(file, (b, s, e, _n, decode) => {
    if (e - s <= limit) collector.addBytes(b, s, e, decode);
    else {
      const text = decode(b, s, e);
      if (text.length <= limit) collector.addLine(text);
    }
  }, (line) => collector.addLine(line), { maxLineBytes: 3 * limit, onProgress });
  return collector.finish();
}
