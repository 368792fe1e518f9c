import { ATTRS, KIND_NAMES, type TimelineModel } from '../timeline/model';
import type { TimelineMatch } from './types';

/** The items of one group in a timeline model: a mark per item, how many, and the first one's start. */
export interface GroupItems {
  marks: Uint8Array;
  count: number;
  /** The earliest start of a marked item; null when none is marked. */
  first: number | null;
}

/**
 * Marks the items of `model` that belong to the group `key` as `match` finds them (the format's
 * `diff.timeline`): the Diff view highlights them in both runs. One pass over the items; the key
 * is found in the string table once, then items are compared by index.
 */
export function groupItems(model: TimelineModel, match: TimelineMatch, key: string): GroupItems {
  const it = model.items;
  const n = it.start.length;
  const marks = new Uint8Array(n);
  // Every index of the key in the string table (a builder interns, but nothing here relies on it).
  const isKey = new Uint8Array(model.strings.length);
  let any = false;
  for (let j = 1; j < model.strings.length; j++) {
    if (model.strings[j] !== key) continue;
    isKey[j] = 1;
    any = true;
  }
  const ctxOk = (() => {
    if (match.by !== 'attr') return undefined;
    const a = ATTRS.indexOf(match.attr);
    const nCtx = model.ctxAttrs.length / ATTRS.length;
    const ok = new Uint8Array(nCtx);
    if (any) for (let c = 0; c < nCtx; c++) ok[c] = isKey[model.ctxAttrs[c * ATTRS.length + a]];
    return ok;
  })();
  const kinds = match.by === 'name' && match.kinds ? new Set(match.kinds) : undefined;
  const kind = match.by === 'kind' ? KIND_NAMES.indexOf(key) : -1;
  let count = 0;
  let first: number | null = null;
  for (let i = 0; i < n; i++) {
    const hit = match.by === 'attr' ? ctxOk![it.ctx[i]] === 1
      : match.by === 'name' ? isKey[it.name[i]] === 1 && (!kinds || kinds.has(it.kind[i]))
        : kind >= 0 && it.kind[i] === kind;
    if (!hit) continue;
    marks[i] = 1;
    count++;
    if (first === null || it.start[i] < first) first = it.start[i];
  }
  return { marks, count, first };
}
