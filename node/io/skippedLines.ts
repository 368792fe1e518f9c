import { formatBytes } from '../../core/common/lines';

/**
 * Lines an export leaves out (over the line limit, nested too deep), counted as the reader meets
 * them: an export skips such a line and says so, as `check` does, instead of refusing the file.
 */
export class SkippedLines {
  private count = 0;
  private first = 0;

  constructor(private readonly why: string) {}

  add(lineNo: number): void {
    if (this.count++ === 0) this.first = lineNo;
  }

  /** One sentence for the user (`where` the events are missing from), or undefined when no line was skipped. */
  note(where = 'the output'): string | undefined {
    const n = this.count;
    if (!n) return undefined;
    return `${n} line${n === 1 ? '' : 's'} ${this.why} skipped (the first is line ${this.first + 1}): ${n === 1 ? 'its' : 'their'} events are not in ${where}`;
  }
}

/** Lines over `limit` bytes: the reader holds none of them. */
export const tooLongLines = (limit: number) => new SkippedLines(`over ${formatBytes(limit)}`);

/** How a `.gz` ended (node/io/gunzip.ts), as an export says it: a cut file is refused, garbage after it said. */
export function gzipEndForExport(end: { truncated: boolean; garbageAt: number | undefined }): { refuse?: string; note?: string } {
  if (end.truncated) return { refuse: 'the gzip data ends in the middle of the file (cut off or corrupt): not exported, as half a file would pass for the whole' };
  if (end.garbageAt !== undefined) return { note: `bytes after the end of the gzip data (from byte ${end.garbageAt} of the file) are not gzip and were ignored, as gzip -d does` };
  return {};
}
