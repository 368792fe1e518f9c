import type { Position, Range } from '../common/diagnostic';

/** Start offset of every line; `\r\n`, `\r` and `\n` all end a line, as in LSP. */
export function computeLineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  if (text.indexOf('\r') < 0) {
    // Fast path for the common LF-only file: indexOf is far quicker than a charCode loop.
    while (i >= 0) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    return starts;
  }
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10) starts.push(k + 1);
    else if (c === 13) {
      if (text.charCodeAt(k + 1) === 10) k++;
      starts.push(k + 1);
    }
  }
  return starts;
}

export function positionAt(lineStarts: ArrayLike<number>, offset: number): Position {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - lineStarts[lo] };
}

export function offsetAt(lineStarts: ArrayLike<number>, length: number, p: Position): number {
  if (p.line >= lineStarts.length) return length;
  if (p.line < 0) return 0;
  const next = p.line + 1 < lineStarts.length ? lineStarts[p.line + 1] : length;
  return Math.min(lineStarts[p.line] + Math.max(0, p.character), next);
}

export function rangeOf(lineStarts: ArrayLike<number>, start: number, end: number): Range {
  return { start: positionAt(lineStarts, start), end: positionAt(lineStarts, end) };
}
