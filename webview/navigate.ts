/**
 * Moving the timeline's view and selection: fit, zoom to a span, select an item (and tell the
 * host), bring an item into view, go to a Summary row's span or a finding's command.
 */
import { KIND, NO_LINE } from '../core/timeline/model';
import { sourceSpot } from '../core/timeline/sourcePosition';
import type { Finding } from '../core/trace/metrics/types';
import { canvas, details, send } from './dom';
import { schedule } from './frames';
import { bandOfRow } from './layout';
import { fillDetails } from './panels';
import { RULER_H } from './render';
import { session } from './session';
import { showSummary } from './summaryTab';
import { widgets } from './widgets';

export function fit(): void {
  const s = session.state;
  if (!s) return;
  const pad = Math.max(1, (s.model.t1 - s.model.t0) * 0.02);
  s.viewport.set(s.model.t0 - pad, s.model.t1 + pad, s.model);
  schedule();
}

function zoomTo(a: number, b: number): void {
  const s = session.state!;
  const pad = Math.max(1, (b - a) * 0.02);
  s.viewport.set(a - pad, b + pad, s.model);
  s.moved = true;
  schedule();
}

/** Selects item `i`; `reveal` when the user picked it here (the host then moves the editor). */
export function select(i: number, reveal: boolean, scrollIntoView: boolean): void {
  const s = session.state;
  if (!s) return;
  s.selected = i;
  if (i < 0) {
    details.hidden = true;
    schedule();
    return;
  }
  const it = s.model.items;
  if (scrollIntoView) ensureVisible(i);
  details.hidden = false;
  fillDetails(details, s, i, undefined, (j) => select(j, true, true));
  const span = sourceSpot(s.model, i), endSpan = sourceSpot(s.model, i, true);
  send({
    type: 'select', line: it.line[i], endLine: it.endLine[i] === NO_LINE ? null : it.endLine[i], reveal,
    ...(span && { span: [span.char, span.charEnd] }), ...(endSpan && { endSpan: [endSpan.char, endSpan.charEnd] }),
  });
  schedule();
}

/** A click on the canvas (-1: on nothing); a double click also zooms to the item. */
export function pick(i: number, dbl: boolean): void {
  const s = session.state;
  if (!s) return;
  if (dbl && i >= 0) {
    const it = s.model.items, pad = Math.max(4, (it.end[i] - it.start[i]) * 0.1);
    s.viewport.set(it.start[i] - pad, it.end[i] + pad, s.model);
  }
  if (i !== s.selected || dbl) select(i, i >= 0, false);
}

function ensureVisible(i: number): void {
  const st = session.state!, vp = st.viewport, it = st.model.items;
  if (it.end[i] < vp.start || it.start[i] > vp.end) {
    const half = (vp.end - vp.start) / 2, mid = (it.start[i] + it.end[i]) / 2;
    vp.set(mid - half, mid + half, st.model);
  }
  let band = bandOfRow(st.bands, st.index.rowOfItem[i]);
  if (!band) {
    // Its track is collapsed: open the way to it.
    for (let k: number = st.index.trackOfRow[st.index.rowOfItem[i]]; k >= 0; k = st.model.tracks[k].parent) st.collapsed.delete(k);
    st.relayout();
    band = bandOfRow(st.bands, st.index.rowOfItem[i]);
  }
  if (band) {
    const viewH = canvas.clientHeight - RULER_H;
    if (band.y < st.scrollY + 40 || band.y + band.h > st.scrollY + viewH) st.scrollY = Math.max(0, band.y - viewH / 3);
  }
}

/** Zooms to the items drawn from `lines` (a finding's events) and selects the first; false until the complete model is in. */
export function revealLines(lines: readonly number[]): boolean {
  const s = session.state;
  if (!s || session.previewShown) return false;
  const it = s.model.items, ofLine = s.index.itemOfLine;
  let from = Infinity, to = -Infinity, first = -1;
  for (const l of lines) {
    const i = l < ofLine.length ? ofLine[l] : -1;
    if (i < 0) continue;
    if (first < 0) first = i;
    from = Math.min(from, it.start[i]);
    to = Math.max(to, it.end[i]);
  }
  if (first < 0) return true;
  const pad = Math.max(1, (to - from) * 0.05);
  s.viewport.set(from - pad, to + pad, s.model);
  s.moved = true;
  select(first, false, true);
  return true;
}

/** A phase or layer row of the Summary: the toolbar's filter by it, zoomed to the span of its items. */
export function filterAndZoom(attr: number, value: string): void {
  const s = session.state;
  if (!s) return;
  // The metrics call a command without the attribute "(none)"; the model's absent value is ''.
  const v = value === '(none)' ? '' : value;
  widgets.toolbar.setFilter(attr, v);
  s.setFilter({ attr, value: v });
  const it = s.model.items;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < it.start.length; i++) {
    if (!s.passes(i)) continue;
    if (it.start[i] < lo) lo = it.start[i];
    const end = Number.isFinite(it.end[i]) ? it.end[i] : it.start[i];
    if (end > hi) hi = end;
  }
  if (lo <= hi) zoomTo(lo, hi);
  showSummary(false);
}

/** A finding: its first range in view and its first command selected. */
export function goToFinding(f: Finding): void {
  const s = session.state;
  if (!s) return;
  const r = f.ranges[0];
  if (r) zoomTo(r[0], r[1]);
  showSummary(false);
  if (!f.cmd_ids.length) return;
  const id = Number(f.cmd_ids[0]), it = s.model.items;
  for (let i = 0; i < it.start.length; i++) {
    if (it.kind[i] === KIND.command && it.id[i] === id) {
      select(i, true, !r);
      return;
    }
  }
}
