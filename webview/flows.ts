import type { TimelineModel } from '../core/timeline/model';
import type { Band } from './layout';
import { lowerBound, upperBound } from '../core/common/bounds';

/** One arrow to draw, in plot coordinates (x from the plot's left edge, y from the content top minus scroll). */
export interface FlowArrow {
  link: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** It starts or ends at the selected item. */
  selected: boolean;
}

/**
 * Arrows drawn per frame at most, and links looked at to find them: with more links within the
 * view than MAX_VISITED (zoomed out over many flows), only the selected item's arrows are drawn, so
 * a trace with a million flows costs two binary searches per frame.
 */
export const MAX_ARROWS = 2000;
export const MAX_VISITED = 20_000;
/** Arrows of the selected item drawn at most (one launch can fan out to many kernels). */
export const MAX_SELECTED_ARROWS = 500;

/** What the arrows of a frame depend on: the view's state, without the canvas. */
export interface FlowView {
  model: TimelineModel;
  bands: readonly Band[];
  rowOfItem: ArrayLike<number>;
  viewport: { start: number; end: number; scale: number; width: number };
  scrollY: number;
  /** Height of the plot below the ruler. */
  height: number;
  selected: number;
  /** Whether item i is drawn (a filter is on and it does not pass: no arrow to it). */
  passes(i: number): boolean;
  /**
   * Every flow in the view (the toolbar's "Flows: all"); otherwise, as Perfetto does, only those
   * of the selected slice, its ancestors and its descendants: all of a training step's launch →
   * kernel arrows at once are a black mass (#30).
   */
  showAll?: boolean;
}

/** Items of the selection's family looked at, and their arrows drawn, at most. */
export const MAX_FAMILY_ITEMS = 100_000;

/** Per model: the earlier start of each link's two ends (links come sorted by it). */
const linkT0 = new WeakMap<TimelineModel, Float64Array>();
/** Per layout: the band of each row (-1: hidden in a collapsed group). */
const rowBand = new WeakMap<readonly Band[], Int32Array>();
/** The selected item's links, found once per selection. */
let selectedLinks: { model: TimelineModel; item: number; links: number[] } | undefined;

/**
 * The arrows of the frame: every link whose two ends are both within the view (in time and among
 * the visible rows), when there are few enough to draw; and always the links of the selected item,
 * whose far end may be off screen (the arrow then leaves the plot). Pure geometry, tested alone.
 */
export function flowArrows(v: FlowView): { arrows: FlowArrow[]; tooMany: boolean } {
  const m = v.model, L = m.links;
  const arrows: FlowArrow[] = [];
  if (!L || !L.from.length) return { arrows, tooMany: false };
  const bandOf = bandsOfRows(v.bands, m.rowItemStart.length - 1);
  const { start } = m.items;
  const vp = v.viewport;
  const add = (k: number, selected: boolean, needVisible: boolean): boolean => {
    const f = L.from[k], t = L.to[k];
    if (!v.passes(f) || !v.passes(t)) return false;
    const bf = bandOf[v.rowOfItem[f]], bt = bandOf[v.rowOfItem[t]];
    if (bf < 0 || bt < 0) return false;
    const a = v.bands[bf], b = v.bands[bt];
    const y0 = a.y - v.scrollY + a.h / 2, y1 = b.y - v.scrollY + b.h / 2;
    const x0 = (start[f] - vp.start) * vp.scale, x1 = (start[t] - vp.start) * vp.scale;
    if (needVisible && !(inside(y0, v.height) && inside(y1, v.height))) return false;
    arrows.push({ link: k, x0, y0, x1, y1, selected });
    return true;
  };
  const sel = v.selected >= 0 ? linksOf(m, v.selected) : [];
  for (const k of sel) add(k, true, false);
  if (!v.showAll) {
    if (v.selected < 0) return { arrows, tooMany: false };
    const own = new Set(sel);
    for (const k of familyLinks(m, v.selected, v.rowOfItem)) if (!own.has(k)) add(k, false, false);
    return { arrows, tooMany: false };
  }
  const t0 = linkStarts(m);
  const lo = firstIndex(t0, vp.start, false), hi = firstIndex(t0, vp.end, true);
  if (hi - lo > MAX_VISITED) return { arrows, tooMany: true };
  const selSet = new Set(sel);
  let drawn = 0;
  for (let k = lo; k < hi; k++) {
    if (selSet.has(k)) continue;
    // Both ends in the view's time range: the link's earlier end is (k ≥ lo); the later one too.
    if (Math.max(start[L.from[k]], start[L.to[k]]) > vp.end) continue;
    if (add(k, false, true) && ++drawn >= MAX_ARROWS) return { arrows, tooMany: true };
  }
  return { arrows, tooMany: false };
}

const inside = (y: number, h: number) => y >= 0 && y <= h;

/** Links touching item `i` (at most MAX_SELECTED_ARROWS), cached for the current selection. */
export function linksOf(m: TimelineModel, i: number): number[] {
  if (selectedLinks && selectedLinks.model === m && selectedLinks.item === i) return selectedLinks.links;
  const out: number[] = [];
  const L = m.links;
  if (L) {
    for (let k = 0; k < L.from.length && out.length < MAX_SELECTED_ARROWS; k++) if (L.from[k] === i || L.to[k] === i) out.push(k);
  }
  selectedLinks = { model: m, item: i, links: out };
  return out;
}

