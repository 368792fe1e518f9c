import { basename } from 'node:path';
import { clip } from '../../core/common/clip';
import { escapeControl } from '../../core/common/escape';
import type { ExportProgress } from '../../protocol/parquetWorker';

export const percentOf = (p: ExportProgress): number => (p.size > 0 ? Math.min(100, Math.floor((p.bytesRead * 100) / p.size)) : 100);

/**
 * `report` called only when the whole percent grows: at most 101 calls per file whatever its size
 * (a worker posts each one to the main thread).
 */
export function percentSteps(size: number, report: (p: ExportProgress) => void): (bytesRead: number) => void {
  let shown = -1;
  return (bytesRead) => {
    const p = { bytesRead, size };
    const pct = percentOf(p);
    if (pct > shown) {
      shown = pct;
      report(p);
    }
  };
}

const MB = (n: number) => (n / (1 << 20)).toFixed(1);

/** The CLI's status line on a terminal (rewritten in place with `\r`): short enough not to wrap. */
export function progressLine(head: string, file: string, p: ExportProgress): string {
  return `\r\x1b[K${head} ${escapeControl(clip(basename(file), 60))}: ${percentOf(p)}% (${MB(p.bytesRead)} of ${MB(p.size)} MB)`;
}
