// What `npu-trace kprof` prints: one JSON object (schemas/kprof.schema.json) or text tables. Text
// is for a terminal, so every value from the file (event names) has its controls escaped.
import { escapeControl } from '../common/escape';
import type { Decoded } from './decode';
import { eventName } from './names';
import type { Overlap } from './overlap';
import { smRows } from './sms';
import { regionStats, regionStatsLimited, type RegionStat } from './stats';

/** Regions listed in the JSON's lanes at most: a 16M-record buffer has 8M of them. */
export const MAX_JSON_REGIONS = 100_000;
/** Rows of a text table at most. */
export const MAX_TEXT_ROWS = 200;

export interface ReportInfo {
  file?: string;
  container?: string;
  launch?: number;
  launches?: number;
}

const statJson = (s: RegionStat, of?: 'block' | 'group') => ({
  name: s.name, event: s.event, ...(of ? { [of]: s.of } : {}), count: s.count, total_ns: s.totalNs, mean_ns: s.meanNs, min_ns: s.minNs,
  p50_ns: s.p50Ns, p95_ns: s.p95Ns, max_ns: s.maxNs, std_ns: s.stdNs,
});

export function kprofJson(d: Decoded, info: ReportInfo = {}, overlap?: Overlap): object {
  const lanes: object[] = [];
  let listed = 0;
  const lanesCount = d.numBlocks * d.numGroups;
  for (let l = 0; l < lanesCount; l++) {
    if (!d.laneRecords[l]) continue;
    const regions: object[] = [];
    for (let i = d.laneRegions[l]; i < d.laneRegions[l + 1] && listed < MAX_JSON_REGIONS; i++, listed++) {
      regions.push({ name: eventName(d.names, d.regEvent[i]), event: d.regEvent[i], start_ns: d.regStart[i], end_ns: d.regEnd[i], dur_ns: d.regEnd[i] - d.regStart[i], start_slot: d.regStartSlot[i], end_slot: d.regEndSlot[i] });
    }
    const sm = d.laneSm[l] >= 0 ? { sm: d.laneSm[l] } : {};
    lanes.push({ block: Math.floor(l / d.numGroups), group: l % d.numGroups, ...sm, records: d.laneRecords[l], finalized: d.laneFinalized[l] === 1, regions });
  }
  const instants: object[] = [];
  for (let i = 0; i < d.instantCount && i < MAX_JSON_REGIONS; i++) {
    instants.push({ name: eventName(d.names, d.instEvent[i]), event: d.instEvent[i], block: Math.floor(d.instLane[i] / d.numGroups), group: d.instLane[i] % d.numGroups, t_ns: d.instT[i], slot: d.instSlot[i] });
  }
  return {
    ...(info.file !== undefined ? { file: info.file } : {}),
    ...(info.container ? { container: info.container } : {}),
    launch: info.launch ?? 0,
    launches: info.launches ?? 1,
    layout: d.layout.id,
    header_valid: d.headerValid,
    num_blocks: d.numBlocks,
    num_groups: d.numGroups,
    write_stride: d.stride,
    stride_inferred: d.strideInferred,
    slots: d.slots,
    records: d.records,
    duration_ns: d.durationNs,
    timer_wrapped: d.timerWrapped,
    lanes_from_slots: d.lanesFromSlots,
    lanes,
    ...(d.layout.sm ? { sms: smRows(d).map((r) => ({ sm: r.sm, blocks: r.blocks, lanes: r.lanes, records: r.records, regions: r.regions, region_ns: r.regionNs, first_ns: r.firstNs, last_ns: r.lastNs })) } : {}),
    regions_omitted: d.regionCount - listed,
    instants,
    regions: regionStats(d).map((s) => statJson(s)),
    regions_by_group: regionStats(d, 'group').map((s) => statJson(s, 'group')),
    // Events × blocks can outgrow any table (a persistent kernel on 132 SMs × 1024 events): capped.
    ...((byBlock) => ({ regions_by_block: byBlock.rows.map((s) => statJson(s, 'block')), regions_by_block_omitted: byBlock.total - byBlock.rows.length }))(regionStatsLimited(d, 'block', MAX_JSON_REGIONS)),
    ...(overlap ? { overlap: overlapJson(overlap) } : {}),
    problems: d.problems.map((p) => ({ code: p.code, severity: p.severity, slot: p.slot, block: p.block, group: p.group, message: p.message })),
    problems_omitted: d.problemsDropped,
  };
}

function overlapJson(o: Overlap): object {
  return {
    group_a: o.groupA, group_b: o.groupB, busy_a_ns: o.busyANs, busy_b_ns: o.busyBNs, overlap_ns: o.overlapNs, of_a: o.ofA, of_b: o.ofB,
    blocks: o.blocks.map((b) => ({ block: b.block, busy_a_ns: b.busyANs, busy_b_ns: b.busyBNs, overlap_ns: b.overlapNs })),
  };
}

