// What the flow tests compare: where Perfetto binds exported flow events, and a model's arrows
// named by the slices they join (so two models built from different files compare).
import type { TimelineModel } from '../../../core/timeline/model';

export interface Ev { ph: string; name: string; cat: string; pid: number; tid: number; ts: number; dur?: number; id?: number; bp?: string; args?: { id?: number; event?: Record<string, unknown> } }

/**
 * The slice each flow event binds to, as Perfetto's JSON importer binds them: events in time order
 * (equal times in file order); an `s`, or an `f` with `bp: "e"`, binds to the innermost slice open
 * on its thread at that moment.
 */
export function bindings(evs: Ev[]): Map<Ev, Ev | undefined> {
  const order = evs.map((e, k) => [e, k] as const).filter(([e]) => e.ph === 'X' || e.ph === 's' || e.ph === 'f');
  order.sort((a, b) => a[0].ts - b[0].ts || a[1] - b[1]);
  const open = new Map<string, Ev[]>();
  const out = new Map<Ev, Ev | undefined>();
  for (const [e] of order) {
    const key = `${e.pid}/${e.tid}`;
    const stack = (open.get(key) ?? []).filter((x) => x.ts + x.dur! > e.ts);
    open.set(key, stack);
    if (e.ph === 'X') stack.push(e);
    else out.set(e, stack[stack.length - 1]);
  }
  return out;
}

/** Item i as "process / thread: name@start" (the track path and the slice). */
export function sliceOf(m: TimelineModel, i: number): string {
  let r = 0;
  while (m.rowItemStart[r + 1] <= i) r++;
  const t = m.tracks.findIndex((x) => x.kind === 'slices' && r >= x.rowStart && r < x.rowStart + x.rowCount);
  const path: string[] = [];
  for (let k = t; k >= 0; k = m.tracks[k].parent) path.unshift(m.tracks[k].name);
  return `${path.join(' / ')}: ${m.strings[m.items.name[i]]}@${m.items.start[i]}`;
}

/** Every link of the model as "from → to [cat/name]", sorted (the order of links is the model's business). */
export function arrowsOf(m: TimelineModel): string[] {
  const L = m.links;
  if (!L) return [];
  const label = (k: number) => `${m.strings[L.cat?.[k] ?? 0]}/${m.strings[L.name?.[k] ?? 0]}`;
  return Array.from(L.from, (f, k) => `${sliceOf(m, f)} → ${sliceOf(m, L.to[k])} [${label(k)}]`).sort();
}
