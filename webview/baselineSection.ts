/**
 * The Summary's "vs baseline" section: the comparison of the file shown with the baseline pinned
 * for its format, asked of the host each time the Summary opens (the host compares both files from
 * disk in its comparison worker, and answers from its cache while neither changed). Every value
 * from a file is set as text, never as HTML.
 */
import { escapeControl } from '../core/common/escape';
import { send, summaryPane } from './dom';
import { baselineGroupTable, baselineHeadline, baselineMetricTable } from './baselineTables';
import { session } from './session';
import type { SummaryView } from './summary';

/** Rows of the groups table drawn at first (the biggest changes lead); *Show more* draws more. */
const FIRST_ROWS = 25;

/** Whether the Summary of this file has a baseline to be compared with. */
const comparable = () => !!session.pinned?.name && !session.pinned.self;

/** Asks the host for the comparison when the whole file's Summary is shown and a baseline (not this file) is pinned. */
export function askBaseline(): void {
  if (summaryPane.hidden || !comparable() || !session.state) return;
  session.baseline = 'asked';
  send({ type: 'baseline' });
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The section, or nothing when no baseline is pinned for the format. */
export function baselineSection(view: SummaryView): HTMLElement | undefined {
  const pinned = session.pinned;
  if (!pinned?.name) return undefined;
  if (pinned.self) return el('p', 'sum-baseline muted', `This file is the pinned baseline: the Summary of every other run of its format shows its deltas against it.`);
  const box = el('details', 'sum-baseline');
  box.open = true;
  const head = el('summary');
  head.append(el('h3', undefined, `vs baseline ${escapeControl(pinned.name)}`));
  box.append(head);
  const b = session.baseline;
  if (b === undefined || b === 'asked') {
    box.append(el('p', 'muted', 'Comparing with the baseline…'));
    return box;
  }
  if (!b.diff) {
    box.append(el('p', 'error', b.message));
    return box;
  }
  const d = b.diff;
  head.append(' ', el('span', 'muted', baselineHeadline(d)));
  box.append(view.table(baselineGroupTable(d, b.attrs), undefined, FIRST_ROWS));
  if (d.metrics.length) box.append(view.table(baselineMetricTable(d)));
  box.append(el('p', 'muted', `Baseline ${escapeControl(d.a.file)} (A) → this run ${escapeControl(d.b.file)} (B), both as saved on disk. Test: ${d.test.name}; ${d.test.correction}, α = ${d.test.alpha}; reported: significant and the mean moved ≥ ${100 * d.test.min_effect}%.`));
  return box;
}
