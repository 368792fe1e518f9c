/**
 * What the timeline page does with each message of the host, one handler per kind. Every message
 * is validated before it gets here (protocol/timeline.ts).
 */
import { ATTRS, attrNamesOf } from '../core/timeline/model';
import { itemAtPosition } from '../core/timeline/sourcePosition';
import type { HostMessage } from '../protocol/timeline';
import { details, overlay, send, vscode, type Saved } from './dom';
import { perf, schedule } from './frames';
import { factPairs } from './kprofTables';
import { fit, revealLines, select } from './navigate';
import { fillDetails } from './panels';
import { session } from './session';
import { ViewState } from './state';
import { fillRangeBox, refreshSummary, showSummary } from './summaryTab';
import { askBaseline } from './baselineSection';
import { widgets } from './widgets';

type Of<K extends HostMessage['type']> = Extract<HostMessage, { type: K }>;

/** A new model (the first, an edit's, or the complete one after a preview): shown in the view the user had. */
function onModel(m: Of<'model'>): void {
  perf.modelReceived = performance.now();
  if (m.timing) perf.host = m.timing;
  const prev = session.state;
  const prevWasPreview = session.previewShown;
  session.previewShown = !m.complete;
  const s = session.state = new ViewState(m.model);
  widgets.toolbar.setAttrNames(attrNamesOf(m.model));
  widgets.toolbar.setFlows((m.model.links?.from.length ?? 0) > 0, prev?.showAllFlows ?? false);
  session.uri = m.uri;
  if (prev) keepView(s, prev, prevWasPreview);
  else {
    const saved = vscode.getState() as Saved | undefined;
    if (saved?.uri === m.uri && saved.view) {
      s.viewport.set(saved.view[0], saved.view[1], m.model);
      s.scrollY = saved.scrollY ?? 0;
    } else fit();
    if (m.model.colourBy) {
      const a = ATTRS.indexOf(m.model.colourBy);
      s.setColourBy(a, session.theme.palette.length);
      widgets.toolbar.setColourBy(a);
    }
  }
  overlay.hidden = true;
  const bad = m.model.undrawable;
  widgets.toolbar.setStatus(`${m.complete ? '' : `Reading… first ${m.model.lineCount.toLocaleString('en-US')} lines: `}${m.model.items.start.length.toLocaleString('en-US')} items${bad ? ` · ${bad.toLocaleString('en-US')} lines not drawable` : ''}`);
  details.hidden = true;
  session.fileStats = m.complete ? m.model.stats : undefined;
  session.baseName = m.fileName.replace(/\.gz$/i, '').replace(/\.(trace\.)?jsonl$/i, '').replace(/[^\w.-]/g, '_').slice(0, 60) || 'trace';
  // A new complete model (the file reloaded or edited) while the Summary is open: compare it again.
  if (m.complete) askBaseline();
  refreshSummary();
  if (session.pendingReveal && revealLines(session.pendingReveal)) session.pendingReveal = undefined;
  schedule();
}

/**
 * An edit, or the complete model after a preview: keep what the user was looking at (a preview
 * nobody has moved yet is refitted to the whole trace).
 */
function keepView(s: ViewState, prev: ViewState, prevWasPreview: boolean): void {
  s.moved = prev.moved;
  s.showAllFlows = prev.showAllFlows;
  if (prevWasPreview && !prev.moved) fit();
  else s.viewport.set(prev.viewport.start, prev.viewport.end, s.model);
  s.scrollY = prev.scrollY;
  for (const k of prev.collapsed) if (k < s.model.tracks.length) s.collapsed.add(k);
  s.relayout();
  s.setColourBy(prev.colourBy, session.theme.palette.length);
  if (prev.filter) s.setFilter(prev.filter);
}

function onProgressOrError(m: Of<'progress' | 'error'>): void {
  overlay.hidden = false;
  overlay.className = m.type;
  overlay.textContent = m.message;
}

const handlers: { [K in HostMessage['type']]: (m: Of<K>) => void } = {
  model: onModel,
  revealLines: (m) => {
    session.pendingReveal = revealLines(m.lines) ? undefined : m.lines;
  },
  showSummary: () => {
    session.summaryOfRange = false;
    showSummary(true);
  },
  rangeStats: (m) => {
    const asked = session.rangeStats;
    if (!asked || asked.from !== m.from || asked.to !== m.to) return;
    session.rangeStats = { from: m.from, to: m.to, stats: m.stats, message: m.message };
    fillRangeBox();
    refreshSummary();
  },
  kprofSummary: (m) => {
    widgets.kprofPane.setSummary(m.summary);
    // The header facts stay in view above the timeline, not only in the status bar.
    widgets.toolbar.setStatus(`${factPairs(m.summary.facts).map(([k, v]) => `${k} ${v}`).join(' · ')} · ${(session.state?.model.items.start.length ?? 0).toLocaleString('en-US')} items`);
    refreshSummary();
  },
  kprofOverlap: (m) => {
    widgets.kprofPane.setOverlap(m.overlap, m.message);
    refreshSummary();
  },
  kprofRange: (m) => {
    if (widgets.kprofPane.setRange(m.range)) refreshSummary();
  },
  progress: onProgressOrError,
  error: onProgressOrError,
  selectLine: (m) => {
    const s = session.state;
    // A line of several events (a one-line Chrome trace) is looked up by the character under the cursor.
    const i = !s ? -1 : s.model.chars && m.character !== undefined ? itemAtPosition(s.model, m.line, m.character)
      : m.line < s.index.itemOfLine.length ? s.index.itemOfLine[m.line] : -1;
    if (i >= 0 && i !== s!.selected) select(i, false, true);
  },
  baselinePinned: (m) => {
    const was = session.pinned;
    session.pinned = m;
    widgets.toolbar.setBaseline(m.name, m.self);
    if (was?.name === m.name && was.self === m.self) return;
    session.baseline = undefined;
    askBaseline();
    refreshSummary();
  },
  baselineDiff: (m) => {
    // An answer about another baseline than the one pinned now is stale (a pin changed meanwhile).
    if (session.baseline !== 'asked' || m.name !== session.pinned?.name) return;
    session.baseline = m;
    refreshSummary();
  },
  details: (m) => {
    const s = session.state;
    if (s && s.selected >= 0 && s.model.items.line[s.selected] === m.line) fillDetails(details, s, s.selected, m, (j) => select(j, true, true), (layer) => send({ type: 'showInCmdq', layer }));
  },
};

export function onMessage(m: HostMessage): void {
  (handlers[m.type] as (m: HostMessage) => void)(m);
}
