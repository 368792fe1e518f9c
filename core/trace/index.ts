import { PAIRING_BY_END, PAIRING_BY_START, type IdKey } from './eventTypes';
import type { Id, TraceLine } from './line';
import { insertSorted, removeSorted } from './sorted';

/** The lines that carry one id under one key, in line order. */
export interface IdLines {
  readonly lines: number[];
  /**
   * What a feature derived from these lines alone (the outline keeps a command's name here). It
   * holds no line numbers, so lines moving leave it true; any line entering or leaving clears it.
   */
  memo: unknown;
}

/**
 * Maps ids to the lines that carry them, so navigation never scans the file. Built once, then
 * kept up to date per edit (`edited`), with the per-id bookkeeping of the incremental checks:
 * definitions and END→START pairs are read from the lines of one id when asked.
 */
export class TraceIndex {
  private readonly byKey: Record<IdKey, Map<Id, IdLines>> = { cmd_id: new Map(), job_id: new Map(), tx_id: new Map() };
  /** Lines of CMD_ENQUEUE events in file order: the outline. */
  readonly commands: number[] = [];
  /** Lines of TRACE_META events in file order: the last one gives the clock. */
  private readonly metaLines: number[] = [];

  constructor(private lines: readonly TraceLine[]) {
    for (let i = 0; i < lines.length; i++) this.enter(lines[i], i);
  }

  /** Clock from the last TRACE_META, in GHz, when given. */
  get clockGhz(): number | undefined {
    const m = this.metaLines;
    return m.length ? clockOf(this.lines[m[m.length - 1]].obj!) : undefined;
  }

  linesOf(key: IdKey, id: Id): readonly number[] {
    return this.byKey[key].get(id)?.lines ?? [];
  }

  entry(key: IdKey, id: Id): IdLines | undefined {
    return this.byKey[key].get(id);
  }

  /** Every id under `key` (for tests: the fuzz test compares them with a fresh build). */
  ids(key: IdKey): IterableIterator<Id> {
    return this.byKey[key].keys();
  }

  /** cmd_id → its first CMD_ENQUEUE line; job_id → its first JOB_ISSUE line; tx_id → its first *_START line. */
  definition(key: IdKey, id: Id): number | undefined {
    for (const i of this.linesOf(key, id)) if (defines(key, this.lines[i].type)) return i;
    return undefined;
  }

  /** The START line an END line closes: the latest START of its id in its pairing still open before it. */
  startOf(line: number): number | undefined {
    const l = this.lines[line];
    const pe = l?.obj && l.type ? PAIRING_BY_END.get(l.type) : undefined;
    if (!pe) return undefined;
    const id = pe.key === 'cmd_id' ? l.cmd : pe.key === 'job_id' ? l.job : l.tx;
    if (id === undefined) return undefined;
    let open = -1;
    for (const i of this.linesOf(pe.key, id)) {
      if (i >= line) break;
      const t = this.lines[i].type;
      if (t === pe.start) open = i;
      else if (t === pe.end) open = -1;
    }
    return open >= 0 ? open : undefined;
  }

  /**
   * Lines `[start, end)` (which held `old`) were replaced by `newCount` lines; `lines` is the
   * document's array after the edit. The ids of the old and new lines are updated; the line
   * numbers below move by the difference, in place.
   */
  edited(lines: readonly TraceLine[], start: number, end: number, newCount: number, old: readonly TraceLine[]): void {
    for (let k = start; k < end; k++) this.leave(old[k - start], k);
    const delta = newCount - (end - start);
    if (delta !== 0) this.shift(end, delta);
    this.lines = lines;
    for (let k = start; k < start + newCount; k++) this.enter(lines[k], k);
  }

  private shift(from: number, delta: number): void {
    const tail = (a: number[]) => {
      for (let k = a.length - 1; k >= 0 && a[k] >= from; k--) a[k] += delta;
    };
    tail(this.commands);
    tail(this.metaLines);
    for (const m of Object.values(this.byKey)) for (const e of m.values()) tail(e.lines);
  }

  private enter(l: TraceLine, i: number): void {
    if (!l.obj) return;
    if (l.cmd !== undefined) add(this.byKey.cmd_id, l.cmd, i);
    if (l.job !== undefined) add(this.byKey.job_id, l.job, i);
    if (l.tx !== undefined) add(this.byKey.tx_id, l.tx, i);
    if (l.type === 'TRACE_META') insertSorted(this.metaLines, i);
    if (l.type === 'CMD_ENQUEUE' && l.cmd !== undefined) insertSorted(this.commands, i);
  }

  private leave(l: TraceLine, i: number): void {
    if (!l.obj) return;
    if (l.cmd !== undefined) remove(this.byKey.cmd_id, l.cmd, i);
    if (l.job !== undefined) remove(this.byKey.job_id, l.job, i);
    if (l.tx !== undefined) remove(this.byKey.tx_id, l.tx, i);
    if (l.type === 'TRACE_META') removeSorted(this.metaLines, i);
    if (l.type === 'CMD_ENQUEUE' && l.cmd !== undefined) removeSorted(this.commands, i);
  }
}

function defines(key: IdKey, type: string | undefined): boolean {
  if (!type) return false;
  if (key === 'cmd_id') return type === 'CMD_ENQUEUE';
  if (key === 'job_id') return type === 'JOB_ISSUE';
  return PAIRING_BY_START.get(type)?.key === 'tx_id';
}

function add(m: Map<Id, IdLines>, id: Id, line: number): void {
  const e = m.get(id);
  if (!e) {
    m.set(id, { lines: [line], memo: undefined });
    return;
  }
  insertSorted(e.lines, line);
  e.memo = undefined;
}

function remove(m: Map<Id, IdLines>, id: Id, line: number): void {
  const e = m.get(id);
  if (!e) return;
  removeSorted(e.lines, line);
  e.memo = undefined;
  if (e.lines.length === 0) m.delete(id);
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
