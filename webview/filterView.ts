import type { TimelineModel } from '../core/timeline/model';

/**
 * The items that pass the filter, row by row, in the model's order (row, then start). Built once
 * per filter change, in O(items), so that a frame with a filter on runs the same per-pixel binary
 * searches over this list as an unfiltered frame runs over the row, instead of visiting every item.
 */
export interface FilteredRows {
  /** Item indices that pass, sorted by row then start. */
  readonly items: Uint32Array;
  /** rowCount + 1 entries: row r's passing items are items[rowStart[r] .. rowStart[r + 1]). */
  readonly rowStart: Uint32Array;
}

export function filterRows(m: TimelineModel, ctxPass: Uint8Array): FilteredRows {
  const ctx = m.items.ctx, n = ctx.length, rows = m.rowItemStart.length - 1;
  let count = 0;
  for (let i = 0; i < n; i++) count += ctxPass[ctx[i]];
  const items = new Uint32Array(count);
  const rowStart = new Uint32Array(rows + 1);
  let k = 0;
  for (let r = 0; r < rows; r++) {
    rowStart[r] = k;
    for (let i = m.rowItemStart[r], hi = m.rowItemStart[r + 1]; i < hi; i++) if (ctxPass[ctx[i]] === 1) items[k++] = i;
  }
  rowStart[rows] = k;
  return { items, rowStart };
}
