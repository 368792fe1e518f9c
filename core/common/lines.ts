/**
 * Splits text into lines the way LSP counts them: `\n`, `\r\n` and lone `\r` all end a line,
 * and the terminator is not part of the line.
 */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Lines `[start, end)` of the previous version were replaced by `newCount` lines. */
export interface LineEdit {
  start: number;
  end: number;
  newCount: number;
}

/**
 * Applies line edits (in the order they happened) to per-line data, leaving `undefined` where lines
 * must be recomputed. Returns the new array and the indices to recompute. `items` belongs to the
 * caller's document and may be changed in place: an edit that keeps the line count (typing within
 * lines, the common case) costs no copy of a 100k-entry array, which kept the collector busy.
 */
export function spliceLines<T>(items: (T | undefined)[], edits: readonly LineEdit[]): { items: (T | undefined)[]; todo: number[] } {
  let out = items;
  let shifted = false;
  const replaced = new Set<number>();
  for (const e of edits) {
    if (e.newCount === e.end - e.start) {
      for (let i = e.start; i < e.end; i++) {
        out[i] = undefined;
        replaced.add(i);
      }
      continue;
    }
    shifted = true;
    const fresh = new Array<T | undefined>(e.newCount).fill(undefined);
    // concat, not splice(...fresh): a pasted block of 100k lines would overflow the argument limit.
    out = out.slice(0, e.start).concat(fresh, out.slice(Math.max(e.start, e.end)));
  }
  // Without a shift the lines to recompute are the edited ranges: no scan of a 1M-entry array.
  if (!shifted) return { items: out, todo: [...replaced].sort((a, b) => a - b) };
  const todo: number[] = [];
  for (let i = 0; i < out.length; i++) if (out[i] === undefined) todo.push(i);
  return { items: out, todo };
}
