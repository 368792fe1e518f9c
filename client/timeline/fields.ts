import { scanLine } from '../../core/json/scanner';

/**
 * The JSON fields of one source line as [key, raw JSON value], for the details pane. Raw source
 * text, so 64-bit ids keep their exact digits; a broken line gives the fields before the break.
 */
export function lineFields(text: string): [string, string][] {
  const scan = scanLine(text);
  return scan.fields.map((f) => [f.key, text.slice(f.valueStart, f.valueEnd)]);
}

/**
 * Lines read after an element's first line for its details: pretty-printed formats (InferScope,
 * an indented Chrome trace) spread one event over a few dozen lines. A longer element shows the
 * fields before the cut, as a broken line does.
 */
export const MAX_ELEMENT_LINES = 256;

/** Bracket depth after `text`, starting at `depth`, with brackets inside strings ignored. */
function depthAfter(text: string, depth: number, inString: { on: boolean }): number {
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString.on) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) inString.on = false;
    } else if (c === 34) inString.on = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return depth;
}

/** Whether `text` opens an object or array it does not close, so its fields go on below. */
export function opensElement(text: string): boolean {
  return depthAfter(text, 0, { on: false }) > 0;
}

/**
 * The fields of the element starting on `lines[0]` and ending where its brackets close (at most
 * MAX_ELEMENT_LINES lines), for the details pane; a one-line element is `lineFields` of that line.
 * A nested value spread over lines is shown on one, its indentation dropped.
 */
export function elementFields(lines: readonly string[]): [string, string][] {
  const inString = { on: false };
  let depth = 0;
  let n = 0;
  while (n < lines.length && n < MAX_ELEMENT_LINES) {
    depth = depthAfter(lines[n++], depth, inString);
    if (depth <= 0) break;
  }
  if (n <= 1) return lineFields(lines[0] ?? '');
  return lineFields(lines.slice(0, n).join('\n')).map(([k, v]) => [k, v.includes('\n') ? v.split('\n').map((p) => p.trim()).join(' ') : v]);
}

/** The text of one event on a line holding several, by its characters `[from, to)` (clamped to the line). */
export function spanText(line: string, span: readonly [number, number]): string {
  return line.slice(Math.min(span[0], line.length), Math.min(span[1], line.length));
}
