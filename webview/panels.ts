/**
 * Tooltip, details pane and range summary. Every trace string is set with textContent, never as
 * HTML, so a field holding markup shows as text.
 */
import { attrNamesOf, FLAG, KIND, KIND_NAMES, NO_LINE } from '../core/timeline/model';
import { argRows, argsOf } from '../core/timeline/itemArgs';
import { formatCycles, itemLabel } from './render';
import { lengthOfTime, pointInTime } from './timeAxis';
import { flowPartners, MAX_SELECTED_ARROWS } from './flows';
import { linkedItems, summarizeRange } from './query';
import type { ViewState } from './state';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function time(s: ViewState, t: number): string {
  return pointInTime(s.model, t);
}

export function flagText(f: number): string[] {
  const out: string[] = [];
  if (f & FLAG.unmatchedStart) out.push('no END: runs to the end of the trace');
  if (f & FLAG.unmatchedEnd) out.push('END without START');
  if (f & FLAG.endBeforeStart) out.push('END before START');
  if (f & FLAG.failed) out.push('reports a failure');
  if (f & FLAG.invalid) out.push('line has errors');
  return out;
}

/** The facts of one item the page knows without asking the host. */
function facts(s: ViewState, i: number): [string, string][] {
  const it = s.model.items;
  // InferScope items borrow NPU kinds for their colours (a kernel is drawn as a TE span): their own
  // kind is their event type, the phase attribute; a scope has none.
  const kind = s.model.format === 'inferscope' ? s.index.attr(i, 0) || 'scope' : KIND_NAMES[it.kind[i]] ?? '?';
  const rows: [string, string][] = [['kind', kind]];
  if (it.flags[i] & FLAG.instant) rows.push(['time', time(s, it.start[i])]);
  else rows.push(['start', time(s, it.start[i])], ['end', time(s, it.end[i])], ['duration', lengthOfTime(s.model, it.end[i] - it.start[i])]);
  if (it.bytes[i]) rows.push(['bytes', formatCycles(it.bytes[i])]);
  // Each format names its own fields (an NNAPI systrace's process is its pid, not a tenant).
  attrNamesOf(s.model).forEach((a, k) => {
    const v = a ? s.index.attr(i, k) : '';
    if (v) rows.push([a, v]);
  });
  const problems = flagText(it.flags[i]);
  if (problems.length) rows.push(['problem', problems.join('; ')]);
  // A profiler buffer has no lines: its items point at the slots of their records, 0-based as in its records' fields.
  const base = s.model.format === 'kprof' ? 0 : 1;
  const ch = s.model.chars;
  // A protobuf trace has no lines either: its items point at the byte offsets of their packets (ftrace events).
  if (s.model.format === 'perfetto' && ch) rows.push(['byte offset', String(ch.char[i]) + (it.endLine[i] !== NO_LINE ? ` → ${ch.endChar[i]}` : '')]);
  else rows.push([base ? 'line' : 'slot', String(it.line[i] + base) + (it.endLine[i] !== NO_LINE ? ` → ${it.endLine[i] + base}` : '')]);
  return rows;
}

function table(rows: [string, string][]): HTMLTableElement {
  const t = el('table');
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.append(el('th', undefined, k), el('td', undefined, v));
    t.append(tr);
  }
  return t;
}

export function fillTooltip(tip: HTMLElement, s: ViewState, i: number): void {
  tip.replaceChildren(el('div', 'title', itemLabel(s, i)), table(facts(s, i)));
}

/** The `layer_id` of a line's fields (raw JSON values) as the trace metrics name it, or undefined. */
export function layerOf(fields: readonly [string, string][]): string | undefined {
  const raw = fields.find(([k]) => k === 'layer_id')?.[1];
  if (raw === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? String(v) : undefined;
  } catch {
    return undefined;
  }
}

export function fillDetails(pane: HTMLElement, s: ViewState, i: number, host: { fields: [string, string][]; endFields: [string, string][] } | undefined, select: (i: number) => void, showInCmdq?: (layer: string) => void): void {
  const close = el('button', 'link close', '×');
  close.title = 'Close details (Esc)';
  close.setAttribute('aria-label', 'Close details');
  close.addEventListener('click', () => select(-1));
  const parts: HTMLElement[] = [close, el('h2', undefined, itemLabel(s, i)), table(facts(s, i))];
  // Arguments the model carries (a Perfetto track event's debug annotations, names resolved).
  const args = argsOf(s.model, i);
  if (args !== undefined) parts.push(el('h3', undefined, 'Arguments'), table(argRows(args)));
  if (host) {
    parts.push(el('h3', undefined, 'Fields'), table(host.fields));
    const layer = showInCmdq ? layerOf(host.fields) : undefined;
    if (layer !== undefined) {
      const b = el('button', 'link', 'Show in CMDQ');
      b.title = 'Reveal the first entry of this layer in an open CMDQ (npuTrace.cmdq.layerMap applies)';
      b.addEventListener('click', () => showInCmdq!(layer));
      parts.push(b);
    }
    if (host.endFields.length) parts.push(el('h3', undefined, 'End fields'), table(host.endFields));
  } else parts.push(el('p', 'muted', 'Loading fields…'));
  const linked = linkedItems(s.index, i, { command: KIND.command, job: KIND.job, transfer: [KIND.dma, KIND.dram, KIND.noc] });
  const flows = flowPartners(s.model, i);
  for (const [title, list, cap] of [
    ['Command', linked.command, 50], ['Jobs', linked.jobs, 50], ['Transfers', linked.transfers, 50],
    ['Flow from', flows.from, MAX_SELECTED_ARROWS], ['Flow to', flows.to, MAX_SELECTED_ARROWS],
  ] as const) {
    if (!list.length) continue;
    parts.push(el('h3', undefined, `${title} (${list.length}${list.length >= cap ? '+' : ''})`));
    const ul = el('ul', 'linked');
    for (const j of list) {
      const b = el('button', 'link', `${itemLabel(s, j)} @ ${time(s, s.model.items.start[j])}`);
      b.addEventListener('click', () => select(j));
      const li = el('li');
      li.append(b);
      ul.append(li);
    }
    parts.push(ul);
  }
  pane.replaceChildren(...parts);
}

export function fillSummary(box: HTMLElement, s: ViewState, a: number, b: number): void {
  const sum = summarizeRange(s.index, a, b, (i) => s.passes(i));
  const rows: [string, string][] = [
    ['range', `${time(s, a)} – ${time(s, b)}`],
    ['length', lengthOfTime(s.model, b - a)],
    ['events', formatCycles(sum.events)],
  ];
  const path = (k: number): string => {
    const t = s.model.tracks[k];
    return t.parent >= 0 ? `${path(t.parent)} › ${t.name}` : t.name;
  };
  for (const t of sum.tracks) {
    const bytes = t.bytes ? `, ${formatCycles(t.bytes)} B` : '';
    rows.push([path(t.track), `${(t.busy * 100).toFixed(1)}% busy${bytes}`]);
  }
  box.replaceChildren(el('div', 'title', 'Selected range'), table(rows));
}
