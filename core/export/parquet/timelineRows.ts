import { ATTRS, FLAG, KIND_NAMES, NO_LINE, type TimelineModel } from '../../timeline/model';
import { argsOf } from '../../timeline/itemArgs';
import { ROW_GROUP_ROWS, Table, type RowGroupSink } from './table';

const ATTR = (name: (typeof ATTRS)[number]) => ATTRS.indexOf(name);
const PHASE = ATTR('phase');
const LAYER = ATTR('layer_id');
const MODEL = ATTR('model_name');

function problemOf(flags: number): string | null {
  if (flags & FLAG.unmatchedStart) return 'no end';
  if (flags & FLAG.unmatchedEnd) return 'no start';
  if (flags & FLAG.endBeforeStart) return 'end before start';
  if (flags & FLAG.failed) return 'failed';
  return null;
}

/**
 * Per item, its duration less the items of the track's next lane that lie within it (the scopes
 * nested in it): one pass per pair of lanes, both sorted by start, the items of a lane not
 * overlapping.
 */
function selfTimes(model: TimelineModel): Float64Array {
  const { start, end } = model.items;
  const self = new Float64Array(start.length);
  for (let i = 0; i < self.length; i++) self[i] = end[i] - start[i];
  for (const tr of model.tracks) {
    if (tr.kind !== 'slices') continue;
    for (let lane = 0; lane + 1 < tr.rowCount; lane++) {
      const r = tr.rowStart + lane;
      let j = model.rowItemStart[r + 1];
      const childEnd = model.rowItemStart[r + 2];
      for (let p = model.rowItemStart[r]; p < model.rowItemStart[r + 1]; p++) {
        while (j < childEnd && start[j] < start[p]) j++;
        for (; j < childEnd && start[j] < end[p]; j++) if (end[j] <= end[p]) self[p] -= end[j] - start[j];
      }
    }
  }
  return self;
}

/**
 * The `slices` table of a format that has a timeline but no table set of its own (NNAPI systraces,
 * Chrome Trace JSON, InferScope): one row per item of its model, handed to `sink` a row group at a
 * time. The model is built first (as the timeline builds it); the rows are made from its columns.
 */
export function timelineSliceRows(model: TimelineModel, run: string, sink: RowGroupSink, groupRows = ROW_GROUP_ROWS): number {
  const table = new Table('slices', sink, groupRows);
  const { items, strings, ctxAttrs } = model;
  const unit = model.unit ?? 'cycles';
  const path = (t: number): string => {
    const names: string[] = [];
    // Track depth is the format's nesting of groups, a handful; the cap keeps a cycle from looping.
    for (let i = t; i >= 0 && names.length < 64; i = model.tracks[i].parent) names.push(model.tracks[i].name);
    return names.reverse().join(' / ');
  };
  const self = selfTimes(model);
  let n = 0;
  for (let t = 0; t < model.tracks.length; t++) {
    const tr = model.tracks[t];
    if (tr.kind !== 'slices') continue;
    const name = path(t);
    for (let lane = 0; lane < tr.rowCount; lane++) {
      const r = tr.rowStart + lane;
      for (let i = model.rowItemStart[r]; i < model.rowItemStart[r + 1]; i++) {
        const ctx = items.ctx[i] * ATTRS.length;
        const attr = (k: number) => strings[ctxAttrs[ctx + k]] || null;
        const id = items.id[i];
        const endLine = items.endLine[i];
        table.add([
          run, model.format, name, lane, KIND_NAMES[items.kind[i]], strings[items.name[i]], items.start[i], items.end[i], items.end[i] - items.start[i], unit,
          Number.isSafeInteger(id) ? BigInt(id) : null, attr(PHASE), attr(LAYER), attr(MODEL), problemOf(items.flags[i]),
          BigInt(items.line[i] + 1), endLine === NO_LINE ? null : BigInt(endLine + 1), self[i], argsOf(model, i) ?? null,
        ]);
        n++;
      }
    }
  }
  table.flush();
  return n;
}
