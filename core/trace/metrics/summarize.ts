import type { Accumulated, ChannelAcc, GroupAcc } from './accumulated';
import { findings } from './findings';
import { nearestRank } from '../../common/percentile';
import { unitedLength, type Union } from '../../common/intervals';
import type { ChannelStats, GroupStats, IdleGap, IdleStats, TraceStats } from './types';

/** Idle gaps listed in `idle_gaps`, longest first. */
export const TOP_GAPS = 10;

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

// The percentile `stats` and `diff` both give (one definition, so their p50/p95 agree).
export { nearestRank } from '../../common/percentile';

/** Turns the one-pass accumulation into the published numbers, then derives the findings. */
export function summarize(acc: Accumulated): TraceStats {
  const hasWindow = acc.to >= acc.from;
  const from = hasWindow ? acc.from : 0;
  const to = hasWindow ? acc.to : 0;
  const span = to - from;

  const cores: TraceStats['cores'] = [];
  const idle: IdleStats[] = [];
  const gaps: IdleGap[] = [];
  const engineBusy = new Map<string, number>();
  for (const [key, c] of [...acc.cores].sort(byCore)) {
    const te = c.te.union(from, to);
    const ve = c.ve.union(from, to);
    const dma = c.dma.union(from, to);
    const cmds = c.commands.union(from, to);
    const teBusy = c.te.length(from, to);
    const veBusy = c.ve.length(from, to);
    const engineCycles = unitedLength(te, ve);
    cores.push({ npu_id: c.npu, core_id: c.core, te_busy_cycles: teBusy, te_util: ratio(teBusy, span), ve_busy_cycles: veBusy, ve_util: ratio(veBusy, span), dma_busy_cycles: c.dma.length(from, to) });
    engineBusy.set(key, engineCycles);
    const split = idleSplit(te, ve, dma, cmds, from, to, (start, end, noWork) => {
      const cycles = end - start;
      if (gaps.length < TOP_GAPS || cycles > gaps[gaps.length - 1].cycles) insertTop(gaps, { npu_id: c.npu, core_id: c.core, start, end, cycles, no_work: noWork });
    });
    const idleCycles = span - engineCycles;
    idle.push({
      npu_id: c.npu, core_id: c.core, idle_cycles: idleCycles, waiting_dma_cycles: split.dma, waiting_command_cycles: split.command,
      no_work_cycles: idleCycles - split.dma - split.command,
    });
  }

  const dmaChannels = channels(acc.dmaChannels, from, to, span);
  const dmaBytes = dmaChannels.reduce((s, c) => s + c.bytes, 0);
  const dramChannels = channels(acc.dramChannels, from, to, span);
  const nocLinks = channels(acc.nocLinks, from, to, span);
  const bytesPerCycle = ratio(dmaBytes, span);

  const stats: TraceStats = {
    version: 1,
    window: hasWindow ? { from, to } : { from: null, to: null },
    span_cycles: span,
    events: acc.events,
    unpaired: acc.unpaired,
    ns_per_cycle: acc.nsPerCycle ?? null,
    cores,
    dma: {
      bytes: dmaBytes, bytes_per_cycle: bytesPerCycle,
      // bytes per ns are GB/s.
      gb_per_s: bytesPerCycle !== null && acc.nsPerCycle ? bytesPerCycle / acc.nsPerCycle : null,
      channels: dmaChannels,
      directions: [...acc.dmaDirections].sort((a, b) => b[1] - a[1]).map(([direction, bytes]) => ({ direction, bytes })),
    },
    dram: { bytes: dramChannels.reduce((s, c) => s + c.bytes, 0), channels: dramChannels },
    noc: { bytes: nocLinks.reduce((s, c) => s + c.bytes, 0), links: nocLinks },
    sram: {
      accesses: acc.sramAccesses, conflicts: acc.sramConflicts, conflict_rate: ratio(acc.sramConflicts, acc.sramAccesses),
      banks: [...acc.banks].sort((a, b) => a[0] - b[0]).map(([bank_id, b]) => ({
        bank_id, accesses: b.accesses, conflicts: b.conflicts, conflict_rate: ratio(b.conflicts, b.accesses),
        first_conflict: b.conflicts ? b.firstConflict : null, last_conflict: b.conflicts ? b.lastConflict : null,
      })),
    },
    phases: groups(acc.phases, from, to).map(([phase, g]) => ({ phase, ...g })),
    layers: groups(acc.layers, from, to).map(([layer_id, g]) => ({ layer_id, ...g })),
    idle,
    idle_gaps: gaps,
    findings: [],
  };
  stats.findings = findings(stats, engineBusy);
  return stats;
}

