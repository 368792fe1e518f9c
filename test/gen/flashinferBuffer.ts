// GENERATED buffers, not written by a GPU: FlashInfer's intra-kernel profiler buffer as its CUDA
// macros write it, following flashinfer-ai/flashinfer `include/flashinfer/profiler.cuh` in its
// version with the SM id in the tag (`SM_ID_SHIFT = 24`, `PROFILER_INIT` reading `%smid`):
// - PROFILER_INIT: block 0 / thread 0 stores slot 0 = `ProfilerEntry{nblocks, ngroups}` (nblocks in
//   the low 32 bits); each (block, group) writer's pointer starts at `buffer + 1 + block *
//   num_groups + group` and steps by `num_blocks * num_groups`; its tag base is
//   `sm_id << 24 | block << 12`, ORed, so a block past 4095 sets bits of the SM id;
// - PROFILER_EVENT_START / END: store `tag_base | event << 2 | type` (0 begin, 1 end) in the low 32
//   bits and `%globaltimer_lo` in the high 32 bits, then advance the pointer;
// - PROFILER_EVENT_INSTANT: the same store with type 2, without advancing: the lane's next record
//   lands on the same slot and overwrites it.
// The Python side hands a `torch.uint64` tensor to the kernel; `tensor.cpu().numpy()` saved with
// `np.save` is a 1-D `<u8` .npy (npyBytes), `.tofile()` the raw .bin (wordBytes). Blocks go to SMs
// as a block scheduler places them: `blocksPerSm` resident per SM, each next block (in block index
// order) where a resident block finished first.

/** What a (block, group) writer does: macro, event index, ns after its previous write. */
export type FiOp = [macro: 'start' | 'end' | 'instant', event: number, afterNs: number];

export interface FlashInferOptions {
  /** gridDim (x, y, z); `get_block_idx()` is `(z * Y + y) * X + x`, so only the product matters here. */
  grid: [number, number?, number?];
  numGroups: number;
  program?: (block: number, group: number, numGroups: number) => FiOp[];
  /** SMs of the GPU (132 on an H100 SXM / H200). */
  sms?: number;
  blocksPerSm?: number;
  /** Buffer slots (default: what the writes need, plus 64 spare zero slots). */
  slots?: number;
  /** Raw globaltimer at the launch (ns). */
  startNs?: number;
}

export interface FlashInferBuffer {
  words: Uint32Array;
  slots: number;
  numBlocks: number;
  numGroups: number;
  /** The SM each block ran on (the `%smid` its writers read). */
  blockSm: Int32Array;
}

export const FI_NAMES = ['load', 'mma', 'epilogue', 'barrier', 'done'];

/**
 * Two warp-groups doing unequal work (one group: both kinds of work in turn). Group 0, the
 * producer, loads `tiles` tiles (an instant `barrier` after each: overwritten by the next load's
 * START, except after the last one, where `done` overwrites it and survives); group 1, the
 * consumer, waits (instant `barrier`, overwritten by its START), runs a longer `mma` per tile, then
 * an epilogue.
 */
export function warpGroupsProgram(block: number, group: number, numGroups: number): FiOp[] {
  const tiles = 3 + (block % 3);
  const jitter = (k: number) => (block * 37 + k * 11) % 90;
  const ops: FiOp[] = [];
  if (numGroups === 1) {
    for (let k = 0; k < tiles; k++) ops.push(['start', 0, k ? 20 : 0], ['end', 0, 300 + jitter(k)], ['start', 1, 10], ['end', 1, 700 + jitter(k + 1)]);
    ops.push(['start', 2, 15], ['end', 2, 250], ['instant', 4, 5]);
  } else if (group === 0) {
    for (let k = 0; k < tiles; k++) ops.push(['start', 0, k ? 40 : 0], ['end', 0, 300 + jitter(k)], ['instant', 3, 5]);
    ops.push(['instant', 4, 30]);
  } else {
    for (let k = 0; k < tiles; k++) ops.push(['instant', 3, k ? 25 : 200], ['start', 1, 15], ['end', 1, 900 + jitter(k)]);
    ops.push(['start', 2, 20], ['end', 2, 400]);
  }
  return ops;
}

/** A buffer as the macros leave it after one launch. */
export function genFlashInfer(o: FlashInferOptions): FlashInferBuffer {
  const [gx, gy = 1, gz = 1] = o.grid;
  const numBlocks = gx * gy * gz;
  const numGroups = o.numGroups;
  const program = o.program ?? warpGroupsProgram;
  const sms = o.sms ?? 132;
  const perSm = o.blocksPerSm ?? 2;
  const stride = numBlocks * numGroups;
  const programs: FiOp[][] = [];
  const blockNs = new Float64Array(numBlocks);
  let maxAdvances = 0;
  for (let b = 0; b < numBlocks; b++) {
    for (let g = 0; g < numGroups; g++) {
      const ops = program(b, g, numGroups);
      programs.push(ops);
      blockNs[b] = Math.max(blockNs[b], ops.reduce((t, op) => t + op[2], 0));
      maxAdvances = Math.max(maxAdvances, ops.filter((op) => op[0] !== 'instant').length + 1);
    }
  }
  const slots = o.slots ?? 1 + stride * maxAdvances + 64;
  const words = new Uint32Array(2 * slots);
  // Block 0 / thread 0: the header, nblocks then ngroups (the union's first two uint32).
  words[0] = numBlocks;
  words[1] = numGroups;
  // The block scheduler: resident places `sm * perSm + k`, each freed at a time.
  const freeAt = new Float64Array(sms * perSm);
  const blockSm = new Int32Array(numBlocks);
  const launch = o.startNs ?? 5_000_000;
  for (let b = 0; b < numBlocks; b++) {
    let p = 0;
    for (let q = 1; q < freeAt.length; q++) if (freeAt[q] < freeAt[p]) p = q;
    // Places are taken SM after SM in the first wave (place q is SM q mod sms), as blocks spread.
    const sm = p % sms;
    const t0 = freeAt[p] + 50;
    freeAt[p] = t0 + blockNs[b];
    blockSm[b] = sm;
    for (let g = 0; g < numGroups; g++) {
      // PROFILER_INIT: the writer's pointer, stride and tag base (uint32 arithmetic, as in CUDA).
      let ptr = 1 + b * numGroups + g;
      const tagBase = ((sm << 24) | (b << 12)) >>> 0;
      let t = t0;
      for (const [macro, ev, after] of programs[b * numGroups + g]) {
        t += after;
        if (ptr >= slots) throw new Error(`the buffer of ${slots} slots is too small: block ${b} group ${g} writes slot ${ptr}`);
        words[2 * ptr] = (tagBase | (ev << 2) | (macro === 'start' ? 0 : macro === 'end' ? 1 : 2)) >>> 0;
        words[2 * ptr + 1] = (launch + t) % 2 ** 32;
        if (macro !== 'instant') ptr += stride;
      }
    }
  }
  return { words, slots, numBlocks, numGroups, blockSm };
}
