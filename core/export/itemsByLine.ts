/**
 * Items grouped by a line column, for a pass over the source's lines in order: the items sorted by
 * their line (no array per line: a file of a billion blank lines and a few events costs what its
 * events cost, issue #29), and a cursor that follows the lines as they come.
 */
export class ItemsByLine {
  /** The line of each item in `items`, ascending. */
  private readonly keys: Uint32Array;
  /** Item indices, by line. */
  readonly items: Uint32Array;
  /** Where the last line asked for starts in `keys`. */
  private pos = 0;

  /** Items whose `lines[i]` is below `lineCount` (the others were on no line). */
  constructor(lines: Uint32Array, lineCount: number) {
    let n = 0;
    let sorted = true;
    let last = 0;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l >= lineCount) continue;
      n++;
      if (l < last) sorted = false;
      last = l;
    }
    const items = new Uint32Array(n);
    let k = 0;
    for (let i = 0; i < lines.length; i++) if (lines[i] < lineCount) items[k++] = i;
    this.items = sorted ? items : radixSort(items, lines);
    this.keys = new Uint32Array(n);
    for (let j = 0; j < n; j++) this.keys[j] = lines[this.items[j]];
  }

  /**
   * `[a, b)`: where the items of `line` are in `items` (a == b: none). Cheap for lines asked in
   * order; any order is answered.
   */
  range(line: number): [number, number] {
    const keys = this.keys;
    let p = this.pos;
    // Forward by a few steps, else a binary search (lines skipped, or asked again out of order).
    for (let step = 0; p < keys.length && keys[p] < line && step < 8; step++) p++;
    if ((p < keys.length && keys[p] < line) || (p > 0 && keys[p - 1] >= line)) p = lowerBound(keys, line);
    this.pos = p;
    let e = p;
    while (e < keys.length && keys[e] === line) e++;
    return [p, e];
  }
}

function lowerBound(keys: Uint32Array, x: number): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `items` ordered by `key[item]` (stable: two passes of 16 bits). */
function radixSort(items: Uint32Array<ArrayBuffer>, key: Uint32Array): Uint32Array<ArrayBuffer> {
  let from = items;
  let to = new Uint32Array(items.length);
  const count = new Uint32Array(1 << 16);
  for (const shift of [0, 16]) {
    count.fill(0);
    for (let i = 0; i < from.length; i++) count[(key[from[i]] >>> shift) & 0xffff]++;
    let sum = 0;
    for (let d = 0; d < count.length; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < from.length; i++) to[count[(key[from[i]] >>> shift) & 0xffff]++] = from[i];
    [from, to] = [to, from];
  }
  return from;
}
