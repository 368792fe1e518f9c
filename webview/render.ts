import { BROKEN, FLAG, KIND, type Counter } from '../core/timeline/model';
import { drawFlows, flowArrows } from './flows';
import { bandOfRow, fitHeaderWidth, GROUP_H, HEADER_W, type Band } from './layout';
import { gallopVia, lowerBoundVia } from './query';
import { formatDuration, isWallClock, rulerLabels, rulerTicks, type TimeBase } from './timeAxis';
import { trackLabel } from './trackLabel';
import type { ViewState } from './state';
import type { Theme } from './theme';

export const RULER_H = 36;
const FONT_PX = 11;
const CHAR_W = 6.2;

/** Draws one frame. Pure function of the state: layout decides where, this decides how. */
export function render(g: CanvasRenderingContext2D, s: ViewState, th: Theme, W: number, H: number, fontFamily: string): void {
  const vp = s.viewport;
  fitHeaderWidth(W);
  vp.width = Math.max(1, W - HEADER_W);
  g.font = `${FONT_PX}px ${fontFamily}`;
  g.textBaseline = 'middle';
  g.fillStyle = th.background;
  g.fillRect(0, 0, W, H);
  const top = RULER_H, viewH = H - RULER_H;
  const first = firstBandAt(s.bands, s.scrollY);
  // Plot area.
  g.save();
  g.beginPath();
  g.rect(HEADER_W, top, W - HEADER_W, viewH);
  g.clip();
  drawGrid(g, s, th, top, H);
  for (let b = first; b < s.bands.length; b++) {
    const band = s.bands[b];
    const y = top + band.y - s.scrollY;
    if (y > H) break;
    if (band.kind === 'slices') {
      for (let r = band.rowFrom; r < band.rowTo; r++) drawRow(g, s, th, r, y, band.h);
    } else if (band.kind === 'counter') drawCounter(g, s, th, s.model.counters[s.model.tracks[band.track].counter], y, band.h);
    else {
      g.fillStyle = th.headerBackground;
      g.fillRect(HEADER_W, y, W - HEADER_W, band.h);
    }
  }
  if (s.model.links) drawFlowLayer(g, s, th, W, top, viewH);
  drawSelection(g, s, th, top);
  if (s.range) {
    const x0 = HEADER_W + vp.x(s.range[0]), x1 = HEADER_W + vp.x(s.range[1]);
    g.fillStyle = th.rangeFill;
    g.fillRect(x0, top, Math.max(1, x1 - x0), viewH);
    g.strokeStyle = th.focus;
    g.strokeRect(x0 + 0.5, top + 0.5, Math.max(1, x1 - x0) - 1, viewH - 1);
  }
  g.restore();
  drawHeaders(g, s, th, first, top, H);
  drawSticky(g, s, th, first, W, top);
  drawRuler(g, s, th, W);
}

function drawFlowLayer(g: CanvasRenderingContext2D, s: ViewState, th: Theme, W: number, top: number, viewH: number): void {
  const { arrows, tooMany } = flowArrows({
    model: s.model, bands: s.bands, rowOfItem: s.index.rowOfItem, viewport: s.viewport, scrollY: s.scrollY, height: viewH,
    selected: s.selected, passes: (i) => s.passes(i), showAll: s.showAllFlows,
  });
  drawFlows(g, arrows, HEADER_W, top, th.foreground, th.focus);
  s.arrowsDrawn = arrows.length;
  if (tooMany) {
    g.fillStyle = th.muted;
    g.textAlign = 'right';
    g.fillText('flows: zoom in to draw them all (or Flows: selection)', W - 8, top + 8);
    g.textAlign = 'left';
  }
}

