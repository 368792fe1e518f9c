import { LANE_FLAG, type Decoded } from './decode';
import { eventName } from './names';
import { TimelineAssembler } from '../timeline/assembler';
import { FLAG, KIND, TRACK_FLAG, type TimelineModel } from '../timeline/model';

/**
 * The timeline of a decoded profiler buffer on the format-neutral model: a group per block, a
 * track per (block, group) lane, a span per region coloured by event (the event name is the
 * `phase` attribute, so the existing colour-by and filter work), instants as markers, times in ns
 * after the earliest record. `line` / `endLine` hold the START and END slots, so a click can show
 * the two records.
 */
export function kprofTimeline(d: Decoded): TimelineModel {
  const asm = new TimelineAssembler('kprof');
  const laneTrack = new Int32Array(d.numBlocks * d.numGroups).fill(-1);
  const track = (lane: number) => {
    if (laneTrack[lane] < 0) {
      const b = Math.floor(lane / d.numGroups);
      const group = asm.group(-1, `block ${b}`, b);
      laneTrack[lane] = asm.track(group, `group ${lane % d.numGroups}`, lane % d.numGroups);
      // A lane that ran out of buffer is marked on its label, not only on its spans.
      if (d.laneFlags[lane] & LANE_FLAG.full) asm.flagTrack(laneTrack[lane], TRACK_FLAG.bufferFull);
    }
    return laneTrack[lane];
  };
  const ctxOf = new Map<number, { name: number; ctx: number }>();
  const ev = (e: number) => {
    let c = ctxOf.get(e);
    if (!c) {
      const n = eventName(d.names, e);
      c = { name: asm.intern(n), ctx: asm.context([n]) };
      ctxOf.set(e, c);
    }
    return c;
  };
  // Lanes with problems are marked: their spans are drawn as invalid.
  const bad = new Set<number>();
  for (const p of d.problems) if (p.block >= 0 && p.severity !== 'information') bad.add(p.block * d.numGroups + p.group);
  for (let i = 0; i < d.regionCount; i++) {
    const l = d.regLane[i];
    const { name, ctx } = ev(d.regEvent[i]);
    const item = asm.add(track(l), d.regStart[i], NaN, d.regStartSlot[i], name, NaN, ctx, 0, KIND.slice, bad.has(l) ? FLAG.invalid : 0);
    asm.close(item, d.regEnd[i], d.regEndSlot[i]);
  }
  for (let i = 0; i < d.instantCount; i++) {
    const { name, ctx } = ev(d.instEvent[i]);
    asm.add(track(d.instLane[i]), d.instT[i], d.instT[i], d.instSlot[i], name, NaN, ctx, 0, KIND.marker, FLAG.instant);
  }
  return { ...asm.finish({ lineCount: d.slots, undrawable: 0, nsPerCycle: 1 }), unit: 'ns', colourBy: 'phase', attrNames: ['event', '', '', '', ''] };
}
