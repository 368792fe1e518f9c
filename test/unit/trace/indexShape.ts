import type { IdKey } from '../../../core/trace/eventTypes';
import type { TraceIndex } from '../../../core/trace/index';
import type { Id } from '../../../core/trace/line';

export interface IndexShape {
  byKey: Record<IdKey, Map<Id, readonly number[]>>;
  definitions: Record<IdKey, Map<Id, number>>;
  /** END line → the START line it closes. */
  startOf: Map<number, number>;
  commands: number[];
  clockGhz: number | undefined;
}

const KEYS: IdKey[] = ['cmd_id', 'job_id', 'tx_id'];

/** Everything the index answers, as plain maps (ids in sorted order), to compare two indexes. */
export function indexShape(ix: TraceIndex, lineCount: number): IndexShape {
  const byKey = {} as IndexShape['byKey'];
  const definitions = {} as IndexShape['definitions'];
  for (const k of KEYS) {
    const ids = [...ix.ids(k)].sort((a, b) => String(a).localeCompare(String(b)) || (typeof a === 'number' ? -1 : 1));
    byKey[k] = new Map(ids.map((id) => [id, [...ix.linesOf(k, id)]]));
    definitions[k] = new Map(ids.flatMap((id) => {
      const d = ix.definition(k, id);
      return d === undefined ? [] : [[id, d] as [Id, number]];
    }));
  }
  const startOf = new Map<number, number>();
  for (let i = 0; i < lineCount; i++) {
    const s = ix.startOf(i);
    if (s !== undefined) startOf.set(i, s);
  }
  return { byKey, definitions, startOf, commands: [...ix.commands], clockGhz: ix.clockGhz };
}
