/**
 * The Compare Timelines page: two runs' timelines one above the other, aligned at their starts or
 * at a marker both have (the first command of a layer, a step …: the format's `diff.markers`,
 * core/diff/markers.ts), zoom and pan locked together, a compared group's items highlighted in both
 * (docs/diff.md). Each run is a ViewState drawn by the timeline's own renderer and driven by its
 * own input handlers; after any input on one, the other takes the same view relative to its anchor
 * (its start or its marker). Both views share one time range relative to the anchors (from the
 * earliest start to the latest end of either), so both clamp alike.
 */
import { escapeControl } from '../../core/common/escape';
import { groupMarker, lockedView, pairMarkers, sharedRange, timelineMarkers, MAX_MARKERS, type MarkerPair } from '../../core/diff/markers';
import { groupItems } from '../../core/diff/timelineMatch';
import type { MarkerSpec } from '../../core/diff/types';
import { parseCompareHostMessage, type ComparePageMessage, type CompareSide } from '../../protocol/diff';
import { fitCanvas } from '../canvas';
import { attachInput } from '../input';
import { HEADER_W } from '../layout';
import { render, RULER_H } from '../render';
import { ViewState } from '../state';
import { readTheme } from '../theme';

declare function acquireVsCodeApi(): { postMessage(m: ComparePageMessage): void };
const vscode = acquireVsCodeApi();
const send = (m: ComparePageMessage) => vscode.postMessage(m);
const $ = (id: string) => document.getElementById(id)!;
const overlay = $('overlay');
const info = $('info');
const alignSelect = $('align') as HTMLSelectElement;
const fontFamily = getComputedStyle(document.body).fontFamily || 'sans-serif';
let theme = readTheme();

interface Side {
  canvas: HTMLCanvasElement;
  g: CanvasRenderingContext2D;
  label: HTMLElement;
  state: ViewState | undefined;
  /** The run's own time range (the state's model is given the range both views share). */
  start: number;
  end: number;
  /** The run's anchor, its start or the marker aligned at: the views are locked relative to it. */
  t0: number;
  /** Items of the group highlighted. */
  marked: number;
}

const side = (k: 'A' | 'B'): Side => {
  const canvas = $(`canvas${k}`) as HTMLCanvasElement;
  return { canvas, g: canvas.getContext('2d', { alpha: false })!, label: $(`label${k}`), state: undefined, start: 0, end: 0, t0: 0, marked: 0 };
};
const sides = [side('A'), side('B')] as const;

/** The markers both runs offer, matched (A's order), and the one aligned at (-1: the starts). */
let pairs: MarkerPair[] = [];
let aligned = -1;
/** What the panel shows: the group clicked, and what its labels say besides. */
let shown: { kind: string; key: string; clicked: number; listed: boolean } | undefined;

let pending = false;
function schedule(): void {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    for (const s of sides) {
      if (!s.state) continue;
      const { w, h } = fitCanvas(s.canvas, s.g);
      s.state.scrollY = Math.max(0, Math.min(s.state.scrollY, s.state.contentHeight - (h - RULER_H) + 20));
      render(s.g, s.state, theme, w, h, fontFamily);
      if (aligned >= 0) markerLine(s, w, h);
    }
  });
}

/** The marker aligned at: a vertical line at the same x in both views. */
function markerLine(s: Side, w: number, h: number): void {
  const vp = s.state!.viewport;
  const x = HEADER_W + Math.round(vp.x(s.t0));
  if (x < HEADER_W || x > w) return;
  s.g.fillStyle = theme.focus;
  s.g.fillRect(x, 0, 2, h);
}

/** After input on `from`, the other run shows the same span from its own anchor. */
function lock(from: Side): void {
  const f = from.state;
  if (!f) return;
  for (const s of sides) {
    if (s === from || !s.state) continue;
    const v = lockedView(f.viewport, from.t0, s.t0);
    s.state.viewport.start = v.start;
    s.state.viewport.end = v.end;
    s.state.viewport.width = f.viewport.width;
  }
}

function fit(): void {
  for (const s of sides) if (s.state) s.state.viewport.set(s.state.model.t0, s.state.model.t1, s.state.model);
  schedule();
}

for (const s of sides) {
  attachInput(s.canvas, {
    state: () => s.state,
    schedule: () => {
      lock(s);
      schedule();
    },
    select: (i) => {
      if (!s.state) return;
      s.state.selected = i;
      schedule();
    },
    range: (r) => {
      if (s.state) s.state.range = r;
    },
    fit,
    focusSearch: () => undefined,
  });
  new ResizeObserver(() => schedule()).observe(s.canvas);
  s.canvas.addEventListener('keydown', (e) => {
    if (e.key.toLowerCase() !== 'm' || e.ctrlKey || e.metaKey || e.altKey || alignSelect.disabled) return;
    e.preventDefault();
    alignSelect.focus();
  });
}

/**
 * Aligns both runs at pair `k` (-1: their starts): each run's anchor is its time of the marker, both
 * views get the range they share relative to their anchors, and A keeps its zoom, moved only to
 * bring the marker into view; B follows A.
 */
