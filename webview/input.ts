import { FLAG } from '../core/timeline/model';
import { bandAt, HEADER_W, type Band } from './layout';
import { fillTooltip } from './panels';
import { lowerBound } from '../core/common/bounds';
import { RULER_H } from './render';
import type { ViewState } from './state';

export interface InputHost {
  state(): ViewState | undefined;
  schedule(): void;
  /** Click (dbl = double-click) on item i, or on nothing (-1). */
  select(i: number, dbl: boolean): void;
  range(r: [number, number] | undefined): void;
  fit(): void;
  focusSearch(): void;
}

/** The item under (x, y) in canvas pixels, within a few pixels of slack; -1 when none. */
export function hitTest(s: ViewState, x: number, y: number, headerW: number): number {
  const band = bandAt(s.bands, y - RULER_H + s.scrollY);
  if (!band || band.kind !== 'slices' || x < headerW) return -1;
  const vp = s.viewport, m = s.model, it = m.items;
  const t = vp.t(x - headerW), slack = 4 / vp.scale;
  let best = -1, bestD = Infinity;
  for (let r = band.rowFrom; r < band.rowTo; r++) {
    const hi = m.rowItemStart[r + 1];
    let i = s.index.endsSorted[r] ? lowerBound(it.end, m.rowItemStart[r], hi, t - slack) : lowerBound(it.start, m.rowItemStart[r], hi, t - slack - m.rowMaxDur[r]);
    for (; i < hi && it.start[i] <= t + slack; i++) {
      if (it.end[i] < t - slack || (s.filtering && !s.passes(i))) continue;
      // Inside a span is distance 0; markers and thin spans win by closeness.
      const d = t >= it.start[i] && t <= it.end[i] ? (it.flags[i] & FLAG.instant ? 0 : 0.5 * slack) : Math.min(Math.abs(t - it.start[i]), Math.abs(t - it.end[i]));
      if (d < bestD || (d === bestD && it.end[i] - it.start[i] < it.end[best] - it.start[best])) {
        best = i;
        bestD = d;
      }
    }
  }
  return best;
}

export function attachInput(canvas: HTMLCanvasElement, h: InputHost): void {
  const tip = document.getElementById('tooltip')!;
  let drag: { x: number; y: number; start: number; scrollY: number; mode: 'pan' | 'range'; t0: number; moved: boolean } | undefined;
  const pos = (e: MouseEvent) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  canvas.addEventListener('wheel', (e) => {
    const s = h.state();
    if (!s) return;
    e.preventDefault();
    s.moved = true;
    const { x } = pos(e);
    if (x < HEADER_W || e.shiftKey) s.scrollY = Math.max(0, s.scrollY + e.deltaY);
    else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      const dt = e.deltaX / s.viewport.scale;
      s.viewport.set(s.viewport.start + dt, s.viewport.end + dt, s.model);
    } else s.viewport.zoomAt(x - HEADER_W, Math.exp(e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002)), s.model);
    h.schedule();
  }, { passive: false });

  canvas.addEventListener('pointerdown', (e) => {
    const s = h.state();
    if (!s || e.button !== 0) return;
    canvas.focus();
    const { x, y } = pos(e);
    if (x < HEADER_W && y > RULER_H) {
      toggle(s, bandAt(s.bands, y - RULER_H + s.scrollY));
      h.schedule();
      return;
    }
    canvas.setPointerCapture(e.pointerId);
    const mode = e.shiftKey || y < RULER_H ? 'range' : 'pan';
    drag = { x, y, start: s.viewport.start, scrollY: s.scrollY, mode, t0: s.viewport.t(x - HEADER_W), moved: false };
  });

  canvas.addEventListener('pointermove', (e) => {
    const s = h.state();
    if (!s) return;
    const { x, y } = pos(e);
    if (drag) {
      if (Math.abs(x - drag.x) + Math.abs(y - drag.y) > 3) drag.moved = true;
      if (!drag.moved) return;
      s.moved = true;
      if (drag.mode === 'pan') {
        const span = s.viewport.end - s.viewport.start;
        const st = drag.start - (x - drag.x) / s.viewport.scale;
        s.viewport.set(st, st + span, s.model);
        s.scrollY = Math.max(0, drag.scrollY - (y - drag.y));
      } else {
        const t = s.viewport.t(x - HEADER_W);
        h.range([Math.min(drag.t0, t), Math.max(drag.t0, t)]);
      }
      tip.hidden = true;
      h.schedule();
      return;
    }
    const i = hitTest(s, x, y, HEADER_W);
    if (i !== s.hover) {
      s.hover = i;
      h.schedule();
    }
    if (i < 0) tip.hidden = true;
    else {
      fillTooltip(tip, s, i);
      tip.hidden = false;
      const r = canvas.getBoundingClientRect();
      tip.style.left = `${Math.min(e.clientX + 12, r.right - tip.offsetWidth - 4)}px`;
      tip.style.top = `${Math.min(e.clientY + 14, r.bottom - tip.offsetHeight - 4)}px`;
    }
  });

  canvas.addEventListener('pointerleave', () => {
    tip.hidden = true;
    const s = h.state();
    if (s && s.hover >= 0) {
      s.hover = -1;
      h.schedule();
    }
  });

  canvas.addEventListener('pointerup', (e) => {
    const s = h.state();
    const d = drag;
    drag = undefined;
    if (!s || !d || d.moved) return;
    const { x, y } = pos(e);
    if (d.mode === 'range') {
      h.range(undefined);
      return;
    }
    h.select(hitTest(s, x, y, HEADER_W), false);
  });

  canvas.addEventListener('dblclick', (e) => {
    const s = h.state();
    if (!s) return;
    const { x, y } = pos(e);
    const i = hitTest(s, x, y, HEADER_W);
    if (i >= 0) h.select(i, true);
  });

  canvas.addEventListener('keydown', (e) => {
    const s = h.state();
    if (!s || e.ctrlKey || e.metaKey || e.altKey) return;
    const vp = s.viewport, w = vp.width;
    switch (e.key.toLowerCase()) {
      case 'w': vp.zoomAt(w / 2, 0.8, s.model); break;
      case 's': vp.zoomAt(w / 2, 1.25, s.model); break;
      case 'a': case 'arrowleft': { const dt = (vp.end - vp.start) * 0.15; vp.set(vp.start - dt, vp.end - dt, s.model); break; }
      case 'd': case 'arrowright': { const dt = (vp.end - vp.start) * 0.15; vp.set(vp.start + dt, vp.end + dt, s.model); break; }
      case 'arrowup': s.scrollY = Math.max(0, s.scrollY - 40); break;
      case 'arrowdown': s.scrollY += 40; break;
      case 'f': h.fit(); break;
      case '/': h.focusSearch(); break;
      case 'escape': h.range(undefined); h.select(-1, false); break;
      default: return;
    }
    e.preventDefault();
    s.moved = true;
    h.schedule();
  });
}

function toggle(s: ViewState, band: Band | undefined): void {
  if (!band?.collapsible) return;
  if (s.collapsed.has(band.track)) s.collapsed.delete(band.track);
  else s.collapsed.add(band.track);
  s.relayout();
}
