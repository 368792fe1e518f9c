// Producer/consumer overlap in a warp-specialized kernel: in each block, how much of group A's
// region time (the union of its regions, so nested regions count once) overlaps group B's.
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

/** Merged [start, end) intervals of one lane's regions (optionally of one event), as a flat list. */
function laneUnion(d: Decoded, lane: number, event?: number): number[] {
  const pairs: [number, number][] = [];
  for (let i = d.laneRegions[lane]; i < d.laneRegions[lane + 1]; i++) {
    if (event === undefined || d.regEvent[i] === event) pairs.push([d.regStart[i], d.regEnd[i]]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [s, e] of pairs) {
    if (out.length && s <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], e);
    else out.push(s, e);
  }
  return out;
}

function length(u: number[]): number {
  let t = 0;
  for (let i = 0; i < u.length; i += 2) t += u[i + 1] - u[i];
  return t;
}

function intersection(a: number[], b: number[]): number {
  let i = 0, j = 0, t = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i], b[j]);
    const e = Math.min(a[i + 1], b[j + 1]);
    if (e > s) t += e - s;
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return t;
}

export function groupOverlap(d: Decoded, groupA: number, groupB: number, events: { a?: number; b?: number } = {}): Overlap {
  for (const g of [groupA, groupB]) {
    if (!Number.isInteger(g) || g < 0 || g >= d.numGroups) throw new RangeError(`group ${g} is not one of the buffer's ${d.numGroups} group(s)`);
  }
  const blocks: BlockOverlap[] = [];
  let busyANs = 0, busyBNs = 0, overlapNs = 0;
  for (let b = 0; b < d.numBlocks; b++) {
    const ua = laneUnion(d, b * d.numGroups + groupA, events.a);
    const ub = laneUnion(d, b * d.numGroups + groupB, events.b);
    if (!ua.length && !ub.length) continue;
    const o = { block: b, busyANs: length(ua), busyBNs: length(ub), overlapNs: intersection(ua, ub) };
    blocks.push(o);
    busyANs += o.busyANs;
    busyBNs += o.busyBNs;
    overlapNs += o.overlapNs;
  }
  return { groupA, groupB, blocks, busyANs, busyBNs, overlapNs, ofA: busyANs ? overlapNs / busyANs : null, ofB: busyBNs ? overlapNs / busyBNs : null };
}
