/**
 * The Summary tab beside the timeline (the file's or a range's metrics, or a kernel-profiler
 * buffer's pane) and the Shift+drag range box that leads to a range's tables.
 */
import { askBaseline } from './baselineSection';
import { rangeBox, send, summaryPane } from './dom';
import { schedule } from './frames';
import { fillSummary } from './panels';
import { session } from './session';
import { widgets } from './widgets';
import { chromeSummary, type ChromeSummary } from '../core/chrome/summary';
import type { TimelineModel } from '../core/timeline/model';
import { chromeSummaryTables } from './chromeSummaryTables';
import { formatSummaryTables } from './formatSummaryTables';
import { lengthOfTime, pointInTime } from './timeAxis';

let rangeTimer: ReturnType<typeof setTimeout> | undefined;

export function showSummary(show: boolean): void {
  const opened = show && summaryPane.hidden;
  summaryPane.hidden = !show;
  widgets.toolbar.setSummaryShown(show);
  // Each opening compares with the pinned baseline again (the host recomputes only if a file changed).
  if (opened) askBaseline();
  if (show) refreshSummary();
  else schedule();
}

export function refreshSummary(): void {
  if (summaryPane.hidden) return;
  const s = session.state, range = session.rangeStats;
  if (s?.model.format === 'kprof') {
    widgets.kprofPane.render();
    return;
  }
  if (s?.model.format === 'chrome-trace') {
    showChromeSummary(s.model, session.summaryOfRange && range ? [range.from, range.to] : undefined);
    return;
  }
  if (s?.model.summaryTables) {
    // A format's own tables, made by its builder from the whole file (NNAPI's timing summary, InferScope's analysis).
    widgets.summaryView.showTables('Summary', [['format', s.model.format]], formatSummaryTables(s.model.summaryTables));
    return;
  }
  if (session.summaryOfRange && range) {
    widgets.summaryView.show(range.stats ?? undefined, [range.from, range.to], range.message);
    return;
  }
  const note = !s ? 'Loading…' : s.model.format !== 'npu-trace' ? 'The Summary is for NPU traces, Chrome/PyTorch traces, NNAPI systraces, Perfetto traces, InferScope traces (up to 256 MB) and kernel-profiler buffers.' : session.previewShown ? 'Reading… the numbers come when the whole file is read.' : '';
  widgets.summaryView.show(session.fileStats, undefined, note);
}

/** The last Chrome summary, by model and range: the page computes it (the model is here), once per change. */
let chromeCache: { model: TimelineModel; key: string; summary: ChromeSummary } | undefined;

function showChromeSummary(model: TimelineModel, range: [number, number] | undefined): void {
  const key = range ? range.join() : '';
  if (chromeCache?.model !== model || chromeCache.key !== key) chromeCache = { model, key, summary: chromeSummary(model, range?.[0], range?.[1]) };
  const sum = chromeCache.summary;
  const b = { unit: model.unit, nsPerCycle: model.nsPerCycle, t0: model.t0 };
  const heading = range ? `Summary of ${pointInTime(b, range[0])} – ${pointInTime(b, range[1])}` : 'Summary';
  const kernelTime = sum.kernels.reduce((a, k) => a + k.total, 0);
  widgets.summaryView.showTables(heading, [
    ['span', lengthOfTime(b, sum.to - sum.from)], ['kernels', `${sum.kernels.reduce((a, k) => a + k.count, 0).toLocaleString('en-US')} · ${lengthOfTime(b, kernelTime)}`],
    ['GPU streams', String(sum.streams.length)], ['steps', String(sum.steps.length)],
  ], chromeSummaryTables(sum), range);
}

/** A Shift+drag range was drawn (or cleared): its box, and its metrics asked of the host once the drag rests. */
export function rangeChanged(r: [number, number] | undefined): void {
  const s = session.state;
  if (!s) return;
  s.range = r;
  rangeBox.hidden = !r;
  clearTimeout(rangeTimer);
  if (r && s.model.format === 'npu-trace') {
    // The core's metrics of the range, from the worker; asked once the drag rests (a new request cancels the old one).
    session.rangeStats = { from: r[0], to: r[1], stats: null, message: 'Computing the metrics of this range…' };
    rangeTimer = setTimeout(() => send({ type: 'rangeStats', from: r[0], to: r[1] }), 250);
  } else if (s.model.format === 'chrome-trace') {
    // The page computes a Chrome trace's tables itself, from the model it holds.
    session.rangeStats = r ? { from: r[0], to: r[1], stats: null, message: 'Summary tables of this range' } : undefined;
    refreshSummary();
  } else if (s.model.format === 'kprof') {
    // A profiler buffer's host answers with its regions' statistics in the range (kprofRange).
    widgets.kprofPane.askRange(r ?? undefined);
    if (r) rangeTimer = setTimeout(() => send({ type: 'rangeStats', from: r[0], to: r[1] }), 250);
    refreshSummary();
  }
  if (r) fillRangeBox();
  schedule();
}

/** The Shift+drag box: the page's quick counts, and the Summary's tables of the range from the worker. */
export function fillRangeBox(): void {
  const s = session.state;
  if (!s?.range) return;
  fillSummary(rangeBox, s, s.range[0], s.range[1]);
  if (s.model.format === 'kprof') session.rangeStats = { from: s.range[0], to: s.range[1], stats: null, message: 'Region statistics of this range' };
  const range = session.rangeStats;
  if ((s.model.format !== 'npu-trace' && s.model.format !== 'kprof' && s.model.format !== 'chrome-trace') || !range) return;
  const line = document.createElement('div');
  line.className = 'tables';
  const b = document.createElement('button');
  b.className = 'link';
  b.textContent = range.stats || s.model.format === 'chrome-trace' ? 'Summary tables of this range' : range.message;
  b.addEventListener('click', () => {
    session.summaryOfRange = true;
    showSummary(true);
  });
  line.append(b);
  rangeBox.append(line);
}
