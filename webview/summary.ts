/**
 * The Summary tab: the trace metrics as sortable tables with bars, Copy as CSV and Save as CSV or
 * JSON per table. Every value from the trace is set as textContent, never as HTML.
 */
import { KIND, type AttrName } from '../core/timeline/model';
import type { Finding, TraceStats } from '../core/trace/metrics/types';
import { toCsv } from './csv';
import { formatCell, sortOrder, summaryTables, type BarPart, type SummaryTable } from './summaryTables';
import type { Theme } from './theme';

export interface SummaryHandlers {
  /** A phase or layer row was clicked: filter the timeline by it and zoom to it. */
  group(attr: AttrName, value: string): void;
  finding(f: Finding): void;
  copy(text: string): void;
  save(name: string, text: string): void;
  /** Leave the range's tables for the whole file's. */
  wholeFile(): void;
}

/** Rows drawn per table: 10 000 phases would be 100 000 cells; Copy and Save have every row. */
export const MAX_SHOWN_ROWS = 500;

const ENGINE_KIND = { te: KIND.te, ve: KIND.ve, dma: KIND.dma, conflict: KIND.sramConflict } as const;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(text: string, cls: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = el('button', cls, text);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

export class SummaryView {
  /** Sort per table id: column and direction, kept across models. */
  private readonly sorts = new Map<string, { col: number; dir: 1 | -1 }>();
  private stats: TraceStats | undefined;
  private range: [number, number] | undefined;
  private note = '';
  /** A section drawn under the facts of a whole file's Summary (the comparison with the pinned baseline), if any. */
  extra: (() => HTMLElement | undefined) | undefined;

  constructor(private readonly host: HTMLElement, private readonly theme: () => Theme, private readonly h: SummaryHandlers, private readonly base: () => string) {}

  /** Shows `stats` (of the range when given), or `note` while there are none. */
  show(stats: TraceStats | undefined, range: [number, number] | undefined, note = ''): void {
    this.stats = stats;
    this.range = range;
    this.note = note;
    this.render();
  }

  /**
   * A format's own tables (a Chrome trace's streams, kernels, operators…) under `heading`, with its
   * facts; the NPU trace's metrics are `show`'s.
   */
  showTables(heading: string, facts: [string, string][], tables: SummaryTable[], range?: [number, number]): void {
    this.stats = undefined;
    this.range = range;
    const head = el('div', 'sum-head');
    head.append(el('h2', undefined, heading));
    if (range) head.append(button('Whole file', 'link', () => this.h.wholeFile()));
    const dl = el('p', 'sum-facts');
    for (const [k, v] of facts) dl.append(el('span', 'muted', `${k} `), el('span', undefined, v), ' · ');
    dl.lastChild?.remove();
    this.host.replaceChildren(head, dl, ...this.extras(), ...tables.map((t) => this.table(t)));
  }

  private render(): void {
    const s = this.stats;
    const head = el('div', 'sum-head');
    head.append(el('h2', undefined, this.range ? `Summary of cycles ${formatCell(this.range[0], 'int')} – ${formatCell(this.range[1], 'int')}` : 'Summary'));
    if (this.range) head.append(button('Whole file', 'link', () => this.h.wholeFile()));
    if (!s) {
      this.host.replaceChildren(head, el('p', 'muted', this.note || 'The numbers come when the whole file is read.'));
      return;
    }
    const facts: [string, string][] = [
      ['span', `${formatCell(s.span_cycles, 'int')} cycles`], ['events', formatCell(s.events, 'int')], ['unpaired', formatCell(s.unpaired, 'int')],
      ['DMA', `${formatCell(s.dma.bytes, 'int')} B${s.dma.gb_per_s === null ? '' : ` · ${s.dma.gb_per_s.toFixed(2)} GB/s`}`],
      ['SRAM conflicts', `${formatCell(s.sram.conflicts, 'int')} of ${formatCell(s.sram.accesses, 'int')} accesses`],
    ];
    const dl = el('p', 'sum-facts');
    for (const [k, v] of facts) dl.append(el('span', 'muted', `${k} `), el('span', undefined, v), ' · ');
    dl.lastChild?.remove();
    const legend = el('p', 'sum-legend muted');
    const theme = this.theme();
    for (const [engine, label] of [['te', 'TE'], ['ve', 'VE'], ['dma', 'DMA'], ['conflict', 'SRAM conflict rate']] as const) {
      const sw = el('span', 'swatch');
      sw.style.background = theme.kind[ENGINE_KIND[engine]];
      legend.append(sw, ` ${label}  `);
    }
    legend.append('· bars: share of the row\'s span (core: of the window), stacked parts scaled to fit when they overlap');
    const parts: HTMLElement[] = [head, dl, ...this.extras(), legend];
    for (const t of summaryTables(s)) parts.push(this.table(t, s));
    this.host.replaceChildren(...parts);
  }

  /** The extra section of a whole file's Summary (none for a range's). */
  private extras(): HTMLElement[] {
    const x = this.range ? undefined : this.extra?.();
    return x ? [x] : [];
  }

  /**
   * One table as a section: sortable headers, Copy/Save as CSV and JSON (also drawn for the
   * kernel-profiler pane, without metrics). `limit`: rows drawn at first (a *Show more* button draws
   * up to MAX_SHOWN_ROWS).
   */
  table(t: SummaryTable, s?: TraceStats, limit = MAX_SHOWN_ROWS): HTMLElement {
    const sec = el('section', 'sum-table');
    sec.dataset.table = t.id;
    const title = el('div', 'sum-title');
    title.append(el('h3', undefined, `${t.title} (${t.rows.length})`));
    const base = `${this.base()}-${t.id}${this.range ? `-${Math.round(this.range[0])}-${Math.round(this.range[1])}` : ''}`;
    const csv = () => toCsv(t.columns.map((c) => c.label), this.sorted(t).map((i) => t.rows[i]));
    title.append(
      button('Copy as CSV', 'link', () => this.h.copy(csv()), `Copy the ${t.title} table to the clipboard as CSV`),
      button('Save as CSV', 'link', () => this.h.save(`${base}.csv`, csv())),
      button('Save as JSON', 'link', () => this.h.save(`${base}.json`, JSON.stringify(this.sorted(t).map((i) => t.records[i]), null, 2))),
    );
    sec.append(title);
    if (!t.rows.length) {
      sec.append(el('p', 'muted', t.id === 'findings' ? 'No finding.' : 'None in this trace.'));
      return sec;
    }
    const table = el('table', 'sum');
    const sort = this.sorts.get(t.id);
    const hr = el('tr');
    t.columns.forEach((c, k) => {
      const th = el('th', c.kind === 'text' ? undefined : 'num');
      th.setAttribute('aria-sort', sort?.col === k ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none');
      th.append(button(`${c.label}${sort?.col === k ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}`, 'link sort', () => {
        // Numbers sort largest first on the first click, text A→Z.
        const dir = sort?.col === k ? (-sort.dir as 1 | -1) : c.kind === 'text' ? 1 : -1;
        this.sorts.set(t.id, { col: k, dir });
        sec.replaceWith(this.table(t, s, limit));
      }, `Sort by ${c.label}`));
      hr.append(th);
      // The bars come right after the row's name, so a narrow panel still shows them.
      if (k === 0 && t.bars.some((b) => b.length)) hr.append(el('th', undefined, ''));
    });
    const thead = el('thead');
    thead.append(hr);
    const tbody = el('tbody');
    const order = this.sorted(t);
    const shown = Math.min(limit, MAX_SHOWN_ROWS);
    for (const i of order.slice(0, shown)) tbody.append(this.row(t, i, s));
    table.append(thead, tbody);
    sec.append(table);
    if (order.length > shown) {
      const more = el('p', 'muted', `The first ${shown} of ${order.length} rows are shown; Copy and Save have them all.`);
      if (shown < MAX_SHOWN_ROWS) more.append(' ', button('Show more', 'link', () => sec.replaceWith(this.table(t, s, MAX_SHOWN_ROWS))));
      sec.append(more);
    }
    return sec;
  }

  private sorted(t: SummaryTable): number[] {
    const sort = this.sorts.get(t.id);
    return sort ? sortOrder(t.rows, sort.col, sort.dir) : t.rows.map((_r, i) => i);
  }

  private row(t: SummaryTable, i: number, s?: TraceStats): HTMLTableRowElement {
    const tr = el('tr', t.rowClasses?.[i] || undefined);
    const target = t.targets[i];
    t.columns.forEach((c, k) => {
      const text = formatCell(t.rows[i][k], c.kind);
      const td = el('td', c.kind === 'text' ? undefined : 'num');
      // The row's name (a phase, a layer) or a finding's sentence is the thing to click.
      const clickable = target && ((target.kind === 'group' && k === 0) || (target.kind === 'finding' && k === 2));
      if (clickable && target.kind === 'group') td.append(button(text, 'link', () => this.h.group(target.attr, target.value), `Filter the timeline by ${target.attr} and zoom to it`));
      else if (clickable && target.kind === 'finding') td.append(button(text, 'link', () => this.h.finding(s!.findings[target.index]), 'Zoom the timeline to this finding'));
      else td.textContent = text;
      tr.append(td);
      if (k === 0 && t.bars.some((b) => b.length)) {
        const bar = el('td', 'bar-cell');
        bar.append(this.bar(t.bars[i]));
        tr.append(bar);
      }
    });
    return tr;
  }

  private bar(parts: BarPart[]): HTMLElement {
    const theme = this.theme();
    const bar = el('div', 'bar');
    // Stacked parts that add up to more than the whole (TE, VE and DMA overlap in time) are scaled to fit.
    const total = Math.max(1, parts.reduce((a, p) => a + Math.max(0, p.value), 0));
    for (const p of parts) {
      const seg = el('span', `seg ${p.engine}`);
      seg.style.width = `${(Math.max(0, p.value) / total) * 100}%`;
      seg.style.background = theme.kind[ENGINE_KIND[p.engine]];
      seg.title = `${p.engine.toUpperCase()} ${(p.value * 100).toFixed(1)}%`;
      bar.append(seg);
    }
    return bar;
  }
}
