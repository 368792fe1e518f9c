/**
 * The timeline page: receives a model from the host, draws it on a canvas, and reports selections.
 * Every message is validated on receipt (protocol/timeline.ts).
 */
import { ATTRS, KIND, NO_LINE } from '../core/timeline/model';
import { itemAtPosition, sourceSpot } from '../core/timeline/sourcePosition';
import type { Finding, TraceStats } from '../core/trace/metrics/types';
import { parseHostMessage, type HostMessage, type WebviewMessage } from '../protocol/timeline';
import { attachInput } from './input';
import { bandOfRow } from './layout';
import { factPairs } from './kprofTables';
import { KprofPane } from './kprofPane';
import { fillDetails, fillSummary } from './panels';
import { render, RULER_H } from './render';
import { Search } from './search';
import { SummaryView } from './summary';
import { ViewState } from './state';
import { readTheme } from './theme';
import { createToolbar } from './toolbar';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };

interface Saved {
  uri: string;
  view?: [number, number];
  scrollY?: number;
}

const vscode = acquireVsCodeApi();
const send = (m: WebviewMessage) => vscode.postMessage(m);
const $ = (id: string) => document.getElementById(id)!;

const canvas = $('canvas') as HTMLCanvasElement;
const g = canvas.getContext('2d', { alpha: false })!;
const details = $('details');
const summary = $('summary');
const overlay = $('overlay');
const summaryPane = $('summaryView');
let theme = readTheme();
const fontFamily = getComputedStyle(document.body).fontFamily || 'sans-serif';

let s: ViewState | undefined;
let uri = '';
/** Whether the model shown is the preview of a large file (the complete one replaces it). */
let previewShown = false;
let pending = false;
/**
 * Frame times, read by the bench (tests count what is drawn at the canvas): `frames` is the render() call alone,
 * `latency` what the user waits for, from the input event (or host message) that asked for the frame
 * to the end of its drawing (handlers, filter/search work, the wait for the animation frame, render).
 */
const perf = { frames: [] as number[], latency: [] as number[], firstPaint: 0, modelReceived: 0 };
(window as unknown as { __timeline: unknown }).__timeline = { perf, state: () => s, redraw: () => schedule() };

const search = new Search();

const toolbar = createToolbar($('toolbar'), {
  fit: () => fit(),
  colourBy: (a) => { if (s) { s.setColourBy(a, theme.palette.length); schedule(); } },
  filter: (f) => { if (s) { s.setFilter(f); schedule(); } },
  valuesOf: (a) => s?.values(a) ?? [],
  search: (q) => { if (s) { search.run(s, q); toolbar.setMatches(search.describe()); schedule(); } },
  step: (d) => { if (s) { const i = search.step(d); toolbar.setMatches(search.describe()); if (i >= 0) select(i, true, true); } },
  summary: (show) => showSummary(show),
  exportChromeTrace: () => send({ type: 'exportChromeTrace' }),
  exportParquet: () => send({ type: 'exportParquet' }),
});

/** The whole file's metrics (with the complete model), and the last range asked for and its metrics. */
let fileStats: TraceStats | undefined;
let rangeStats: { from: number; to: number; stats: TraceStats | null; message: string } | undefined;
/** Whether the Summary tab shows the range's tables rather than the file's. */
let summaryOfRange = false;
let rangeTimer: ReturnType<typeof setTimeout> | undefined;
let baseName = 'trace';

const summaryView = new SummaryView(summaryPane, () => theme, {
  group: (attr, value) => filterAndZoom(ATTRS.indexOf(attr), value),
  finding: (f) => goToFinding(f),
  copy: (text) => send({ type: 'copy', text }),
  save: (name, text) => send({ type: 'save', name, text }),
  wholeFile: () => {
    summaryOfRange = false;
    refreshSummary();
  },
}, () => baseName);

/** A kernel-profiler buffer's facts, statistics and overlap, in the Summary tab's place. */
const kprofPane = new KprofPane(summaryPane, summaryView, { overlap: (a, b) => send({ type: 'kprofOverlap', a, b }) });

function showSummary(show: boolean): void {
  summaryPane.hidden = !show;
  toolbar.setSummaryShown(show);
  if (show) refreshSummary();
  else schedule();
}

function refreshSummary(): void {
  if (summaryPane.hidden) return;
  if (s?.model.format === 'kprof') {
    kprofPane.render();
    return;
  }
  if (summaryOfRange && rangeStats) {
    summaryView.show(rangeStats.stats ?? undefined, [rangeStats.from, rangeStats.to], rangeStats.message);
    return;
  }
  const note = !s ? 'Loading…' : s.model.format !== 'npu-trace' ? 'The Summary is for NPU traces (*.trace.jsonl).' : previewShown ? 'Reading… the numbers come when the whole file is read.' : '';
  summaryView.show(fileStats, undefined, note);
}

