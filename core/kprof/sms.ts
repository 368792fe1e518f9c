// The per-SM view of a buffer whose tags carry the SM id (FlashInfer): which blocks and lanes ran
// on each SM, their regions, and when the SM was busy. SM ids are 8 bits: at most 256 rows.
import type { Decoded } from './decode';

export interface SmRow {
  sm: number;
  blocks: number;
  lanes: number;
  records: number;
  regions: number;
  /** Regions' total duration (nested regions count each). */
  regionNs: number;
  /** Earliest region start and latest region end (ns after the earliest record); -1 without regions. */
  firstNs: number;
  lastNs: number;
}

/** One row per SM that ran a lane, in SM order; none when the layout has no SM id. */
export function smRows(d: Decoded): SmRow[] {
  if (!d.layout.sm) return [];
  const rows = new Map<number, SmRow & { lastBlock: number }>();
  const lanes = d.numBlocks * d.numGroups;
  for (let l = 0; l < lanes; l++) {
    const sm = d.laneSm[l];
    if (sm < 0 || !d.laneRecords[l]) continue;
    let r = rows.get(sm);
    if (!r) rows.set(sm, (r = { sm, blocks: 0, lanes: 0, records: 0, regions: 0, regionNs: 0, firstNs: -1, lastNs: -1, lastBlock: -1 }));
    const block = Math.floor(l / d.numGroups);
    // Lanes come in block order: a block is counted at its first lane on this SM.
    if (block !== r.lastBlock) { r.blocks++; r.lastBlock = block; }
    r.lanes++;
    r.records += d.laneRecords[l];
    for (let i = d.laneRegions[l]; i < d.laneRegions[l + 1]; i++) {
      r.regions++;
      r.regionNs += d.regEnd[i] - d.regStart[i];
      if (r.firstNs < 0 || d.regStart[i] < r.firstNs) r.firstNs = d.regStart[i];
      if (d.regEnd[i] > r.lastNs) r.lastNs = d.regEnd[i];
    }
  }
  return [...rows.values()].sort((a, b) => a.sm - b.sm).map(({ lastBlock: _, ...r }) => r);
}
