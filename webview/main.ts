/**
 * The timeline page: receives a model from the host, draws it on a canvas, and reports selections.
 * This file wires the parts: the widgets and their handlers, the host's messages (messages.ts),
 * the canvas input (input.ts), resizes and theme switches. Every message is validated on receipt
 * (protocol/timeline.ts).
 */
// First: the time the script began to run.
import { scriptStarted } from './started';
import { ATTRS } from '../core/timeline/model';
import { parseHostMessage } from '../protocol/timeline';
import { canvas, send, summaryPane, toolbarBox } from './dom';
import { perf, schedule } from './frames';
import { attachInput } from './input';
import { baselineSection } from './baselineSection';
import { KprofPane } from './kprofPane';
import { onMessage } from './messages';
import { filterAndZoom, fit, goToFinding, pick, select } from './navigate';
import { Search } from './search';
import { session } from './session';
import { SummaryView } from './summary';
import { rangeChanged, refreshSummary, showSummary } from './summaryTab';
import { readTheme } from './theme';
import { createToolbar } from './toolbar';
import { widgets } from './widgets';

(window as unknown as { __timeline: unknown }).__timeline = { perf, state: () => session.state, redraw: () => schedule() };

const search = new Search();
/** The view's state when there is a model: what the toolbar's handlers act on. */
const shown = () => session.state;

const toolbar = createToolbar(toolbarBox, {
  fit: () => fit(),
  flows: (all) => { const s = shown(); if (s) { s.showAllFlows = all; schedule(); } },
  colourBy: (a) => { const s = shown(); if (s) { s.setColourBy(a, session.theme.palette.length); schedule(); } },
  filter: (f) => { const s = shown(); if (s) { s.setFilter(f); schedule(); } },
  valuesOf: (a) => shown()?.values(a) ?? [],
  search: (q) => { const s = shown(); if (s) { search.run(s, q); toolbar.setMatches(search.describe()); schedule(); } },
  step: (d) => { if (shown()) { const i = search.step(d); toolbar.setMatches(search.describe()); if (i >= 0) select(i, true, true); } },
  summary: (show) => showSummary(show),
  exportChromeTrace: () => send({ type: 'exportChromeTrace' }),
  exportParquet: () => send({ type: 'exportParquet' }),
  compareWith: () => send({ type: 'compareWith' }),
  pinBaseline: (pin) => send({ type: pin ? 'pinBaseline' : 'clearBaseline' }),
});

const summaryView = new SummaryView(summaryPane, () => session.theme, {
  group: (attr, value) => filterAndZoom(ATTRS.indexOf(attr), value),
  finding: (f) => goToFinding(f),
  copy: (text) => send({ type: 'copy', text }),
  save: (name, text) => send({ type: 'save', name, text }),
  wholeFile: () => {
    session.summaryOfRange = false;
    refreshSummary();
  },
}, () => session.baseName);

/** A kernel-profiler buffer's facts, statistics and overlap, in the Summary tab's place. */
const kprofPane = new KprofPane(summaryPane, summaryView, { overlap: (a, b) => send({ type: 'kprofOverlap', a, b }) });

summaryView.extra = () => baselineSection(summaryView);

Object.assign(widgets, { toolbar, summaryView, kprofPane });

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
  state: shown,
  schedule,
  select: pick,
  range: rangeChanged,
  fit,
  focusSearch: () => toolbar.focusSearch(),
});

new ResizeObserver(() => schedule()).observe(canvas);
// Theme switches change the body's class: re-read the colours.
new MutationObserver(() => {
  session.theme = readTheme();
  const s = shown();
  if (s) s.setColourBy(s.colourBy, session.theme.palette.length);
  refreshSummary();
  schedule();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

perf.scriptStarted = scriptStarted;
perf.ready = performance.now();
send({ type: 'ready' });