/** The items item `i`'s arrows come from and go to (its flow partners, for the details pane). */
export function flowPartners(m: TimelineModel, i: number): { from: number[]; to: number[] } {
  const out = { from: [] as number[], to: [] as number[] };
  const L = m.links;
  if (!L) return out;
  for (const k of linksOf(m, i)) {
    if (L.to[k] === i) out.from.push(L.from[k]);
    if (L.from[k] === i) out.to.push(L.to[k]);
  }
  return out;
}

/** Per model: the links of each item, as offsets into one array (built once, when first needed). */
const itemLinks = new WeakMap<TimelineModel, { at: Uint32Array; links: Uint32Array }>();

function linksByItem(m: TimelineModel): { at: Uint32Array; links: Uint32Array } {
  let x = itemLinks.get(m);
  if (!x) {
    const L = m.links!, n = m.items.start.length;
    const at = new Uint32Array(n + 1);
    for (let k = 0; k < L.from.length; k++) { at[L.from[k] + 1]++; if (L.to[k] !== L.from[k]) at[L.to[k] + 1]++; }
    for (let i = 0; i < n; i++) at[i + 1] += at[i];
    const links = new Uint32Array(at[n]), fill = at.slice(0, n);
    for (let k = 0; k < L.from.length; k++) { links[fill[L.from[k]]++] = k; if (L.to[k] !== L.from[k]) links[fill[L.to[k]]++] = k; }
    itemLinks.set(m, x = { at, links });
  }
  return x;
}

/**
 * The links of the selected item's ancestors and descendants: the slices of its track that enclose
 * it (rows above) or that it encloses (rows below), found by start in each row, which the model
 * keeps sorted. Bounded by MAX_FAMILY_ITEMS items and MAX_SELECTED_ARROWS links.
 */
export function familyLinks(m: TimelineModel, i: number, rowOfItem: ArrayLike<number>): number[] {
  const out: number[] = [];
  if (!m.links?.from.length) return out;
  const { at, links } = linksByItem(m);
  const r = rowOfItem[i];
  const track = m.tracks.find((t) => t.kind === 'slices' && r >= t.rowStart && r < t.rowStart + t.rowCount);
  if (!track) return out;
  const { start, end } = m.items;
  const s = start[i], e = end[i] > s ? end[i] : s;
  let visited = 0;
  const take = (j: number): boolean => {
    for (let p = at[j]; p < at[j + 1]; p++) if (out.push(links[p]) >= MAX_SELECTED_ARROWS) return false;
    return ++visited < MAX_FAMILY_ITEMS;
  };
  for (let q = track.rowStart; q < track.rowStart + track.rowCount; q++) {
    if (q === r) continue;
    const lo = m.rowItemStart[q], hi = m.rowItemStart[q + 1];
    if (q > r) {
      // Descendants start within the selection and end in it.
      for (let j = lowerBound(start, lo, hi, s); j < hi && start[j] <= e; j++) if (end[j] <= e && j !== i && !take(j)) return out;
    } else {
      // Ancestors start at or before it, no earlier than the row's longest item allows, and end after it.
      for (let j = upperBound(start, lo, hi, s) - 1; j >= lo && start[j] >= s - m.rowMaxDur[q]; j--) if (end[j] >= e && !take(j)) return out;
    }
  }
  return out;
}


function linkStarts(m: TimelineModel): Float64Array {
  let t0 = linkT0.get(m);
  if (!t0) {
    const L = m.links!, s = m.items.start;
    t0 = Float64Array.from(L.from, (f, k) => Math.min(s[f], s[L.to[k]]));
    linkT0.set(m, t0);
  }
  return t0;
}

function bandsOfRows(bands: readonly Band[], rows: number): Int32Array {
  let out = rowBand.get(bands);
  if (!out) {
    out = new Int32Array(rows).fill(-1);
    bands.forEach((b, k) => {
      if (b.kind === 'slices') out!.fill(k, b.rowFrom, b.rowTo);
    });
    rowBand.set(bands, out);
  }
  return out;
}

/** First index whose value is at least `x` (above `x` with `above`). */
function firstIndex(a: Float64Array, x: number, above: boolean): number {
  return above ? upperBound(a, 0, a.length, x) : lowerBound(a, 0, a.length, x);
}

/** Draws the arrows: a line from the source's start to the target's start with a head there. */
export function drawFlows(g: CanvasRenderingContext2D, arrows: readonly FlowArrow[], left: number, top: number, colour: string, selectedColour: string): void {
  g.save();
  for (const sel of [false, true]) {
    g.strokeStyle = g.fillStyle = sel ? selectedColour : colour;
    g.globalAlpha = sel ? 1 : 0.7;
    g.lineWidth = sel ? 2 : 1;
    for (const a of arrows) {
      if (a.selected !== sel) continue;
      const x0 = left + a.x0, y0 = top + a.y0, x1 = left + a.x1, y1 = top + a.y1;
      g.beginPath();
      g.moveTo(x0, y0);
      // A curve leaving and entering horizontally, so arrows between neighbouring rows stay apart.
      const dx = Math.max(12, Math.abs(x1 - x0) / 3);
      g.bezierCurveTo(x0 + dx, y0, x1 - dx, y1, x1, y1);
      g.stroke();
      g.beginPath();
      g.moveTo(x1, y1);
      g.lineTo(x1 - 6, y1 - 3.5);
      g.lineTo(x1 - 6, y1 + 3.5);
      g.closePath();
      g.fill();
    }
  }
  g.restore();
}
