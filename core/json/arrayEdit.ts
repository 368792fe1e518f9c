import { kindOfChar } from './jsoncParser';
import { scanWindow, windowFormsArray } from './split';
import type { Span } from './spans';

/** How a document's elements are made and moved when an edit re-splits part of their array. */
export interface ElementKind<E extends Span & { index: number }> {
  /** A fresh element parsed from the edited text (`value`: what JSON.parse gave). */
  make(index: number, start: number, end: number, kind: string, value: unknown): E;
  /** An element after the edit, as a copy at its new index and offsets (the old version keeps its own). */
  move(e: E, index: number, delta: number): E;
}

/**
 * The elements of an array after an edit that replaced the text `[a, b)` of the old text (`delta`:
 * new length − old length), or undefined when the edit is not one inside the array that a window
 * re-split can take. The edited range is widened to the elements around it; that window of the new
 * text is split again and its elements JSON.parsed; elements before it are kept, those after it
 * moved. `open`/`close`: the old array's `[` and `]`; `trailingComma`: whether `,` may stand before
 * `]` (JSONC). A comment or a syntax error in the window gives undefined: the full parse reports it.
 */
export function resplitArray<E extends Span & { index: number }>(
  elements: readonly E[], text: string, open: number, close: number, a: number, b: number, delta: number,
  trailingComma: boolean, kind: ElementKind<E>,
): E[] | undefined {
  const n = elements.length;
  if (a <= open || b > close) return undefined;
  // Elements overlapping [a, b): i0 is the first ending after a, i1 the last starting before b.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (elements[mid].end <= a) lo = mid + 1;
    else hi = mid;
  }
  const i0 = lo;
  let i1 = i0 - 1;
  while (i1 + 1 < n && elements[i1 + 1].start < b) i1++;
  const left = i0 > 0 ? elements[i0 - 1].end : open + 1;
  const right = i1 + 1 < n ? elements[i1 + 1].start : close;
  if (left > a || right < b) return undefined;

  const items = scanWindow(text, left, right + delta);
  if (!items) return undefined;
  // The window's commas and elements, with the elements (or brackets) around it, must form an array.
  if (!windowFormsArray(items, i0 > 0, i1 + 1 < n, trailingComma)) return undefined;
  const out: E[] = elements.slice(0, i0);
  for (const it of items) {
    if (it.end < 0) continue;
    let v: unknown;
    try {
      v = JSON.parse(text.slice(it.start, it.end));
    } catch {
      return undefined; // comments or a real error: the full parse reports it where it is
    }
    out.push(kind.make(out.length, it.start, it.end, kindOfChar(text.charCodeAt(it.start)), v));
  }
  const shift = out.length - (i1 + 1);
  for (let k = i1 + 1; k < n; k++) {
    const e = elements[k];
    out.push(delta === 0 && shift === 0 ? e : kind.move(e, k + shift, delta));
  }
  return out;
}
