/** What navigation needs of a line → value index. */
export interface LineLookup<T> {
  get(line: number): T | undefined;
  has(line: number): boolean;
}

/**
 * Line number → value, backed by an array from line `base` on: rows come in line order, so the
 * array stays dense enough for fast elements, and a million entries cost far less than a `Map`.
 */
export class LineMap<T> implements LineLookup<T> {
  private readonly items: (T | undefined)[] = [];

  /** `base`: the first line it may hold (a run's map starts at the run's first row). */
  constructor(private readonly base = 0) {}

  set(line: number, v: T | undefined): void {
    this.items[line - this.base] = v;
  }

  get(line: number): T | undefined {
    return line >= this.base ? this.items[line - this.base] : undefined;
  }

  has(line: number): boolean {
    return this.get(line) !== undefined;
  }
}

/** Several line maps over consecutive line ranges, each from its `from` line to the next one's. */
export class RangedLineMaps<T> implements LineLookup<T> {
  /** Sorted by `from`. */
  constructor(private readonly parts: readonly { from: number; map: LineLookup<T> }[]) {}

  get(line: number): T | undefined {
    let lo = 0;
    let hi = this.parts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.parts[mid].from <= line) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found >= 0 ? this.parts[found].map.get(line) : undefined;
  }

  has(line: number): boolean {
    return this.get(line) !== undefined;
  }
}
