/**
 * A column most rows leave empty (an instant's `timestamp_us`, a copy's bytes, a kernel's
 * occupancy): per block of rows a bitmap of the rows with a value, and the values of those rows
 * only. A dense Float64 column costs 8 bytes a row whether set or not: the metadata columns of a
 * million events were ~60 MB of the streamed analysis, ~15 MB as sparse columns.
 */

const BLOCK_BITS = 16;
const BLOCK = 1 << BLOCK_BITS;
const MASK = BLOCK - 1;
const WORDS = BLOCK >> 5;

interface Block {
  /** Bit r & 31 of word r >> 5: row r of the block has a value. */
  bits: Int32Array;
  /** Values in the block's words before each word (set when the word gets its first value). */
  before: Int32Array;
  values: Float64Array;
  count: number;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export class SparseColumn {
  private readonly blocks: (Block | undefined)[] = [];
  private last = -1;

  /** `absent`: what `get` gives for a row without a value. */
  constructor(private readonly absent: number) {}

  /** Rows are set in increasing order, each at most once (as a reader appends them); another order throws. */
  set(i: number, v: number): void {
    if (!(i > this.last)) throw new RangeError(`SparseColumn: row ${i} set after row ${this.last}`);
    this.last = i;
    const b = i >>> BLOCK_BITS;
    let blk = this.blocks[b];
    if (!blk) blk = this.blocks[b] = { bits: new Int32Array(WORDS), before: new Int32Array(WORDS), values: new Float64Array(16), count: 0 };
    const r = i & MASK;
    const w = r >>> 5;
    if (blk.bits[w] === 0) blk.before[w] = blk.count;
    blk.bits[w] |= 1 << (r & 31);
    if (blk.count === blk.values.length) {
      const grown = new Float64Array(Math.min(BLOCK, blk.count * 2));
      grown.set(blk.values);
      blk.values = grown;
    }
    blk.values[blk.count++] = v;
  }

  get(i: number): number {
    const blk = this.blocks[i >>> BLOCK_BITS];
    if (!blk) return this.absent;
    const r = i & MASK;
    const w = r >>> 5;
    const bit = r & 31;
    const word = blk.bits[w];
    if (!((word >>> bit) & 1)) return this.absent;
    return blk.values[blk.before[w] + popcount(word & ((1 << bit) - 1))];
  }
}
