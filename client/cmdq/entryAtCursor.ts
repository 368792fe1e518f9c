/**
 * The CMDQ entry the graph selects for an editor cursor at offset `off` on the line
 * `[lineStart, lineEnd]`: the entry whose text holds the cursor, else the last entry before the cursor
 * that starts on its line, else the first entry that starts on it — so Ctrl+G or Home onto an entry's
 * line (the cursor in its indentation, or after the comma that ends it) selects that entry. -1 when
 * none starts on the line. `starts`/`ends` are sorted entry ranges.
 */
export function entryAtCursor(starts: ArrayLike<number>, ends: ArrayLike<number>, off: number, lineStart: number, lineEnd: number): number {
  const found = lastAtOrBefore(starts, off);
  // Inside an entry, or after one that starts on this line (its comma; a minified queue's gaps).
  if (found >= 0 && (off <= ends[found] || starts[found] >= lineStart)) return found;
  const first = lastAtOrBefore(starts, lineStart - 1) + 1;
  return first < starts.length && starts[first] <= lineEnd ? first : -1;
}

/** Index of the last start ≤ `off`, by binary search; -1 when none. */
function lastAtOrBefore(starts: ArrayLike<number>, off: number): number {
  let lo = 0, hi = starts.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= off) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
