import { PAIRING_BY_END, PAIRING_BY_START, PAIRINGS, type IdKey } from './eventTypes';
import type { Id, TraceLine } from './line';

/** Maps ids to the lines that carry them, so navigation never scans the file. */
export class TraceIndex {
  readonly byKey: Record<IdKey, Map<Id, number[]>> = { cmd_id: new Map(), job_id: new Map(), tx_id: new Map() };
  /** cmd_id → its CMD_ENQUEUE line; job_id → its JOB_ISSUE line; tx_id → its first *_START line. */
  readonly definitions: Record<IdKey, Map<Id, number>> = { cmd_id: new Map(), job_id: new Map(), tx_id: new Map() };
  /** END line → the START line it closes. */
  readonly startOf = new Map<number, number>();
  /** Lines of CMD_ENQUEUE events in file order: the outline. */
  readonly commands: number[] = [];
  /** Clock from TRACE_META, in GHz, when given. */
  clockGhz: number | undefined;

  constructor(readonly lines: readonly TraceLine[]) {
    const open = PAIRINGS.map(() => new Map<Id, number>());
    const pIndex = new Map(PAIRINGS.map((p, i) => [p, i]));
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (!l.obj) continue;
      if (l.cmd !== undefined) push(this.byKey.cmd_id, l.cmd, i);
      if (l.job !== undefined) push(this.byKey.job_id, l.job, i);
      if (l.tx !== undefined) push(this.byKey.tx_id, l.tx, i);
      const type = l.type;
      if (!type) continue;
      if (type === 'TRACE_META') this.clockGhz = clockOf(l.obj);
      if (type === 'CMD_ENQUEUE' && l.cmd !== undefined) {
        this.commands.push(i);
        if (!this.definitions.cmd_id.has(l.cmd)) this.definitions.cmd_id.set(l.cmd, i);
      }
      if (type === 'JOB_ISSUE' && l.job !== undefined && !this.definitions.job_id.has(l.job)) this.definitions.job_id.set(l.job, i);
      const ps = PAIRING_BY_START.get(type);
      if (ps) {
        const id = ps.key === 'cmd_id' ? l.cmd : ps.key === 'job_id' ? l.job : l.tx;
        if (id !== undefined) {
          open[pIndex.get(ps)!].set(id, i);
          if (ps.key === 'tx_id' && !this.definitions.tx_id.has(id)) this.definitions.tx_id.set(id, i);
        }
      }
      const pe = PAIRING_BY_END.get(type);
      if (pe) {
        const id = pe.key === 'cmd_id' ? l.cmd : pe.key === 'job_id' ? l.job : l.tx;
        const m = open[pIndex.get(pe)!];
        const s = id === undefined ? undefined : m.get(id);
        if (s !== undefined) {
          this.startOf.set(i, s);
          m.delete(id!);
        }
      }
    }
  }

  linesOf(key: IdKey, id: Id): readonly number[] {
    return this.byKey[key].get(id) ?? [];
  }
}

function push(m: Map<Id, number[]>, id: Id, line: number): void {
  const a = m.get(id);
  if (a) a.push(line);
  else m.set(id, [line]);
}

/** Clock in GHz from TRACE_META (`clock_ghz`, `clock_mhz` or `freq_mhz`, top level or in `sim_config`). */
export function clockOf(meta: Record<string, unknown>): number | undefined {
  const cfg = (typeof meta.sim_config === 'object' && meta.sim_config !== null ? meta.sim_config : {}) as Record<string, unknown>;
  for (const src of [meta, cfg]) {
    if (typeof src.clock_ghz === 'number' && src.clock_ghz > 0) return src.clock_ghz;
    if (typeof src.clock_mhz === 'number' && src.clock_mhz > 0) return src.clock_mhz / 1000;
    if (typeof src.freq_mhz === 'number' && src.freq_mhz > 0) return src.freq_mhz / 1000;
  }
  return undefined;
}
