import type { TimelineModel } from '../core/timeline/model';

/** Width of the track-name column: narrower when the panel is narrow, so the plot keeps most of it. */
export let HEADER_W = 200;
export function fitHeaderWidth(canvasWidth: number): void {
  HEADER_W = Math.round(Math.max(110, Math.min(200, canvasWidth * 0.28)));
}
export const GROUP_H = 20;
export const LANE_H = 18;
export const COUNTER_H = 22;

/** One horizontal band of the view: a group header, one lane (or a collapsed track), or a counter. */
export interface Band {
  track: number;
  kind: 'group' | 'slices' | 'counter';
  /** Model rows drawn in this band (several when a multi-lane track is collapsed). */
  rowFrom: number;
  rowTo: number;
  y: number;
  h: number;
  depth: number;
  /** Whether the band shows the track's name (only its first lane does). */
  labelled: boolean;
  /** Whether a click on the header toggles collapse. */
  collapsible: boolean;
  collapsed: boolean;
}

/**
 * Lays the visible tracks out top to bottom, skipping the children of collapsed groups. Layout is
 * kept apart from drawing so hit-testing uses exactly what was drawn.
 */
export function layoutBands(m: TimelineModel, collapsed: ReadonlySet<number>): { bands: Band[]; height: number } {
  const bands: Band[] = [];
  const depth: number[] = [];
  const hidden: boolean[] = [];
  let y = 0;
  m.tracks.forEach((t, k) => {
    const d = t.parent < 0 ? 0 : depth[t.parent] + 1;
    depth[k] = d;
    hidden[k] = t.parent >= 0 && (hidden[t.parent] || collapsed.has(t.parent));
    if (hidden[k]) return;
    const c = collapsed.has(k);
    if (t.kind === 'group') {
      bands.push({ track: k, kind: 'group', rowFrom: 0, rowTo: 0, y, h: GROUP_H, depth: d, labelled: true, collapsible: true, collapsed: c });
      y += GROUP_H;
    } else if (t.kind === 'counter') {
      bands.push({ track: k, kind: 'counter', rowFrom: 0, rowTo: 0, y, h: COUNTER_H, depth: d, labelled: true, collapsible: false, collapsed: false });
      y += COUNTER_H;
    } else if (c || t.rowCount <= 1) {
      bands.push({ track: k, kind: 'slices', rowFrom: t.rowStart, rowTo: t.rowStart + t.rowCount, y, h: LANE_H, depth: d, labelled: true, collapsible: t.rowCount > 1, collapsed: c });
      y += LANE_H;
    } else {
      for (let r = 0; r < t.rowCount; r++) {
        bands.push({ track: k, kind: 'slices', rowFrom: t.rowStart + r, rowTo: t.rowStart + r + 1, y, h: LANE_H, depth: d, labelled: r === 0, collapsible: r === 0, collapsed: false });
        y += LANE_H;
      }
    }
  });
  return { bands, height: y };
}

/** The band at content height `y`, by binary search. */
export function bandAt(bands: readonly Band[], y: number): Band | undefined {
  let lo = 0, hi = bands.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = bands[mid];
    if (y < b.y) hi = mid - 1;
    else if (y >= b.y + b.h) lo = mid + 1;
    else return b;
  }
  return undefined;
}

/** The band that shows model row `row`. */
export function bandOfRow(bands: readonly Band[], row: number): Band | undefined {
  return bands.find((b) => b.kind === 'slices' && row >= b.rowFrom && row < b.rowTo);
}

/** Time ↔ pixel mapping of the plot area. */
export class Viewport {
  start = 0;
  end = 1;
  width = 1;

  get scale(): number {
    return this.width / (this.end - this.start);
  }
  x(t: number): number {
    return (t - this.start) * this.scale;
  }
  t(x: number): number {
    return this.start + x / this.scale;
  }
  /** Narrowest view: a few pixels per cycle, so single cycles can be told apart on any trace. */
  static readonly MIN_SPAN = 8;

  set(start: number, end: number, bounds: { t0: number; t1: number }): void {
    let span = Math.max(Viewport.MIN_SPAN, end - start);
    const full = Math.max(Viewport.MIN_SPAN, bounds.t1 - bounds.t0) * 1.1;
    if (span > full) span = full;
    const pad = full * 0.05;
    let s = start;
    if (s < bounds.t0 - pad) s = bounds.t0 - pad;
    if (s + span > bounds.t0 - pad + full) s = bounds.t0 - pad + full - span;
    this.start = s;
    this.end = s + span;
  }

  zoomAt(x: number, factor: number, bounds: { t0: number; t1: number }): void {
    const t = this.t(x);
    this.set(t - (t - this.start) * factor, t + (this.end - t) * factor, bounds);
  }
}
