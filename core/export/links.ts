import { ATTRS, FLAG, KIND, type TimelineModel } from '../timeline/model';

const CMD_ATTR = ATTRS.indexOf('cmd_id');

/**
 * The id links of a timeline as flows: each span that belongs to something else gets one arrow
 * from it — a job from its command, a TE/VE run from its job, a DMA transfer from its command, the
 * DRAM and NoC legs from the DMA transfer with the same tx_id. Returned as `source[i]`, the item an
 * arrow into item i comes from (-1: none), so there are never more arrows than items. Formats
 * without these kinds (NNAPI, Chrome JSON) get no arrows from here.
 */
export function flowSources(m: TimelineModel): Int32Array {
  const { kind, id, ctx, flags } = m.items;
  const n = kind.length;
  const source = new Int32Array(n).fill(-1);
  // Commands by the interned string of their cmd_id attribute (the exact digits, big ids too): no string per item.
  const cmds = new Int32Array(m.strings.length).fill(-1);
  const cmdKey = (i: number) => m.ctxAttrs[ctx[i] * ATTRS.length + CMD_ATTR];
  const jobs = new Map<number, number>();
  const dmas = new Map<number, number>();
  const span = (i: number) => !(flags[i] & FLAG.instant);
  for (let i = 0; i < n; i++) {
    if (!span(i) || id[i] !== id[i]) continue;
    // The first span of an id is its owner (a repeated id is a diagnostic of the format's own).
    if (kind[i] === KIND.command) {
      const c = cmdKey(i);
      if (c && cmds[c] < 0) cmds[c] = i;
    } else if (kind[i] === KIND.job && !jobs.has(id[i])) jobs.set(id[i], i);
    else if (kind[i] === KIND.dma && !dmas.has(id[i])) dmas.set(id[i], i);
  }
  const cmdOf = (i: number) => {
    const c = cmdKey(i);
    return c && cmds[c] >= 0 ? cmds[c] : undefined;
  };
  for (let i = 0; i < n; i++) {
    if (!span(i)) continue;
    let s: number | undefined;
    switch (kind[i]) {
      case KIND.job: case KIND.dma: s = cmdOf(i); break;
      case KIND.te: case KIND.ve: s = jobs.get(id[i]) ?? cmdOf(i); break;
      case KIND.dram: case KIND.noc: s = dmas.get(id[i]) ?? cmdOf(i); break;
    }
    if (s !== undefined && s !== i) source[i] = s;
  }
  return source;
}

/**
 * The model's own links (a Chrome trace's flows, any format's arrows) grouped by target item, so
 * each is written with its target as the id links are: link `link[k]` for `k` in `at[i]..at[i+1]`
 * ends at item i. Decision for a pair both give: one arrow, the model's (it keeps the source's
 * category and name), so `source` loses it. A link from an item to itself (nothing to draw) and
 * an index beyond the items are left out. Undefined when the model has no links.
 */
export function linksByTarget(m: TimelineModel, source: Int32Array): { at: Uint32Array; link: Uint32Array } | undefined {
  const L = m.links;
  if (!L || L.from.length === 0) return undefined;
  const n = m.items.start.length;
  const at = new Uint32Array(n + 1);
  const keep = (k: number) => L.from[k] < n && L.to[k] < n && L.from[k] !== L.to[k];
  for (let k = 0; k < L.to.length; k++) if (keep(k)) at[L.to[k] + 1]++;
  for (let i = 0; i < n; i++) at[i + 1] += at[i];
  const fill = at.slice(0, n);
  const link = new Uint32Array(at[n]);
  for (let k = 0; k < L.to.length; k++) {
    if (!keep(k)) continue;
    link[fill[L.to[k]]++] = k;
    if (source[L.to[k]] === L.from[k]) source[L.to[k]] = -1;
  }
  return { at, link };
}
