import type { Decoded } from '../../kprof/decode';
import { eventName } from '../../kprof/names';
import { ROW_GROUP_ROWS, Table, type RowGroupSink } from './table';

/**
 * The `kprof_regions` table of a profiler buffer: one row per region of each decoded launch, from
 * the decoder's typed arrays (no object per region: a buffer holds up to 16M records), handed to
 * `sink` a row group at a time. Returns the rows.
 */
export function kprofRegionRows(launches: readonly Decoded[], run: string, sink: RowGroupSink, groupRows = ROW_GROUP_ROWS): number {
  const table = new Table('kprof_regions', sink, groupRows);
  let n = 0;
  launches.forEach((d, launch) => {
    for (let r = 0; r < d.regionCount; r++) {
      const lane = d.regLane[r];
      const ev = d.regEvent[r];
      table.add([
        run, launch, Math.floor(lane / d.numGroups), lane % d.numGroups, lane, ev, eventName(d.names, ev),
        BigInt(d.regStart[r]), BigInt(d.regEnd[r]), BigInt(d.regEnd[r] - d.regStart[r]), d.regStartSlot[r], d.regEndSlot[r],
      ]);
    }
    n += d.regionCount;
  });
  table.flush();
  return n;
}
