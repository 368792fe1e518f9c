// Producer/consumer overlap in a warp-specialized kernel: in each block, how much of group A's
// region time (the union of its regions, so nested regions count once) overlaps group B's.
import { intersectionLength, lengthOf, unionOf } from '../common/intervals';
import type { Decoded } from './decode';

export interface BlockOverlap {
  block: number;
  busyANs: number;
  busyBNs: number;
  overlapNs: number;
}

export interface Overlap {
  groupA: number;
  groupB: number;
  blocks: BlockOverlap[];
  busyANs: number;
  busyBNs: number;
  overlapNs: number;
  /** overlap / busy A and / busy B; null when that group has no region time. */
  ofA: number | null;
  ofB: number | null;
}

/**
 * The union of one lane's regions (optionally of one event); undefined when it has none. A lane
 * whose only regions last 0 ns has an empty union but still lists its block.
 */
function laneUnion(d: Decoded, lane: number, event?: number): Float64Array | undefined {
  const from = d.laneRegions[lane];
  const to = d.laneRegions[lane + 1];
  if (event === undefined) return to > from ? unionOf(d.regStart.subarray(from, to), d.regEnd.subarray(from, to)) : undefined;
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = from; i < to; i++) {
    if (d.regEvent[i] === event) {
      starts.push(d.regStart[i]);
      ends.push(d.regEnd[i]);
    }
  }
  return starts.length ? unionOf(starts, ends) : undefined;
}

const NONE = new Float64Array(0);

export function groupOverlap(d: Decoded, groupA: number, groupB: number, events: { a?: number; b?: number } = {}): Overlap {
  for (const g of [groupA, groupB]) {
    if (!Number.isInteger(g) || g < 0 || g >= d.numGroups) throw new RangeError(`group ${g} is not one of the buffer's ${d.numGroups} group(s)`);
  }
  const blocks: BlockOverlap[] = [];
  let busyANs = 0, busyBNs = 0, overlapNs = 0;
  for (let b = 0; b < d.numBlocks; b++) {
    const ua = laneUnion(d, b * d.numGroups + groupA, events.a);
    const ub = laneUnion(d, b * d.numGroups + groupB, events.b);
    if (!ua && !ub) continue;
    const o = { block: b, busyANs: lengthOf(ua ?? NONE), busyBNs: lengthOf(ub ?? NONE), overlapNs: intersectionLength(ua ?? NONE, ub ?? NONE) };
    blocks.push(o);
    busyANs += o.busyANs;
    busyBNs += o.busyBNs;
    overlapNs += o.overlapNs;
  }
  return { groupA, groupB, blocks, busyANs, busyBNs, overlapNs, ofA: busyANs ? overlapNs / busyANs : null, ofB: busyBNs ? overlapNs / busyBNs : null };
}