const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** A text table: header, rows right-aligned except the first `left` columns; at most MAX_TEXT_ROWS rows. */
export function table(head: string[], rows: string[][], left = 1, more = 0): string[] {
  const shown = rows.slice(0, MAX_TEXT_ROWS);
  const cells = [head, ...shown].map((r) => r.map((c) => escapeControl(c)));
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const out = [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
  if (rows.length + more > shown.length) out.push(`… ${rows.length + more - shown.length} more rows (--json lists them)`);
  return out;
}

function statRows(stats: RegionStat[], of?: string): string[][] {
  return stats.map((s) => [s.name, ...(of ? [String(s.of)] : []), String(s.count), num(s.totalNs), num(s.meanNs), num(s.minNs), num(s.p50Ns), num(s.p95Ns), num(s.maxNs), num(s.stdNs)]);
}

const STAT_HEAD = ['count', 'total ns', 'mean ns', 'min ns', 'p50 ns', 'p95 ns', 'max ns', 'std ns'];

export function kprofText(d: Decoded, info: ReportInfo = {}, overlap?: Overlap): string {
  const out: string[] = [];
  const launch = info.launches && info.launches > 1 ? ` (launch ${info.launch ?? 0} of ${info.launches})` : '';
  out.push(`${escapeControl(info.file ?? 'buffer')}${launch}: layout ${d.layout.id}, ${d.numBlocks} block(s) × ${d.numGroups} group(s)${d.headerValid ? '' : ' (no valid header)'}${d.lanesFromSlots ? ', lanes from slots' : ''}, write_stride ${d.stride}${d.strideInferred ? ' (inferred)' : ''}, ${d.slots} slots, ${d.records} records, kernel ${d.durationNs} ns${d.timerWrapped ? ' (timer wrapped, unwrapped)' : ''}`);
  out.push('', 'Regions', ...table(['region', ...STAT_HEAD], statRows(regionStats(d))));
  if (d.numGroups > 1) out.push('', 'Regions per group', ...table(['region', 'group', ...STAT_HEAD], statRows(regionStats(d, 'group'), 'group'), 2));
  // Lanes can number a million: rows past the table's are counted, not built.
  const laneRows: string[][] = [];
  const withSm = !!d.layout.sm;
  let moreLanes = 0;
  for (let l = 0; l < d.numBlocks * d.numGroups; l++) {
    if (!d.laneRecords[l]) continue;
    if (laneRows.length === MAX_TEXT_ROWS) { moreLanes++; continue; }
    const a = d.laneRegions[l], b = d.laneRegions[l + 1];
    let first = Infinity, last = -Infinity;
    for (let i = a; i < b; i++) { first = Math.min(first, d.regStart[i]); last = Math.max(last, d.regEnd[i]); }
    laneRows.push([String(Math.floor(l / d.numGroups)), String(l % d.numGroups), ...(withSm ? [d.laneSm[l] >= 0 ? String(d.laneSm[l]) : '-'] : []), String(d.laneRecords[l]), String(b - a), d.laneFinalized[l] ? 'yes' : 'no', a < b ? String(first) : '-', a < b ? String(last) : '-']);
  }
  out.push('', 'Lanes', ...table(['block', 'group', ...(withSm ? ['sm'] : []), 'records', 'regions', 'finalized', 'first ns', 'last ns'], laneRows, 0, moreLanes));
  if (withSm) {
    const span = (a: number, b: number) => (a < 0 ? '-' : String(b - a));
    out.push('', 'Per SM', ...table(['sm', 'blocks', 'lanes', 'records', 'regions', 'region ns', 'first ns', 'last ns', 'span ns'],
      smRows(d).map((r) => [String(r.sm), String(r.blocks), String(r.lanes), String(r.records), String(r.regions), String(r.regionNs), r.firstNs < 0 ? '-' : String(r.firstNs), r.lastNs < 0 ? '-' : String(r.lastNs), span(r.firstNs, r.lastNs)]), 0));
  }
  if (overlap) {
    out.push('', `Overlap of group ${overlap.groupA} and group ${overlap.groupB} (union of each group's regions, per block)`);
    const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)}%`);
    out.push(...table(['block', `busy ${overlap.groupA} ns`, `busy ${overlap.groupB} ns`, 'overlap ns', `of ${overlap.groupA}`, `of ${overlap.groupB}`],
      [...overlap.blocks.map((b) => [String(b.block), String(b.busyANs), String(b.busyBNs), String(b.overlapNs), pct(b.busyANs ? b.overlapNs / b.busyANs : null), pct(b.busyBNs ? b.overlapNs / b.busyBNs : null)]),
        ['all', String(overlap.busyANs), String(overlap.busyBNs), String(overlap.overlapNs), pct(overlap.ofA), pct(overlap.ofB)]], 0));
  }
  out.push('', d.problems.length ? `Problems (${d.problems.length + d.problemsDropped})` : 'No problems');
  for (const p of d.problems) out.push(`  slot ${p.slot}${p.block >= 0 ? ` block ${p.block} group ${p.group}` : ''}: ${p.severity} ${p.code} ${escapeControl(p.message)}`);
  if (d.problemsDropped) out.push(`  … ${d.problemsDropped} more problems not shown`);
  return out.join('\n') + '\n';
}

/** The per-region statistics per event, per block and per group as CSV (names quoted). */
export function statsCsv(d: Decoded): string {
  const q = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const rows = ['table,region,event,of,count,total_ns,mean_ns,min_ns,p50_ns,p95_ns,max_ns,std_ns'];
  for (const by of ['event', 'block', 'group'] as const) {
    for (const s of regionStats(d, by)) rows.push([by, q(s.name), s.event, by === 'event' ? '' : s.of, s.count, s.totalNs, s.meanNs, s.minNs, s.p50Ns, s.p95Ns, s.maxNs, s.stdNs].join(','));
  }
  return `${rows.join('\n')}\n`;
}
