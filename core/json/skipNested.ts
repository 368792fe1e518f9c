/**
 * Skips a nested object or array in a line's UTF-8 bytes for the flat-object reader, checking it is
 * JSON that `JSON.parse` accepts. Conservative like that reader: escapes, non-ASCII
 * or control bytes, and nesting deeper than 64 give -1, and the line then takes the full parse.
 */
const MAX_DEPTH = 64;
/** Per open bracket: 1 for an object, 2 for an array. */
const stack = new Uint8Array(MAX_DEPTH);

const isDigit = (c: number) => c >= 48 && c <= 57;

function ws(b: Uint8Array, i: number): number {
  while (b[i] === 32 || b[i] === 9) i++;
  return i;
}

/** After a plain ASCII string starting at `i` (a quote), or -1. */
function str(b: Uint8Array, i: number, e: number): number {
  if (b[i] !== 34) return -1;
  for (i++; i < e; i++) {
    const c = b[i];
    if (c === 34) return i + 1;
    if (c === 92 || c < 32 || c > 126) return -1;
  }
  return -1;
}

/** After a JSON number, true, false or null starting at `i`, or -1. */
function scalar(b: Uint8Array, i: number, e: number): number {
  const c = b[i];
  if (c === 34) return str(b, i, e);
  if (c === 116) return b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101 ? i + 4 : -1;
  if (c === 102) return b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101 ? i + 5 : -1;
  if (c === 110) return b[i + 1] === 117 && b[i + 2] === 108 && b[i + 3] === 108 ? i + 4 : -1;
  if (b[i] === 45) i++;
  if (b[i] === 48) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else return -1;
  if (b[i] === 46) {
    i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 101 || b[i] === 69) {
    i++;
    if (b[i] === 43 || b[i] === 45) i++;
    if (!isDigit(b[i])) return -1;
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** After `"key":` (and the blanks around it) starting at `i`, or -1. */
function key(b: Uint8Array, i: number, e: number): number {
  i = str(b, ws(b, i), e);
  if (i < 0) return -1;
  i = ws(b, i);
  return b[i] === 58 ? i + 1 : -1;
}

/** The end of the object or array that opens at `i`, or -1 when the scanner is not sure of it. */
export function skipNested(b: Uint8Array, i: number, e: number): number {
  let depth = 0;
  for (;;) {
    // At a value.
    i = ws(b, i);
    const c = b[i];
    if (c === 123 || c === 91) {
      if (depth === MAX_DEPTH) return -1;
      stack[depth++] = c === 123 ? 1 : 2;
      i = ws(b, i + 1);
      if (b[i] === (c === 123 ? 125 : 93)) {
        i++;
        depth--;
      } else if (c === 123) {
        i = key(b, i, e);
        if (i < 0) return -1;
        continue;
      } else continue;
    } else {
      i = scalar(b, i, e);
      if (i < 0) return -1;
    }
    // After a value: a comma and the next one, or closing brackets.
    for (;;) {
      if (depth === 0) return i;
      i = ws(b, i);
      const top = stack[depth - 1];
      if (b[i] === 44) {
        i++;
        if (top === 1) {
          i = key(b, i, e);
          if (i < 0) return -1;
        }
        break;
      }
      if (b[i] !== (top === 1 ? 125 : 93)) return -1;
      i++;
      depth--;
    }
  }
}
