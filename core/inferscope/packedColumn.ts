/**
 * A column of doubles appended in row order and held in 4 bytes a row where it can be: per block of
 * rows, the first value and each row's difference from it as an Int32. Times in whole µs and
 * offsets into the text differ little within a block, so the streamed check keeps ten million
 * events' times and places in 4 bytes each instead of 8. A value the block cannot hold exactly (a
 * fraction, a difference past 2^31) turns that block, and only it, into a Float64Array. NaN is a
 * value too (an event without times).
 */

const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
const MASK = BLOCK - 1;
/** The Int32 that stands for NaN; no difference takes it. */
const NAN = -0x80000000;

interface Block {
  /** The first non-NaN value of the block: the differences are from it. */
  base: number;
  deltas: Int32Array | undefined;
  /** Set once a value did not fit the differences. */
  wide: Float64Array | undefined;
}

export class PackedColumn {
  /** Blocks with no row set are holes. */
  private readonly blocks: Block[] = [];
  private last = -1;

  /** Rows are set in increasing order, each once (as a reader appends them); another order throws. */
  set(i: number, v: number): void {
    if (!(i > this.last)) throw new RangeError(`PackedColumn: row ${i} set after row ${this.last}`);
    this.last = i;
    const b = i >>> BLOCK_BITS;
    let blk = this.blocks[b];
    if (!blk) blk = this.blocks[b] = { base: NaN, deltas: new Int32Array(BLOCK).fill(NAN), wide: undefined };
    const r = i & MASK;
    if (blk.wide) {
      blk.wide[r] = v;
      return;
    }
    if (v !== v) return;
    if (blk.base !== blk.base) blk.base = v;
    const d = v - blk.base;
    // Exact: an integer difference that is not NaN's stand-in, and base + d gives v back.
    if ((d | 0) === d && d !== NAN && blk.base + d === v && !Object.is(v, -0)) blk.deltas![r] = d;
    else widen(blk)[r] = v;
  }

  /** NaN for a row never set. */
  get(i: number): number {
    const blk = this.blocks[i >>> BLOCK_BITS];
    if (!blk) return NaN;
    if (blk.wide) return blk.wide[i & MASK];
    const d = blk.deltas![i & MASK];
    return d === NAN ? NaN : blk.base + d;
  }
}

/** The block's values as doubles from now on. */
function widen(blk: Block): Float64Array {
  const w = new Float64Array(BLOCK);
  const d = blk.deltas!;
  for (let r = 0; r < BLOCK; r++) w[r] = d[r] === NAN ? NaN : blk.base + d[r];
  blk.wide = w;
  blk.deltas = undefined;
  return w;
}