/** A phase or layer row of the Summary: the toolbar's filter by it, zoomed to the span of its items. */
function filterAndZoom(attr: number, value: string): void {
  if (!s) return;
  // The metrics call a command without the attribute "(none)"; the model's absent value is ''.
  const v = value === '(none)' ? '' : value;
  toolbar.setFilter(attr, v);
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

function zoomTo(a: number, b: number): void {
  const st = s!;
  const pad = Math.max(1, (b - a) * 0.02);
  st.viewport.set(a - pad, b + pad, st.model);
  st.moved = true;
  schedule();
}

/** A finding: its first range in view and its first command selected. */
function goToFinding(f: Finding): void {
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

function fit(): void {
  if (!s) return;
  const pad = Math.max(1, (s.model.t1 - s.model.t0) * 0.02);
  s.viewport.set(s.model.t0 - pad, s.model.t1 + pad, s.model);
  schedule();
}

/** When the event being handled was created (performance.now() time base); -1 outside an event. */
let inputAt = -1;
let requestedAt = 0;
for (const type of ['wheel', 'pointerdown', 'pointermove', 'pointerup', 'dblclick', 'keydown', 'input', 'change', 'message']) {
  window.addEventListener(type, (e) => {
    inputAt = e.timeStamp;
    // Cleared once this event's dispatch is over, so a later frame not asked by an input is not charged to it.
    setTimeout(() => (inputAt = -1));
  }, { capture: true, passive: true });
}

export function schedule(): void {
  if (pending) return;
  pending = true;
  requestedAt = inputAt >= 0 ? inputAt : performance.now();
  requestAnimationFrame(draw);
}

function draw(): void {
  pending = false;
  if (!s) return;
  const t = performance.now();
  const dpr = window.devicePixelRatio || 1;
  const W = canvas.clientWidth, H = canvas.clientHeight;
  if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
  }
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  s.scrollY = Math.max(0, Math.min(s.scrollY, s.contentHeight - (H - RULER_H) + 20));
  render(g, s, theme, W, H, fontFamily);
  const done = performance.now();
  perf.frames.push(done - t);
  perf.latency.push(done - requestedAt);
  if (perf.frames.length > 1000) perf.frames.splice(0, 500);
  if (perf.latency.length > 1000) perf.latency.splice(0, 500);
  if (!perf.firstPaint) perf.firstPaint = performance.now();
  vscode.setState({ uri, view: [s.viewport.start, s.viewport.end], scrollY: s.scrollY } satisfies Saved);
}

/** Selects item `i`; `reveal` when the user picked it here (the host then moves the editor). */
function select(i: number, reveal: boolean, scrollIntoView: boolean): void {
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

/** A `revealLines` that came before the complete model: shown when that model is in. */
let pendingReveal: readonly number[] | undefined;

/** Zooms to the items drawn from `lines` (a finding's events) and selects the first; false until the complete model is in. */
function revealLines(lines: readonly number[]): boolean {
  if (!s || previewShown) return false;
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

function ensureVisible(i: number): void {
  const st = s!, vp = st.viewport, it = st.model.items;
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

function onMessage(m: HostMessage): void {
  switch (m.type) {
    case 'model': {
      perf.modelReceived = performance.now();
      const prev = s;
      const prevWasPreview = previewShown;
      previewShown = !m.complete;
      const saved = vscode.getState() as Saved | undefined;
      s = new ViewState(m.model);
      uri = m.uri;
      if (prev) {
        // An edit, or the complete model after a preview: keep what the user was looking at
        // (a preview nobody has moved yet is refitted to the whole trace).
        s.moved = prev.moved;
        if (prevWasPreview && !prev.moved) fit();
        else s.viewport.set(prev.viewport.start, prev.viewport.end, m.model);
        s.scrollY = prev.scrollY;
        for (const k of prev.collapsed) if (k < m.model.tracks.length) s.collapsed.add(k);
        s.relayout();
        s.setColourBy(prev.colourBy, theme.palette.length);
        if (prev.filter) s.setFilter(prev.filter);
      } else if (saved?.uri === m.uri && saved.view) {
        s.viewport.set(saved.view[0], saved.view[1], m.model);
        s.scrollY = saved.scrollY ?? 0;
      } else fit();
      if (!prev && m.model.colourBy) {
        const a = ATTRS.indexOf(m.model.colourBy);
        s.setColourBy(a, theme.palette.length);
        toolbar.setColourBy(a);
      }
      overlay.hidden = true;
      const bad = m.model.undrawable;
      toolbar.setStatus(`${m.complete ? '' : `Reading… first ${m.model.lineCount.toLocaleString('en-US')} lines: `}${m.model.items.start.length.toLocaleString('en-US')} items${bad ? ` · ${bad.toLocaleString('en-US')} lines not drawable` : ''}`);
      details.hidden = true;
      fileStats = m.complete ? m.model.stats : undefined;
      baseName = m.fileName.replace(/\.gz$/i, '').replace(/\.(trace\.)?jsonl$/i, '').replace(/[^\w.-]/g, '_').slice(0, 60) || 'trace';
      refreshSummary();
      if (pendingReveal && revealLines(pendingReveal)) pendingReveal = undefined;
      schedule();
      return;
    }
    case 'revealLines':
      pendingReveal = revealLines(m.lines) ? undefined : m.lines;
      return;
    case 'showSummary':
      summaryOfRange = false;
      showSummary(true);
      return;
    case 'rangeStats':
      if (!rangeStats || rangeStats.from !== m.from || rangeStats.to !== m.to) return;
      rangeStats = { from: m.from, to: m.to, stats: m.stats, message: m.message };
      fillRangeBox();
      refreshSummary();
      return;
    case 'kprofSummary':
      kprofPane.setSummary(m.summary);
      // The header facts stay in view above the timeline, not only in the status bar.
      toolbar.setStatus(`${factPairs(m.summary.facts).map(([k, v]) => `${k} ${v}`).join(' · ')} · ${(s?.model.items.start.length ?? 0).toLocaleString('en-US')} items`);
      refreshSummary();
      return;
    case 'kprofOverlap':
      kprofPane.setOverlap(m.overlap, m.message);
      refreshSummary();
      return;
    case 'kprofRange':
      if (kprofPane.setRange(m.range)) refreshSummary();
      return;
    case 'progress':
    case 'error':
      overlay.hidden = false;
      overlay.className = m.type;
      overlay.textContent = m.message;
      return;
    case 'selectLine': {
      // A line of several events (a one-line Chrome trace) is looked up by the character under the cursor.
      const i = !s ? -1 : s.model.chars && m.character !== undefined ? itemAtPosition(s.model, m.line, m.character)
        : m.line < s.index.itemOfLine.length ? s.index.itemOfLine[m.line] : -1;
      if (i >= 0 && i !== s!.selected) select(i, false, true);
      return;
    }
    case 'details':
      if (s && s.selected >= 0 && s.model.items.line[s.selected] === m.line) fillDetails(details, s, s.selected, m, (j) => select(j, true, true), (layer) => send({ type: 'showInCmdq', layer }));
      return;
    default: {
      const never: never = m;
      return never;
    }
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = parseHostMessage(e.data);
  if (!m) {
    send({ type: 'error', message: `Ignored an invalid message: ${String((e.data as { type?: unknown })?.type)}` });
    return;
  }
  try {
    onMessage(m);
  } catch (err) {
    send({ type: 'error', message: String((err as Error)?.stack ?? err) });
  }
});

attachInput(canvas, {
  state: () => s,
  schedule,
  select: (i, dbl) => {
    if (!s) return;
    if (dbl && i >= 0) {
      const it = s.model.items, pad = Math.max(4, (it.end[i] - it.start[i]) * 0.1);
      s.viewport.set(it.start[i] - pad, it.end[i] + pad, s.model);
    }
    if (i !== s.selected || dbl) select(i, i >= 0, false);
  },
  range: (r) => {
    if (!s) return;
    s.range = r;
    summary.hidden = !r;
    clearTimeout(rangeTimer);
    if (r && s.model.format === 'npu-trace') {
      // The core's metrics of the range, from the worker; asked once the drag rests (a new request cancels the old one).
      rangeStats = { from: r[0], to: r[1], stats: null, message: 'Computing the metrics of this range…' };
      rangeTimer = setTimeout(() => send({ type: 'rangeStats', from: r[0], to: r[1] }), 250);
    } else if (s.model.format === 'kprof') {
      // A profiler buffer's host answers with its regions' statistics in the range (kprofRange).
      kprofPane.askRange(r ?? undefined);
      if (r) rangeTimer = setTimeout(() => send({ type: 'rangeStats', from: r[0], to: r[1] }), 250);
      refreshSummary();
    }
    if (r) fillRangeBox();
    schedule();
  },
  fit,
  focusSearch: () => toolbar.focusSearch(),
});

/** The Shift+drag box: the page's quick counts, and the Summary's tables of the range from the worker. */
function fillRangeBox(): void {
  if (!s?.range) return;
  fillSummary(summary, s, s.range[0], s.range[1]);
  if (s.model.format === 'kprof') rangeStats = { from: s.range[0], to: s.range[1], stats: null, message: 'Region statistics of this range' };
  if ((s.model.format !== 'npu-trace' && s.model.format !== 'kprof') || !rangeStats) return;
  const line = document.createElement('div');
  line.className = 'tables';
  const b = document.createElement('button');
  b.className = 'link';
  b.textContent = rangeStats.stats ? 'Summary tables of this range' : rangeStats.message;
  b.addEventListener('click', () => {
    summaryOfRange = true;
    showSummary(true);
  });
  line.append(b);
  summary.append(line);
}

new ResizeObserver(() => schedule()).observe(canvas);
// Theme switches change the body's class: re-read the colours.
new MutationObserver(() => {
  theme = readTheme();
  if (s) s.setColourBy(s.colourBy, theme.palette.length);
  refreshSummary();
  schedule();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

send({ type: 'ready' });
