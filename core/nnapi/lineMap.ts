/**
 * Line number → value, backed by an array: rows come in line order, so the array stays dense
 * enough for fast elements, and a million entries cost far less than a `Map`.
 */
export class LineMap<T> {
  private readonly items: (T | undefined)[] = [];

  set(line: number, v: T | undefined): void {
    this.items[line] = v;
  }

  get(line: number): T | undefined {
    return line >= 0 ? this.items[line] : undefined;
  }

  has(line: number): boolean {
    return this.get(line) !== undefined;
  }
}
