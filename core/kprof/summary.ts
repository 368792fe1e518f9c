// What the kernel-profiler panel shows beside the timeline: the header facts, the per-region
// statistics per event, per block and per group (rows capped: events × blocks of a persistent
// kernel can number hundreds of thousands), and the overlap of two groups. Plain JSON, sent to
// the page and checked there by protocol/kprof.ts.
import { MAX_QUOTED } from '../common/escape';
import { LANE_FLAG, type Decoded } from './decode';
import type { Overlap } from './overlap';
import { smRows } from './sms';
import { regionStatsLimited, type StatsBy } from './stats';

/** Rows of a statistics table or blocks of an overlap sent to the page at most (it draws 500; Copy and Save have these). */
export const MAX_SUMMARY_ROWS = 10_000;

export interface KprofFacts {
  layout: string;
  num_blocks: number;
  num_groups: number;
  header_valid: boolean;
  write_stride: number;
  stride_inferred: boolean;
  slots: number;
  records: number;
  regions: number;
  duration_ns: number;
  timer_wrapped: boolean;
  problems: number;
  launch: number;
  launches: number;
  /** Lanes were read from the slots (flashinfer). */
  lanes_from_slots: boolean;
  /** SMs that ran a lane (0 when the layout's tags carry no SM id). */
  sms: number;
  /** Lanes whose records ran past the end of the buffer (`kprof.buffer-full`): their later records were lost. */
  full_lanes: number;
  /** Lanes that wrote records. */
  lanes: number;
}

/** One row of a statistics table; `of` is the block or group (-1 in the per-event table). */
export interface KprofStatRow {
  name: string;
  event: number;
  of: number;
  count: number;
  total_ns: number;
  mean_ns: number;
  min_ns: number;
  p50_ns: number;
  p95_ns: number;
  max_ns: number;
  std_ns: number;
}

export interface KprofStatTable {
  by: StatsBy;
  rows: KprofStatRow[];
  /** Rows left out past MAX_SUMMARY_ROWS. */
  omitted: number;
}

/** One SM of the per-SM view (layouts whose tags carry the SM id). */
export interface KprofSmRow {
  sm: number;
  blocks: number;
  lanes: number;
  records: number;
  regions: number;
  region_ns: number;
  first_ns: number;
  last_ns: number;
}

export interface KprofSummary {
  facts: KprofFacts;
  tables: KprofStatTable[];
  /** Per SM, in SM order (at most 256: SM ids are 8 bits); empty without SM ids. */
  sms: KprofSmRow[];
}

export interface KprofOverlapBlock {
  block: number;
  busy_a_ns: number;
  busy_b_ns: number;
  overlap_ns: number;
}

export interface KprofOverlap {
  group_a: number;
  group_b: number;
  busy_a_ns: number;
  busy_b_ns: number;
  overlap_ns: number;
  of_a: number | null;
  of_b: number | null;
  blocks: KprofOverlapBlock[];
  blocks_omitted: number;
}

export function kprofFacts(d: Decoded, launch = 0, launches = 1): KprofFacts {
  return {
    layout: d.layout.id, num_blocks: d.numBlocks, num_groups: d.numGroups, header_valid: d.headerValid, write_stride: d.stride, stride_inferred: d.strideInferred,
    slots: d.slots, records: d.records, regions: d.regionCount, duration_ns: d.durationNs, timer_wrapped: d.timerWrapped,
    problems: d.problems.length + d.problemsDropped, launch, launches, lanes_from_slots: d.lanesFromSlots, sms: smRows(d).length,
    ...laneCounts(d),
  };
}

function laneCounts(d: Decoded): { full_lanes: number; lanes: number } {
  let full = 0, lanes = 0;
  for (let l = 0; l < d.numBlocks * d.numGroups; l++) {
    if (d.laneRecords[l]) lanes++;
    if (d.laneFlags[l] & LANE_FLAG.full) full++;
  }
  return { full_lanes: full, lanes };
}

function statTable(d: Decoded, by: StatsBy, only?: (region: number) => boolean, clip?: readonly [number, number]): KprofStatTable {
  const all = regionStatsLimited(d, by, MAX_SUMMARY_ROWS, only, clip);
  return {
    by,
    rows: all.rows.map((s) => ({ name: s.name.slice(0, MAX_QUOTED), event: s.event, of: s.of, count: s.count, total_ns: s.totalNs, mean_ns: s.meanNs, min_ns: s.minNs, p50_ns: s.p50Ns, p95_ns: s.p95Ns, max_ns: s.maxNs, std_ns: s.stdNs })),
    omitted: all.total - all.rows.length,
  };
}

export function kprofSummary(d: Decoded, launch = 0, launches = 1): KprofSummary {
  const sms = smRows(d).map((r) => ({ sm: r.sm, blocks: r.blocks, lanes: r.lanes, records: r.records, regions: r.regions, region_ns: r.regionNs, first_ns: r.firstNs, last_ns: r.lastNs }));
  return { facts: kprofFacts(d, launch, launches), tables: (['event', 'block', 'group'] as const).map((by) => statTable(d, by)), sms };
}

/** The statistics of a range of the timeline (ns after the earliest record): per event and per group. */
export interface KprofRange {
  from_ns: number;
  to_ns: number;
  /** Regions that overlap the range; each counts its time inside it. */
  regions: number;
  tables: KprofStatTable[];
}

export function kprofRange(d: Decoded, from: number, to: number): KprofRange {
  const inside = (i: number) => d.regStart[i] <= to && d.regEnd[i] >= from;
  let regions = 0;
  for (let i = 0; i < d.regionCount; i++) if (inside(i)) regions++;
  return { from_ns: from, to_ns: to, regions, tables: (['event', 'group'] as const).map((by) => statTable(d, by, inside, [from, to])) };
}

export function kprofOverlap(o: Overlap): KprofOverlap {
  return {
    group_a: o.groupA, group_b: o.groupB, busy_a_ns: o.busyANs, busy_b_ns: o.busyBNs, overlap_ns: o.overlapNs, of_a: o.ofA, of_b: o.ofB,
    blocks: o.blocks.slice(0, MAX_SUMMARY_ROWS).map((b) => ({ block: b.block, busy_a_ns: b.busyANs, busy_b_ns: b.busyBNs, overlap_ns: b.overlapNs })),
    blocks_omitted: Math.max(0, o.blocks.length - MAX_SUMMARY_ROWS),
  };
}
