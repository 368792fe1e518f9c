import { GroupSet } from '../diff/groups';
import type { DiffHost, DiffRun, DiffSupport } from '../diff/types';
import { decode } from './decode';
import { detectLayout } from './layouts';
import { eventName } from './names';
import { openBuffer } from './open';

/**
 * `npu-trace diff` of kernel-profiler buffers, decoded as `npu-trace kprof` decodes them (layout
 * detected, names stored with the buffer or beside it): every region (START..END of one event in
 * one lane) is an item, in ns, grouped by (event, group) — the per-group table of `kprof` — and by
 * the SM its lane ran on, for layouts whose tags carry it (FlashInfer). Every launch of a 2-D
 * `.npy` counts.
 */
export function kprofDiffRun(bytes: Uint8Array, host: DiffHost): DiffRun {
  const opened = openBuffer(host.name, bytes, host.inflateRaw);
  const names = opened.names ?? host.names;
  const byGroup = new GroupSet('event_group');
  const bySm = new GroupSet('sm');
  let span = 0;
  for (const buf of opened.launches) {
    const d = decode(buf, { layout: detectLayout(buf.words, buf.slots), names });
    span = Math.max(span, d.durationNs);
    for (let i = 0; i < d.regionCount; i++) {
      const lane = d.regLane[i];
      const dur = d.regEnd[i] - d.regStart[i];
      byGroup.add(`${eventName(d.names, d.regEvent[i])} / group ${lane % d.numGroups}`, dur);
      const sm = d.laneSm[lane];
      if (sm >= 0) bySm.add(`SM ${sm}`, dur);
    }
  }
  return { unit: 'ns', span, groups: [...byGroup.list(), ...bySm.list()], metrics: [] };
}

export const kprofDiff: DiffSupport = {
  kinds: ['event_group', 'sm'],
  bytes: kprofDiffRun,
};
