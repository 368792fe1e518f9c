/**
 * The Diff view: the comparison of two runs as a table of groups (kind, key, count/total/mean/p50/
 * p95 in A and B, Δ, relative Δ, adjusted p, significant) with bars, in core/diff/rows.ts's order;
 * a selector of the kinds the format groups by; a click (or Enter) on a group asks the host for
 * both timelines. Every value from the files is set as text, never as HTML.
 */
import { escapeControl } from '../../core/common/escape';
import { diffRows } from '../../core/diff/rows';
import type { DiffResult, GroupDiff } from '../../core/diff/types';
import { parseDiffHostMessage, type DiffPageMessage } from '../../protocol/diff';

declare function acquireVsCodeApi(): { postMessage(m: DiffPageMessage): void };
const vscode = acquireVsCodeApi();
const send = (m: DiffPageMessage) => vscode.postMessage(m);
const $ = (id: string) => document.getElementById(id)!;
const status = $('status');
const info = $('info');
const by = $('by') as HTMLSelectElement;
const table = $('groups') as HTMLTableElement;
const metricsBox = $('metrics');
const testBox = $('test');

/** Rows past this many are not put in the page (pick a kind to see its groups). */
const MAX_ROWS = 2000;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const num = (x: number | null, digits = 0) => (x === null ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: digits }));
const pct = (x: number | null) => (x === null ? '–' : `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);
const signed = (x: number) => `${x > 0 ? '+' : ''}${num(x)}`;

function bar(fraction: number, cls: string): HTMLElement {
  const outer = el('span', 'bar');
  const inner = el('span', `fill ${cls}`);
  inner.style.width = `${(100 * fraction).toFixed(1)}%`;
  outer.append(inner);
  return outer;
}

const HEADERS: [string, string][] = [
  ['kind', ''], ['group', ''], ['count A', 'num'], ['count B', 'num'], ['total A / B', ''], ['total A', 'num'], ['total B', 'num'],
  ['mean A', 'num'], ['mean B', 'num'], ['p50 A', 'num'], ['p50 B', 'num'], ['p95 A', 'num'], ['p95 B', 'num'],
  ['Δ', ''], ['Δ total', 'num'], ['Δ total %', 'num'], ['Δ mean %', 'num'], ['p (adj.)', 'num'], ['significant', ''],
];

function row(g: GroupDiff, bars: { deltaBar: number; aBar: number; bBar: number }): HTMLTableRowElement {
  const tr = el('tr', g.reported ? (g.delta.total > 0 ? 'reported slower' : 'reported faster') : g.significant ? 'significant' : '');
  tr.tabIndex = 0;
  tr.title = 'Open both timelines with this group highlighted';
  const cell = (text: string, cls = '') => tr.append(el('td', cls, text));
  // Names from the files: as text, controls and bidi overrides shown as escapes.
  cell(escapeControl(g.kind));
  cell(escapeControl(g.key), 'key');
  cell(num(g.a.count), 'num');
  cell(num(g.b.count), 'num');
  const totals = el('td', 'bars');
  totals.append(bar(bars.aBar, 'a'), bar(bars.bBar, 'b'));
  tr.append(totals);
  cell(num(g.a.total), 'num');
  cell(num(g.b.total), 'num');
  cell(num(g.a.mean, 1), 'num');
  cell(num(g.b.mean, 1), 'num');
  cell(num(g.a.p50), 'num');
  cell(num(g.b.p50), 'num');
  cell(num(g.a.p95), 'num');
  cell(num(g.b.p95), 'num');
  const delta = el('td', 'bars');
  delta.append(bar(bars.deltaBar, g.delta.total > 0 ? 'slower' : 'faster'));
  tr.append(delta);
  cell(signed(g.delta.total), 'num');
  cell(pct(g.rel.total), 'num');
  cell(pct(g.rel.mean), 'num');
  cell(g.p_value === null ? '–' : g.p_value.toPrecision(2), 'num');
  cell(g.reported ? 'yes (reported)' : g.significant ? 'yes (under 5% of the mean)' : 'no');
  const open = () => send({ type: 'open', kind: g.kind, key: g.key });
  tr.addEventListener('click', open);
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  });
  return tr;
}

function showResult(kinds: string[], chosen: string, r: DiffResult, notes: string[]): void {
  status.textContent = '';
  status.classList.remove('error');
  if (by.options.length !== kinds.length + 1) {
    by.replaceChildren(el('option', '', 'every kind'), ...kinds.map((k) => el('option', '', k)));
    by.options[0].value = '';
    kinds.forEach((k, i) => (by.options[i + 1].value = k));
  }
  by.value = chosen;
  const span = (s: number | null) => (s === null ? 'no items' : `span ${num(s)} ${r.a.unit}`);
  info.textContent = `A: ${escapeControl(r.a.file)} (${span(r.a.span)}) → B: ${escapeControl(r.b.file)} (${span(r.b.span)}); span ${r.run.span_delta === null ? '–' : `${signed(r.run.span_delta)} (${pct(r.run.span_rel)})`}`;
  const rows = diffRows(r);
  const head = el('thead');
  const hr = el('tr');
  for (const [h, cls] of HEADERS) hr.append(el('th', cls, h));
  head.append(hr);
  const body = el('tbody');
  for (const x of rows.slice(0, MAX_ROWS)) body.append(row(x.group, x));
  table.replaceChildren(head, body);
  const reported = rows.filter((x) => x.group.reported);
  const more = rows.length > MAX_ROWS ? ` ${rows.length - MAX_ROWS} more groups not shown: pick a kind.` : '';
  testBox.textContent = `${rows.length} groups, ${reported.length} reported (significant and the mean moved ≥ ${100 * r.test.min_effect}%). Test: ${r.test.name}; ${r.test.correction}, α = ${r.test.alpha}.${more}${notes.length ? ` Notes: ${escapeControl(notes.join('; '))}` : ''}`;
  metricsBox.replaceChildren();
  if (r.metrics.length) {
    const t = el('table');
    const h = el('tr');
    for (const c of ['run-level figure', 'A', 'B', 'Δ', 'Δ %']) h.append(el('th', '', c));
    t.append(h);
    for (const m of r.metrics) {
      const tr = el('tr');
      const d = m.unit === 'ratio' ? 4 : 3;
      for (const [text, cls] of [[escapeControl(`${m.key} (${m.unit})`), ''], [num(m.a, d), 'num'], [num(m.b, d), 'num'], [m.delta === null ? '–' : num(m.delta, d), 'num'], [pct(m.rel), 'num']]) tr.append(el('td', cls, text));
      t.append(tr);
    }
    metricsBox.append(t);
  }
}

by.addEventListener('change', () => send({ type: 'by', kind: by.value }));

window.addEventListener('message', (e: MessageEvent) => {
  const m = parseDiffHostMessage(e.data);
  if (!m) {
    send({ type: 'error', message: `Ignored an invalid message: ${String((e.data as { type?: unknown })?.type)}` });
    return;
  }
  try {
    if (m.type === 'result') showResult(m.kinds, m.by, m.result, m.notes);
    else {
      status.textContent = m.message;
      status.classList.toggle('error', m.type === 'error');
    }
  } catch (err) {
    send({ type: 'error', message: String((err as Error)?.stack ?? err) });
  }
});

send({ type: 'ready' });