function alignAt(k: number): void {
  const p = k >= 0 ? pairs[k] : undefined;
  if (p && (p.a === null || p.b === null)) return;
  aligned = p ? k : -1;
  const anchors = p ? [p.a!, p.b!] : sides.map((s) => s.start);
  const { lo, hi } = sharedRange(sides.map((s, i) => ({ t0: s.start, t1: s.end, anchor: anchors[i] })));
  const [a] = sides;
  const span = a.state ? a.state.viewport.end - a.state.viewport.start : hi - lo;
  const offset = a.state ? a.state.viewport.start - a.t0 : lo;
  sides.forEach((s, i) => {
    if (!s.state) return;
    s.t0 = anchors[i];
    // The state's model is this page's own copy: its range is the bounds every input clamps to.
    s.state.model.t0 = s.t0 + lo;
    s.state.model.t1 = s.t0 + hi;
    s.state.axis = { t0: s.t0, from: p ? 'marker' : 'start' };
  });
  if (a.state) {
    // Kept where it was relative to the anchor when the marker is in view there, else a quarter in.
    const rel = p && !(offset <= 0 && 0 <= offset + span) ? -span / 4 : offset;
    a.state.viewport.set(a.t0 + rel, a.t0 + rel + span, a.state.model);
    lock(a);
  }
  alignSelect.value = p ? String(k) : '';
  describe();
  schedule();
}

/** The line above the views: what is aligned and how to move. */
function describe(): void {
  if (!shown) return;
  const p = aligned >= 0 ? pairs[aligned] : undefined;
  const name = `${escapeControl(shown.kind)} ${escapeControl(shown.key)}`;
  const at = p ? `aligned at ${escapeControl(p.name)}${aligned === shown.clicked ? ', where this group starts in each run' : ''} (the vertical line)`
    : shown.listed && shown.clicked < 0 ? `both runs from their starts (${name} is not in both runs to align at)` : 'both runs from their starts';
  info.textContent = `${name}: ${at}; zoom and pan are locked (wheel zooms, drag pans, F fits, M picks where to align).`;
  // The line is cut to the panel's width: whole on hover.
  info.title = info.textContent;
}

/** The Align at list: Starts, then each list's markers, those one run lacks listed but disabled. */
function fillAlign(specs: readonly MarkerSpec[], capped: boolean): void {
  alignSelect.replaceChildren();
  const starts = document.createElement('option');
  starts.value = '';
  starts.textContent = 'Starts';
  alignSelect.append(starts);
  specs.forEach((spec, list) => {
    const group = document.createElement('optgroup');
    // Text only: labels and keys come from the files.
    group.label = escapeControl(spec.label);
    pairs.forEach((p, k) => {
      if (p.list !== list) return;
      const o = document.createElement('option');
      o.value = String(k);
      const missing = p.a === null ? ' (not in A)' : p.b === null ? ' (not in B)' : '';
      o.textContent = `${escapeControl(p.name)}${missing}`;
      o.disabled = missing !== '';
      group.append(o);
    });
    if (group.childElementCount) alignSelect.append(group);
  });
  if (capped) {
    const o = document.createElement('option');
    o.disabled = true;
    o.textContent = `(more markers left out: at most ${MAX_MARKERS} per run)`;
    alignSelect.append(o);
  }
  alignSelect.disabled = pairs.length === 0;
}

alignSelect.addEventListener('change', () => {
  alignAt(alignSelect.value === '' ? -1 : Number(alignSelect.value));
});

function show(a: CompareSide, b: CompareSide, group: { kind: string; key: string }, match: Parameters<typeof groupItems>[1] | null, specs: readonly MarkerSpec[]): void {
  const found = [a, b].map((run) => timelineMarkers(run.model, specs));
  pairs = pairMarkers(specs, found[0].markers, found[1].markers);
  // A layer, phase or step clicked: aligned at its first item, when both runs have it.
  const initial = groupMarker(specs, pairs, group);
  [a, b].forEach((run, k) => {
    const s = sides[k];
    // The page's own copy of the model's fields: alignAt sets its range to the one both views share.
    const st = new ViewState({ ...run.model });
    s.start = run.model.t0;
    s.end = run.model.t1;
    s.t0 = run.model.t0;
    s.marked = 0;
    if (match) {
      const found = groupItems(run.model, match, group.key);
      st.highlight = found.marks;
      s.marked = found.count;
    }
    s.state = st;
    // Text only: names come from the files.
    const name = `${escapeControl(group.kind)} ${escapeControl(group.key)}`;
    s.label.textContent = `${k ? 'B' : 'A'}: ${escapeControl(run.fileName)} — ${match ? `${s.marked} item${s.marked === 1 ? '' : 's'} of ${name}` : `${name} (not marked: this format does not say which items it holds)`}`;
  });
  shown = { ...group, clicked: initial, listed: specs.some((x) => x.group === group.kind) };
  fillAlign(specs, found.some((f) => f.capped));
  aligned = -1;
  alignAt(initial);
  overlay.hidden = true;
  fit();
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = parseCompareHostMessage(e.data);
  if (!m) {
    send({ type: 'error', message: `Ignored an invalid message: ${String((e.data as { type?: unknown })?.type)}` });
    return;
  }
  try {
    if (m.type === 'models') show(m.a, m.b, m.group, m.match, m.markers);
    else {
      overlay.hidden = false;
      overlay.textContent = m.message;
      overlay.classList.toggle('error', m.type === 'error');
    }
  } catch (err) {
    send({ type: 'error', message: String((err as Error)?.stack ?? err) });
  }
});

new MutationObserver(() => {
  theme = readTheme();
  schedule();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// What tests read and drive: each view, its anchor (`t0`) and run range; the markers offered and the one aligned at.
(window as unknown as { __compare: unknown }).__compare = {
  sides: () => sides.map((s) => ({ state: s.state, t0: s.t0, start: s.start, end: s.end, marked: s.marked })),
  markers: () => ({ pairs, aligned }),
  redraw: () => schedule(),
};
send({ type: 'ready' });
