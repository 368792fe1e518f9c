/**
 * Markers of Compare Timelines (docs/diff.md): points in a run — the first command of a layer, a
 * step, a scope — at which both runs' timelines can be aligned, found in a timeline model as its
 * format's `diff.markers` describe them, and matched between A and B by key. Also the arithmetic of
 * an alignment: the range both views share and the offset between them. Pure: no DOM.
 */
import { ATTRS, type TimelineModel } from '../timeline/model';
import type { MarkerSpec } from './types';

/** Markers kept per run, over every list (a select of thousands is already past use). */
export const MAX_MARKERS = 2000;

export interface Marker {
  /** Index of its list in the specs. */
  list: number;
  key: string;
  /** The item's start, in the model's unit. */
  t: number;
}

export interface RunMarkers {
  markers: Marker[];
  /** Some markers were left out (past MAX_MARKERS). */
  capped: boolean;
}

/**
 * The markers of one model: per list, in time order, at most `max` in all (the earliest of each
 * list first, lists in order). One pass over the items per list; items are compared by string index.
 */
export function timelineMarkers(model: TimelineModel, specs: readonly MarkerSpec[], max = MAX_MARKERS): RunMarkers {
  const out: Marker[] = [];
  let capped = false;
  specs.forEach((spec, list) => {
    const found = listMarkers(model, spec);
    for (const m of found) {
      if (out.length >= max) {
        capped = true;
        break;
      }
      out.push({ list, key: m.key, t: m.t });
    }
  });
  return { markers: out, capped };
}

function listMarkers(model: TimelineModel, spec: MarkerSpec): { key: string; t: number }[] {
  const it = model.items;
  const n = it.start.length;
  const strings = model.strings;
  const nCtx = model.ctxAttrs.length / ATTRS.length;
  const attrAt = (c: number, a: number) => model.ctxAttrs[c * ATTRS.length + a];
  // Per context: whether it passes `where`; per string: whether a name passes `prefix`.
  const ctxOk = new Uint8Array(nCtx).fill(1);
  for (const w of spec.where ?? []) {
    const a = ATTRS.indexOf(w.attr);
    for (let c = 0; c < nCtx; c++) if ((strings[attrAt(c, a)] === w.value) === !!w.not) ctxOk[c] = 0;
  }
  const prefix = spec.prefix;
  const nameOk = prefix === undefined ? undefined : Uint8Array.from(strings, (s) => (s.startsWith(prefix) ? 1 : 0));
  const kinds = spec.kinds ? new Set(spec.kinds) : undefined;
  const keyAttr = spec.key === 'attr' ? ATTRS.indexOf(spec.attr ?? 'phase') : -1;
  // The item naming each key: its string index (a value absent, index 0, names no marker).
  const keyOf = (i: number) => (keyAttr >= 0 ? attrAt(it.ctx[i], keyAttr) : spec.key === 'name' ? it.name[i] : -1);
  const picked: number[] = [];
  // Without `each`, a key's first item in time: one per distinct key (by its text: nothing here
  // relies on a builder interning strings once).
  const firstOf = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (!ctxOk[it.ctx[i]] || (kinds && !kinds.has(it.kind[i])) || (nameOk && !nameOk[it.name[i]])) continue;
    const k = keyOf(i);
    if (k === 0) continue;
    if (spec.each || spec.key === 'rank') {
      picked.push(i);
      continue;
    }
    const key = strings[k];
    const j = firstOf.get(key);
    if (j === undefined || before(it, i, j)) firstOf.set(key, i);
  }
  if (!(spec.each || spec.key === 'rank')) picked.push(...firstOf.values());
  picked.sort((x, y) => it.start[x] - it.start[y] || x - y);
  const seen = new Map<string, number>();
  return picked.map((i, rank) => {
    if (spec.key === 'rank') return { key: String(rank + 1), t: it.start[i] };
    const key = strings[keyOf(i)];
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    return { key: k === 1 ? key : `${key} #${k}`, t: it.start[i] };
  });
}

const before = (it: TimelineModel['items'], i: number, j: number) => it.start[i] < it.start[j] || (it.start[i] === it.start[j] && i < j);

/** A marker as both runs have it: its time in each, null where that run lacks it. */
export interface MarkerPair {
  list: number;
  /** `<label> <key>`: the text of the option (set as text: keys come from files). */
  name: string;
  key: string;
  a: number | null;
  b: number | null;
}

/**
 * A's and B's markers matched by list and key, in A's order, each list followed by the markers only
 * B has (in B's order): a marker missing from one run stays listed, with null for that run.
 */
export function pairMarkers(specs: readonly MarkerSpec[], a: readonly Marker[], b: readonly Marker[]): MarkerPair[] {
  const out: MarkerPair[] = [];
  for (let list = 0; list < specs.length; list++) {
    const inB = new Map<string, number>();
    for (const m of b) if (m.list === list && !inB.has(m.key)) inB.set(m.key, m.t);
    const inA = new Set<string>();
    const name = (key: string) => `${specs[list].label} ${key}`;
    for (const m of a) {
      if (m.list !== list || inA.has(m.key)) continue;
      inA.add(m.key);
      out.push({ list, name: name(m.key), key: m.key, a: m.t, b: inB.get(m.key) ?? null });
    }
    for (const [key, t] of inB) if (!inA.has(key)) out.push({ list, name: name(key), key, a: null, b: t });
  }
  return out;
}

/**
 * The marker a click on a Diff view group aligns at: of the list whose `group` is the group's kind,
 * the marker of the group's key (the first marker in both runs for the list's `groupAll`); -1 when
 * there is none in both runs.
 */
export function groupMarker(specs: readonly MarkerSpec[], pairs: readonly MarkerPair[], group: { kind: string; key: string }): number {
  const list = specs.findIndex((s) => s.group === group.kind);
  if (list < 0) return -1;
  const all = specs[list].groupAll === group.key;
  return pairs.findIndex((p) => p.list === list && (all || p.key === group.key) && p.a !== null && p.b !== null);
}

/** A run as an alignment sees it: its time range and the point aligned (its start, or a marker). */
export interface AlignedRun {
  t0: number;
  t1: number;
  anchor: number;
}

/**
 * The range both views share, relative to each run's anchor: from the earliest start to the latest
 * end of either run, so both views stop at the same place whichever end is panned to. Differences
 * are taken before any sum: two timestamps of 10^15 µs (Chrome's since the epoch) or of 10^12
 * cycles subtract exactly, where adding an offset to one of them first would round.
 */
export function sharedRange(runs: readonly AlignedRun[]): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of runs) {
    lo = Math.min(lo, r.t0 - r.anchor);
    hi = Math.max(hi, r.t1 - r.anchor);
  }
  return lo <= hi ? { lo, hi } : { lo: 0, hi: 0 };
}

/** `to`'s view showing what `from`'s view shows, relative to each one's anchor. */
export function lockedView(view: { start: number; end: number }, fromAnchor: number, toAnchor: number): { start: number; end: number } {
  return { start: toAnchor + (view.start - fromAnchor), end: toAnchor + (view.end - fromAnchor) };
}
