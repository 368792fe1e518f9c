import type { ExportProgress } from '../../protocol/parquetWorker';

/** How much of its file an export has read, in whole percent (100 for an empty file). */
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