/**
 * A core's idle time (no TE and no VE busy) split by why: a DMA busy means waiting on memory; else
 * an open command means waiting inside a command (dependencies, scheduling); else there was no
 * work. `gap` is told of every idle stretch in order, `noWork` when no DMA and no command covers
 * any of it. One sweep of the four unions (each disjoint and ordered, inside [from, to]) from one
 * bound of any of them to the next, nothing built: the finish of `stats` of 1M events on one core
 * built five unions of its size and the gaps' list (~80 ms, most of its serial tail). It runs once,
 * before V8 has optimized it: four pointers in locals (a generic loop over a list of unions with a
 * callback per stretch took ~22 ms of 1M events, this 14–17).
 */
function idleSplit(te: Union, ve: Union, dma: Union, cmds: Union, from: number, to: number, gap: (start: number, end: number, noWork: boolean) => void): { dma: number; command: number } {
  let waitingDma = 0;
  let waitingCommand = 0;
  let gapStart = NaN;
  let noWork = true;
  // Per union, its first pair that ends after the point reached.
  let a = 0, b = 0, d = 0, c = 0;
  for (let x = from; x < to;) {
    while (a < te.length && te[a + 1] <= x) a += 2;
    while (b < ve.length && ve[b + 1] <= x) b += 2;
    while (d < dma.length && dma[d + 1] <= x) d += 2;
    while (c < cmds.length && cmds[c + 1] <= x) c += 2;
    // The next bound of any union after x (each pair's start if ahead, else its end), or `to`.
    let y = to;
    const inTe = a < te.length && te[a] <= x;
    const inVe = b < ve.length && ve[b] <= x;
    const inDma = d < dma.length && dma[d] <= x;
    const inCmd = c < cmds.length && cmds[c] <= x;
    if (a < te.length) y = Math.min(y, inTe ? te[a + 1] : te[a]);
    if (b < ve.length) y = Math.min(y, inVe ? ve[b + 1] : ve[b]);
    if (d < dma.length) y = Math.min(y, inDma ? dma[d + 1] : dma[d]);
    if (c < cmds.length) y = Math.min(y, inCmd ? cmds[c + 1] : cmds[c]);
    if (inTe || inVe) {
      if (gapStart === gapStart) gap(gapStart, x, noWork);
      gapStart = NaN;
    } else {
      if (gapStart !== gapStart) {
        gapStart = x;
        noWork = true;
      }
      if (inDma) waitingDma += y - x;
      else if (inCmd) waitingCommand += y - x;
      if (inDma || inCmd) noWork = false;
    }
    x = y;
  }
  if (gapStart === gapStart) gap(gapStart, to, noWork);
  return { dma: waitingDma, command: waitingCommand };
}

function byCore(a: [string, { npu: number; core: number }], b: [string, { npu: number; core: number }]): number {
  return a[1].npu - b[1].npu || a[1].core - b[1].core;
}

function insertTop(gaps: IdleGap[], g: IdleGap): void {
  let i = gaps.length;
  while (i > 0 && gaps[i - 1].cycles < g.cycles) i--;
  gaps.splice(i, 0, g);
  if (gaps.length > TOP_GAPS) gaps.pop();
}

function channels(map: Map<number, ChannelAcc>, from: number, to: number, span: number): ChannelStats[] {
  return [...map].sort((a, b) => a[0] - b[0]).map(([channel, c]) => {
    const busy = c.busy.length(from, to);
    return { channel, bytes: c.bytes, busy_cycles: busy, util: ratio(busy, span) };
  });
}

/** Groups in the order their first command started (those without a command last, by name). */
function groups(map: Map<string, GroupAcc>, from: number, to: number): [string, GroupStats][] {
  const rows = [...map].map(([name, g]): [string, GroupStats, number] => {
    const lat = Float64Array.from(g.latencies).sort();
    const span = g.commands ? g.last - g.first : 0;
    const te = g.te.union(from, to);
    const ve = g.ve.union(from, to);
    const dma = g.dma.length(from, to);
    const engine = unitedLength(te, ve);
    const teBusy = g.te.length(from, to);
    const veBusy = g.ve.length(from, to);
    let sum = 0;
    for (const x of lat) sum += x;
    return [name, {
      commands: g.commands, latency_sum_cycles: sum, span_cycles: span,
      p50_cycles: nearestRank(lat, 50), p95_cycles: nearestRank(lat, 95), max_cycles: lat.length ? lat[lat.length - 1] : null,
      te_busy_cycles: teBusy, ve_busy_cycles: veBusy, engine_busy_cycles: engine, dma_busy_cycles: dma,
      te_share: ratio(teBusy, span), ve_share: ratio(veBusy, span), dma_share: ratio(dma, span),
      longest: g.top.map((c) => ({ cmd_id: c.cmd, start: c.start, end: c.end })),
    }, g.commands ? g.first : Infinity];
  });
  rows.sort((a, b) => a[2] - b[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return rows.map(([n, g]) => [n, g]);
}
