// One record as fields for the timeline's details pane (slot, raw hex, decoded fields), values as
// JSON text as the pane expects them.
import type { Decoded } from './decode';
import { eventName } from './names';
import type { ProfBuffer } from './words';

const TYPES = ['start', 'end', 'instant', 'finalize'];
const TWO_31 = 2 ** 31;

/** The record's lane: from its slot when the decode read lanes from slots (FlashInfer), else from its tag. */
function laneOf(d: Decoded, lo: number, slot: number): number {
  return d.lanesFromSlots ? (slot - 1) % d.stride : (lo >>> d.layout.laneShift) & d.layout.laneMask;
}

export function recordFields(buf: ProfBuffer, d: Decoded, slot: number): [string, string][] {
  if (!Number.isInteger(slot) || slot < 0 || slot >= buf.slots) return [];
  const lo = buf.words[2 * slot];
  const hi = buf.words[2 * slot + 1];
  const hex = `0x${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;
  const L = d.layout;
  const lane = laneOf(d, lo, slot);
  const ev = (lo >>> L.eventShift) & L.eventMask;
  const t = (d.timerWrapped && hi < TWO_31 ? hi + 2 ** 32 : hi) - d.baseTs;
  return [
    ['slot', String(slot)],
    ['raw', JSON.stringify(hex)],
    ['globaltimer_lo', String(hi)],
    ['t_ns', String(t)],
    ['type', JSON.stringify(TYPES[lo & L.typeMask] ?? String(lo & L.typeMask))],
    ['event', String(ev)],
    ['name', JSON.stringify(eventName(d.names, ev))],
    ['block', String(Math.floor(lane / d.numGroups))],
    ['group', String(lane % d.numGroups)],
    // Read from the slot, the lane's block; the tag's own block field is shown beside it.
    ...(d.lanesFromSlots ? [['tag_block', String((lo >>> L.laneShift) & L.laneMask)] as [string, string]] : []),
    ...(L.extra ? [[L.extra.name, String((lo >>> L.extra.shift) & L.extra.mask)] as [string, string]] : []),
  ];
}

/**
 * The same record as one JSON object, for the Chrome Trace export's args: built as text in one
 * go (the export writes two per region, 16M for a full buffer, where `recordFields`' pairs cost
 * half the export's time). `nameJson` caches the quoted event names across calls.
 */
export function recordJson(buf: ProfBuffer, d: Decoded, slot: number, nameJson: string[] = []): string {
  const lo = buf.words[2 * slot];
  const hi = buf.words[2 * slot + 1];
  const L = d.layout;
  const lane = laneOf(d, lo, slot);
  const ev = (lo >>> L.eventShift) & L.eventMask;
  const t = (d.timerWrapped && hi < TWO_31 ? hi + 2 ** 32 : hi) - d.baseTs;
  const type = TYPES[lo & L.typeMask] ?? String(lo & L.typeMask);
  const name = (nameJson[ev] ??= JSON.stringify(eventName(d.names, ev)));
  const tagBlock = d.lanesFromSlots ? `,"tag_block":${(lo >>> L.laneShift) & L.laneMask}` : '';
  const extra = `${tagBlock}${L.extra ? `,${JSON.stringify(L.extra.name)}:${(lo >>> L.extra.shift) & L.extra.mask}` : ''}`;
  return `{"slot":${slot},"raw":"0x${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}","globaltimer_lo":${hi},"t_ns":${t},"type":"${type}","event":${ev},"name":${name},"block":${Math.floor(lane / d.numGroups)},"group":${lane % d.numGroups}${extra}}`;
}
