/**
 * Strings held once, each named by its index in `list` (a column of string values kept as numbers:
 * a timeline's attributes, InferScope's types and names, the parallel stats' rows). `first` are the
 * strings at the first indices (the timeline keeps '' at 0).
 */
export class StringTable {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor(first: readonly string[] = []) {
    for (const s of first) this.id(s);
  }

  /** The index of `s`, given it when it is new. */
  id(s: string): number {
    let k = this.ids.get(s);
    if (k === undefined) {
      k = this.list.length;
      this.list.push(s);
      this.ids.set(s, k);
    }
    return k;
  }
}