function firstBandAt(bands: readonly Band[], y: number): number {
  let lo = 0, hi = bands.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bands[mid].y + bands[mid].h <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function colourOf(s: ViewState, th: Theme, i: number): string {
  if (s.highlight && !s.highlight[i]) return th.muted;
  if (s.colourBy < 0) return th.kind[s.model.items.kind[i]] ?? th.foreground;
  const slot = s.ctxColour[s.model.items.ctx[i]];
  return slot < 0 ? th.muted : th.palette[slot];
}

export function itemLabel(s: ViewState, i: number): string {
  const m = s.model;
  const id = m.items.id[i];
  const name = m.strings[m.items.name[i]];
  return id === id ? `${name} #${id}` : name;
}

/**
 * Level of detail: spans under a pixel become one density bar per pixel, and the items that start
 * inside that pixel are skipped with a binary search, so a row costs O(pixels · log n), not O(n).
 * With a filter on, the row is walked through its list of passing items (state.filtered), so the
 * same skip applies and items that do not pass are never visited.
 */
function drawRow(g: CanvasRenderingContext2D, s: ViewState, th: Theme, r: number, y: number, h: number): void {
  const m = s.model, it = m.items, vp = s.viewport;
  const { start, end, flags } = it;
  const fv = s.filtered, ix = fv?.items;
  // Positions k in [lo, hi): item k itself, or item ix[k] with a filter on.
  const lo = fv ? fv.rowStart[r] : m.rowItemStart[r], hi = fv ? fv.rowStart[r + 1] : m.rowItemStart[r + 1];
  const vs = vp.start, ve = vp.end, scale = vp.scale, W = vp.width;
  let k = s.index.endsSorted[r] ? lowerBoundVia(end, ix, lo, hi, vs) : lowerBoundVia(start, ix, lo, hi, vs - m.rowMaxDur[r]);
  let lastMark = -99;
  let fill = '';
  const y0 = y + 2, hh = h - 4;
  // Density bars of neighbouring pixels in one colour merge into one rectangle (one fill call).
  let runFrom = -2, runTo = -2, runColour = '';
  const flush = () => {
    if (runTo < runFrom) return;
    g.globalAlpha = 0.75;
    g.fillStyle = fill = runColour;
    g.fillRect(HEADER_W + runFrom, y0, runTo - runFrom + 1, hh);
    g.globalAlpha = 1;
    runFrom = -2;
    runTo = -3;
  };
  while (k < hi) {
    const i = ix ? ix[k] : k;
    const st = start[i];
    if (st > ve) break;
    const en = end[i];
    if (en < vs) {
      k++;
      continue;
    }
    const x0 = (st - vs) * scale;
    const f = flags[i];
    const c = colourOf(s, th, i);
    if (f & FLAG.instant) {
      flush();
      if (x0 - lastMark >= 3) {
        if (c !== fill) g.fillStyle = fill = c;
        drawMarker(g, th, it.kind[i], f, HEADER_W + x0, y, h);
            lastMark = x0;
      }
      k++;
      continue;
    }
    const x1 = (en - vs) * scale;
    if (x1 - x0 < 1) {
      const px = Math.floor(x0);
      if (px > runTo) {
        if (px === runTo + 1 && c === runColour) runTo = px;
        else {
          flush();
          runFrom = runTo = px;
          runColour = c;
        }
      }
      const next = gallopVia(start, ix, k + 1, hi, vs + (px + 1) / scale);
      k = next - 1 > k ? next - 1 : k + 1;
      continue;
    }
    flush();
    if (c !== fill) g.fillStyle = fill = c;
    const a = Math.max(x0, -2), b = Math.min(x1, W + 2);
    g.fillRect(HEADER_W + a, y0, b - a, hh);
    if (th.contrastBorder) {
      g.strokeStyle = th.contrastBorder;
      g.strokeRect(HEADER_W + a + 0.5, y0 + 0.5, b - a - 1, hh - 1);
    }
    if (f & (BROKEN | FLAG.failed)) {
      // Marked, not hidden: a red band along the bottom, and a dashed edge where the END is missing.
      g.fillStyle = th.error;
      g.fillRect(HEADER_W + a, y0 + hh - 3, b - a, 3);
      if (f & FLAG.unmatchedStart) g.fillRect(HEADER_W + b - 2, y0, 2, hh);
      fill = th.error;
    }
    if (b - a > 24) {
      const text = (f & BROKEN ? '⚠ ' : '') + itemLabel(s, i);
      const room = Math.floor((b - a - 6) / CHAR_W);
      if (room >= 2) {
        g.fillStyle = fill = th.font;
        g.fillText(text.length > room ? text.slice(0, room - 1) + '…' : text, HEADER_W + Math.max(a, 0) + 3, y + h / 2);
      }
    }
    k++;
  }
  flush();
}

function drawMarker(g: CanvasRenderingContext2D, th: Theme, kind: number, flags: number, x: number, y: number, h: number): void {
  // A problem is marked in red, with a bar; a plain instant is its triangle alone.
  const big = kind === KIND.error || flags & (FLAG.failed | BROKEN);
  if (big) {
    g.fillStyle = th.error;
    g.fillRect(x - 0.5, y, 1.5, h);
  }
  const r = big ? 5 : 4;
  g.beginPath();
  g.moveTo(x - r, y + 2);
  g.lineTo(x + r, y + 2);
  g.lineTo(x, y + 2 + r * 1.6);
  g.closePath();
  g.fill();
}

const counterMax = new WeakMap<Counter, number>();

function drawCounter(g: CanvasRenderingContext2D, s: ViewState, th: Theme, c: Counter, y: number, h: number): void {
  const vp = s.viewport;
  const colour = /TE/.test(c.name) ? th.kind[KIND.te] : /VE/.test(c.name) ? th.kind[KIND.ve] : /DRAM/.test(c.name) ? th.kind[KIND.dram] : th.kind[KIND.dma];
  let max = counterMax.get(c);
  if (max === undefined) {
    max = 0;
    for (const v of c.values) if (v > max) max = v;
    counterMax.set(c, max);
  }
  g.fillStyle = colour;
  const n = c.values.length;
  // Pixels showing the same value (a bucket wider than a pixel when zoomed in) share one rectangle.
  let runFrom = 0, runV = 0;
  const flush = (x: number) => {
    if (runV > 0 && x > runFrom) {
      if (c.unit === 'fraction') {
        g.globalAlpha = 0.15 + 0.85 * Math.min(1, runV);
        g.fillRect(HEADER_W + runFrom, y + 2, x - runFrom, h - 4);
      } else {
        const bh = Math.max(1, (runV / (max || 1)) * (h - 4));
        g.fillRect(HEADER_W + runFrom, y + h - 2 - bh, x - runFrom, bh);
      }
    }
  };
  for (let x = 0; x < vp.width; x++) {
    const b0 = Math.floor((vp.t(x) - c.t0) / c.bucket), b1 = Math.floor((vp.t(x + 1) - c.t0) / c.bucket);
    let v = 0;
    if (b1 >= 0 && b0 < n) {
      const step = Math.max(1, Math.floor((b1 - b0) / 32));
      for (let b = Math.max(0, b0); b <= Math.min(n - 1, b1); b += step) if (c.values[b] > v) v = c.values[b];
    }
    if (v !== runV) {
      flush(x);
      runFrom = x;
      runV = v;
    }
  }
  flush(vp.width);
  g.globalAlpha = 1;
}

function drawSelection(g: CanvasRenderingContext2D, s: ViewState, th: Theme, top: number): void {
  for (const [i, colour, w] of [[s.hover, th.foreground, 1], [s.selected, th.focus, 2]] as const) {
    if (i < 0) continue;
    const band = bandOfRow(s.bands, s.index.rowOfItem[i]);
    if (!band) continue;
    const vp = s.viewport, it = s.model.items;
    const x0 = HEADER_W + vp.x(it.start[i]), x1 = HEADER_W + vp.x(it.end[i]);
    const y = top + band.y - s.scrollY;
    g.strokeStyle = colour;
    g.lineWidth = w;
    g.strokeRect(Math.max(HEADER_W - 2, x0 - 2) + 0.5, y + 0.5, Math.max(4, x1 - x0 + 4) - 1, band.h - 1);
    g.lineWidth = 1;
  }
}

function drawHeaders(g: CanvasRenderingContext2D, s: ViewState, th: Theme, first: number, top: number, H: number): void {
  g.fillStyle = th.headerBackground;
  g.fillRect(0, top, HEADER_W, H - top);
  for (let b = first; b < s.bands.length; b++) {
    const band = s.bands[b];
    const y = top + band.y - s.scrollY;
    if (y > H) break;
    headerLabel(g, s, th, band, y);
  }
  g.fillStyle = th.grid;
  g.fillRect(HEADER_W - 1, top, 1, H - top);
}

function headerLabel(g: CanvasRenderingContext2D, s: ViewState, th: Theme, band: Band, y: number): void {
  if (!band.labelled) return;
  const t = s.model.tracks[band.track];
  const x = 6 + band.depth * 12;
  const label = trackLabel(t);
  if (label.alert) {
    g.fillStyle = th.error;
    g.fillRect(x - 4, y + 2, 3, band.h - 4);
  }
  g.fillStyle = label.alert ? th.error : band.kind === 'group' ? th.foreground : band.kind === 'counter' ? th.muted : th.foreground;
  const caret = band.collapsible ? (band.collapsed ? '▸ ' : '▾ ') : band.kind === 'group' ? '' : '  ';
  const text = caret + label.text;
  const room = Math.floor((HEADER_W - x - 4) / CHAR_W);
  g.font = `${band.kind === 'group' ? 'bold ' : ''}${FONT_PX}px ${g.font.replace(/^.*?px /, '')}`;
  g.fillText(text.length > room ? text.slice(0, room - 1) + '…' : text, x, y + band.h / 2);
  g.font = g.font.replace(/^bold /, '');
}

/** Group headers stay pinned at the top while their tracks scroll under them. */
function drawSticky(g: CanvasRenderingContext2D, s: ViewState, th: Theme, first: number, W: number, top: number): void {
  const band = s.bands[first];
  if (!band) return;
  const chain: number[] = [];
  for (let p = s.model.tracks[band.track].parent; p >= 0; p = s.model.tracks[p].parent) chain.unshift(p);
  if (band.kind === 'group' && band.y >= s.scrollY) return;
  chain.forEach((k, d) => {
    const y = top + d * GROUP_H;
    const own = s.bands.find((b) => b.track === k)!;
    g.fillStyle = th.headerBackground;
    g.fillRect(0, y, W, GROUP_H);
    g.fillStyle = th.grid;
    g.fillRect(0, y + GROUP_H - 1, W, 1);
    headerLabel(g, s, th, own, y);
  });
}

export function formatCycles(t: number): string {
  return (Math.round(t) || 0).toLocaleString('en-US');
}

function drawGrid(g: CanvasRenderingContext2D, s: ViewState, th: Theme, top: number, H: number): void {
  const vp = s.viewport;
  g.fillStyle = th.grid;
  g.globalAlpha = 0.35;
  for (const { t } of rulerTicks(timeBase(s), vp.start, vp.end, vp.scale)) g.fillRect(HEADER_W + Math.round(vp.x(t)), top, 1, H - top);
  g.globalAlpha = 1;
}

/** What the ruler counts from: the model's start, or the view's own origin (`ViewState.axis`). */
function timeBase(s: ViewState): TimeBase {
  const m = s.model;
  return s.axis ? { unit: m.unit, nsPerCycle: m.nsPerCycle, t0: s.axis.t0, from: s.axis.from } : m;
}

function drawRuler(g: CanvasRenderingContext2D, s: ViewState, th: Theme, W: number): void {
  const vp = s.viewport, ns = s.model.nsPerCycle;
  g.fillStyle = th.headerBackground;
  g.fillRect(0, 0, W, RULER_H);
  g.fillStyle = th.grid;
  g.fillRect(0, RULER_H - 1, W, 1);
  // Each row says what it holds: ticks from the start on a wall clock (the absolute start beside
  // them), cycles and their time in an NPU trace.
  const base = timeBase(s);
  const [first, second] = rulerLabels(base);
  const room = Math.floor((HEADER_W - 10) / CHAR_W);
  g.fillStyle = th.muted;
  g.fillText(first, 6, 10);
  if (second) g.fillText(second.length > room ? `${second.slice(0, room - 1)}…` : second, 6, 26);
  const cyclesNs = isWallClock(s.model) ? undefined : ns;
  g.save();
  g.beginPath();
  g.rect(HEADER_W, 0, W - HEADER_W, RULER_H);
  g.clip();
  for (const { t, label } of rulerTicks(base, vp.start, vp.end, vp.scale)) {
    const x = HEADER_W + Math.round(vp.x(t));
    g.fillStyle = th.grid;
    g.fillRect(x, RULER_H - 8, 1, 8);
    g.fillStyle = th.foreground;
    g.fillText(label, x + 3, 10);
    if (cyclesNs) {
      g.fillStyle = th.muted;
      g.fillText(formatDuration((t || 0) * cyclesNs), x + 3, 26);
    }
  }
  g.restore();
}
