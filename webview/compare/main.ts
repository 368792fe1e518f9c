/**
 * The Compare Timelines page: two runs' timelines one above the other, aligned at their starts
 * (each drawn from its own first item), zoom and pan locked together, a compared group's items
 * highlighted in both (docs/diff.md). Each run is a ViewState drawn by the timeline's own renderer
 * and driven by its own input handlers; after any input on one, the other takes the same view
 * relative to its start. Both views share one time range (the longer run's), so both clamp alike.
 */
import { escapeControl } from '../../core/common/escape';
import { groupItems } from '../../core/diff/timelineMatch';
import { parseCompareHostMessage, type ComparePageMessage, type CompareSide } from '../../protocol/diff';
import { fitCanvas } from '../canvas';
import { attachInput } from '../input';
import { render, RULER_H } from '../render';
import { ViewState } from '../state';
import { readTheme } from '../theme';

declare function acquireVsCodeApi(): { postMessage(m: ComparePageMessage): void };
const vscode = acquireVsCodeApi();
const send = (m: ComparePageMessage) => vscode.postMessage(m);
const $ = (id: string) => document.getElementById(id)!;
const overlay = $('overlay');
const info = $('info');
const fontFamily = getComputedStyle(document.body).fontFamily || 'sans-serif';
let theme = readTheme();

interface Side {
  canvas: HTMLCanvasElement;
  g: CanvasRenderingContext2D;
  label: HTMLElement;
  state: ViewState | undefined;
  /** The run's first time: the views are locked relative to it. */
  t0: number;
  /** Items of the group highlighted. */
  marked: number;
}

const side = (k: 'A' | 'B'): Side => {
  const canvas = $(`canvas${k}`) as HTMLCanvasElement;
  return { canvas, g: canvas.getContext('2d', { alpha: false })!, label: $(`label${k}`), state: undefined, t0: 0, marked: 0 };
};
const sides = [side('A'), side('B')] as const;

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
    }
  });
}

/** After input on `from`, the other run shows the same span from its own start. */
function lock(from: Side): void {
  const f = from.state;
  if (!f) return;
  for (const s of sides) {
    if (s === from || !s.state) continue;
    s.state.viewport.start = s.t0 + (f.viewport.start - from.t0);
    s.state.viewport.end = s.t0 + (f.viewport.end - from.t0);
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
}

function show(a: CompareSide, b: CompareSide, group: { kind: string; key: string }, match: Parameters<typeof groupItems>[1] | null): void {
  // One time range for both, from each run's start: the longer run's span.
  const span = Math.max(a.model.t1 - a.model.t0, b.model.t1 - b.model.t0);
  [a, b].forEach((run, k) => {
    const s = sides[k];
    const st = new ViewState({ ...run.model, t1: run.model.t0 + span });
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
  info.textContent = `${escapeControl(group.kind)} ${escapeControl(group.key)}: both runs from their starts; zoom and pan are locked (wheel zooms, drag pans, F fits).`;
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
    if (m.type === 'models') show(m.a, m.b, m.group, m.match);
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

(window as unknown as { __compare: unknown }).__compare = { sides: () => sides.map((s) => ({ state: s.state, t0: s.t0, marked: s.marked })), redraw: () => schedule() };
send({ type: 'ready' });
