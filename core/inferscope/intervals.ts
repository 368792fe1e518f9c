import { runsOfSorted } from '../common/intervals';

/**
 * Intervals in two growable Float64Arrays: the analysis of a million events keeps several lists
 * of them, which as `[start, end]` tuples cost ~10× the bytes and kept a streamed 600 MB trace's
 * analysis above 1 GB of RSS.
 */
export class IntervalList {
  starts: Float64Array;
  ends: Float64Array;
  length = 0;

  /** Room for `capacity` intervals before it grows. */
  constructor(capacity = 1024) {
    this.starts = new Float64Array(Math.max(1, capacity));
    this.ends = new Float64Array(Math.max(1, capacity));
  }

  push(a: number, b: number): void {
    if (this.length === this.starts.length) {
      const grow = (x: Float64Array) => {
        const y = new Float64Array(x.length * 2);
        y.set(x);
        return y;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.starts[this.length] = a;
    this.ends[this.length++] = b;
  }

  /** Total length of the union. */
  unionLength(): number {
    return IntervalList.unionLength(this);
  }

  /** Total length of the union of several lists (as of their concatenation). */
  static unionLength(...lists: IntervalList[]): number {
    let total = 0;
    components(lists, (s, e) => {
      if (e > s) total += e - s;
    });
    return total;
  }

  /**
   * Calls `run` for each run of overlapping or touching intervals, in time order, sorting this
   * list's starts and ends apart in place rather than on a copy: the list is spent (its pairs lost).
   */
  spendRuns(run: (start: number, end: number) => void): void {
    this.starts = this.starts.subarray(0, this.length);
    this.ends = this.ends.subarray(0, this.length);
    runsOfSorted(this.starts.sort(), this.ends.sort(), run);
    this.length = 0;
  }

  /** Sorted, disjoint intervals covering the same time. */
  merged(): IntervalList {
    const out = new IntervalList();
    components([this], (s, e) => out.push(s, e));
    return out;
  }
}

/**
 * The maximal runs of overlapping or touching intervals (each start ≤ its end), in time order:
 * the starts and the ends sorted apart, natively and in place on a copy, and swept with a count
 * of the intervals open (at one time, starts before ends, so touching intervals join). What
 * sorting interval indexes by start with a comparator gave, without the index array and the
 * comparator sort's copy of it (~20 MB at the streamed analysis's peak).
 */
function components(lists: readonly IntervalList[], run: (start: number, end: number) => void): void {
  const n = lists.reduce((k, l) => k + l.length, 0);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  let k = 0;
  for (const l of lists) {
    starts.set(l.starts.subarray(0, l.length), k);
    ends.set(l.ends.subarray(0, l.length), k);
    k += l.length;
  }
  runsOfSorted(starts.sort(), ends.sort(), run);
}
